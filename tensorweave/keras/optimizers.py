"""`tf.keras.optimizers`: keras's (legacy OptimizerV2) SGD, Adam, RMSprop and Adagrad in graph
mode, with TF's update formulas, defaults and variable names.

`apply_gradients` opens the optimizer's name scope ("Adam", or "training/Adam" under `fit`) and
makes there the step counter "iter" (int64), one variable per hyperparameter ("learning_rate",
"decay", "beta_1", ...) and the slots "<var>/<slot>" ("training/Adam/dense/kernel/m"). After the
updates it adds 1 to "iter". `decay` > 0 scales the learning rate by 1 / (1 + decay * iter).

Updates (g the gradient, lr the decayed learning rate, t = iter + 1):
  SGD       no momentum: w -= lr * g.  momentum: a = momentum * a - lr * g; w += a
            (nesterov: w += momentum * a - lr * g)
  Adam      m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2);
            w -= lr sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + epsilon)      (epsilon 1e-7)
  RMSprop   ms = rho ms + (1 - rho) g^2; w -= lr g / (sqrt(ms) + epsilon)
            (momentum > 0: mom = momentum mom + lr g / sqrt(ms + epsilon); w -= mom)
  Adagrad   acc += g^2; w -= lr g / (sqrt(acc) + epsilon)        (acc starts at 0.1)
A weight with a `constraint` is projected after its update.
"""

import numpy as np

from ..framework.graph import Tensor, control_dependencies, get_default_graph, name_scope
from .utils import _unknown_object_error


def _ops():
    from ..ops import array_ops, clip_ops, math_ops, state_ops, training_ops, control_flow_ops
    return array_ops, math_ops, state_ops, training_ops, clip_ops, control_flow_ops


def _var_name(var):
    name = var.op.name
    return name


def _resource_apply(op_type, values, **attrs):
    """Resource<op_type>(var.handle, slots' handles, ...), named as tf.raw_ops names it (a
    reference variable, which TF's keras optimizers do not take, gets the reference op)."""
    from ..ops import training_ops
    return training_ops._apply(op_type, values, None, False, **attrs)


def _scatter_add(rvo, var, indices, updates):
    """OptimizerV2._resource_scatter_add: ResourceScatterAdd, then a read after it."""
    if not getattr(var, "_is_resource_variable", False):
        from ..ops import state_ops
        return state_ops.scatter_add(var, indices, updates)
    op = rvo.resource_scatter_add(var.handle, indices, updates)
    with control_dependencies([op]):
        return var.value()


def _as_op(x):
    from ..framework.graph import Operation
    if isinstance(x, Operation) or x is None:
        return x
    return x.op


class Optimizer:
    """Base of the keras optimizers (TF's legacy OptimizerV2 surface in graph mode)."""

    _HYPER_ORDER = ()

    def __init__(self, name, clipnorm=None, clipvalue=None, global_clipnorm=None, decay=0.0,
                 **kwargs):
        if "lr" in kwargs:
            kwargs.setdefault("learning_rate", kwargs.pop("lr"))
        allowed = {"learning_rate"}
        for k in kwargs:
            if k not in allowed:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {k}. Allowed "
                                "kwargs are {'clipnorm', 'clipvalue', 'lr', 'decay', "
                                "'global_clipnorm'}.")
        if decay < 0.0:
            raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
        if sum(x is not None for x in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Cannot accept more than one of `clipnorm`, `clipvalue`, "
                             "and `global_clipnorm`.")
        self._name = name
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self._hyper = {}
        self._hyper_vars = {}
        self._slots = {}
        self._slot_names = []
        self._iterations = None
        self._weights = []
        self._initial_decay = float(decay)
        self._graph = None

    # -- hyperparameters -----------------------------------------------------------------------
    def _set_hyper(self, name, value):
        if name in self._hyper_vars and not callable(value):
            from . import backend as K
            K.set_value(self._hyper_vars[name], value)
        self._hyper[name] = value

    def _get_hyper(self, name, dtype=None):
        from ..ops import math_ops
        v = self._hyper_vars.get(name)
        if v is None:
            value = self._hyper[name]
            return value() if callable(value) else value
        if dtype is not None and v.dtype.base_dtype != dtype:
            return math_ops.cast(v, dtype)
        return v

    def __getattr__(self, name):
        if name.startswith("_") or name in ("lr",):
            if name == "lr":
                return self.__getattr__("learning_rate")
            raise AttributeError(name)
        hyper = self.__dict__.get("_hyper", {})
        if name in hyper:
            return self.__dict__["_hyper_vars"].get(name, hyper[name])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name == "lr":
            name = "learning_rate"
        if not name.startswith("_") and name in self.__dict__.get("_hyper", {}):
            self._set_hyper(name, value)
        else:
            object.__setattr__(self, name, value)

    def _create_hypers(self):
        # As OptimizerV2: one non-trainable resource variable per numeric hyperparameter, made
        # in sorted name order ("beta_1", "beta_2", "decay", "learning_rate"); not in `weights`.
        if self.__dict__.get("_hypers_created"):
            return
        from ..ops.resource_variable_ops import ResourceVariable
        for name in sorted(self._hyper):
            value = self._hyper[name]
            if callable(value) or isinstance(value, Tensor) or name in self._hyper_vars:
                continue
            self._hyper_vars[name] = ResourceVariable(value, name=name, trainable=False)
        self._hypers_created = True

    @property
    def iterations(self):
        if self._iterations is None:
            from ..ops import init_ops
            from ..ops.resource_variable_ops import ResourceVariable
            from ..framework import dtypes
            with get_default_graph().control_dependencies(None):
                self._iterations = ResourceVariable(
                    lambda: init_ops.zeros_initializer()([], dtype=dtypes.int64), name="iter",
                    trainable=False, dtype=dtypes.int64)
            self._weights.insert(0, self._iterations)
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if self._iterations is not None:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer "
                               "weights have been created")
        self._iterations = variable
        self._weights.insert(0, variable)

    # -- slots ---------------------------------------------------------------------------------
    def add_slot(self, var, slot_name, initializer="zeros"):
        from ..ops.resource_variable_ops import ResourceVariable
        from . import initializers
        key = (var.op.name, slot_name)
        if key in self._slots:
            return self._slots[key]
        if slot_name not in self._slot_names:
            self._slot_names.append(slot_name)
        init = initializers.get(initializer)
        shape = var.shape.as_list()
        dtype = var.dtype.base_dtype
        g = get_default_graph()
        with g.control_dependencies(None), g.colocate_with(var.op):
            slot = ResourceVariable(lambda: init(shape, dtype=dtype),
                                    name=f"{_var_name(var)}/{slot_name}", trainable=False,
                                    dtype=dtype)
        self._slots[key] = slot
        self._weights.append(slot)
        return slot

    def get_slot(self, var, slot_name):
        return self._slots[(var.op.name, slot_name)]

    def get_slot_names(self):
        return list(self._slot_names)

    def _create_slots(self, var_list):
        pass

    # -- gradients and updates -----------------------------------------------------------------
    def _clip(self, grads):
        a, m, s, t, clip, cf = _ops()
        if self.clipvalue is not None:
            grads = [None if g is None else clip.clip_by_value(g, -self.clipvalue, self.clipvalue)
                     for g in grads]
        if self.clipnorm is not None:
            grads = [None if g is None else clip.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm is not None:
            grads, _ = clip.clip_by_global_norm(grads, self.global_clipnorm)
        return grads

    def get_gradients(self, loss, params):
        """The gradients of `loss`, built under "<name>/gradients" (legacy graph mode)."""
        from ..autodiff.gradients import gradients
        params = list(params)
        with name_scope(self._name + "/gradients"):
            grads = gradients(loss, params)
        for g, p in zip(grads, params):
            if g is None:
                raise ValueError(f"Variable {p} has `None` for gradient. Please make sure that all of "
                                 "your ops have a gradient defined (i.e. are differentiable). Common "
                                 "ops without gradient: K.argmax, K.round, K.eval.")
        return grads

    def get_updates(self, loss, params):
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(list(zip(grads, params)))]

    def minimize(self, loss, var_list=None, grad_loss=None, name=None, tape=None):
        from ..autodiff.gradients import gradients
        from ..framework.graph import GraphKeys
        if callable(loss) and not isinstance(loss, Tensor):
            loss = loss()
        if var_list is None:
            var_list = get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES)
        elif callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = gradients(loss, var_list, grad_ys=grad_loss)
        return self.apply_gradients(list(zip(grads, var_list)), name=name)

    def _decayed_lr(self, dtype):
        from ..ops import math_ops
        lr = self._get_hyper("learning_rate", dtype)
        if self._initial_decay > 0.0:
            step = math_ops.cast(self.iterations, dtype)
            decay = math_ops.cast(self._initial_decay, dtype)
            lr = lr / (1.0 + decay * step)
        return lr

    def _aggregate(self, grads):
        """The default strategy's all-reduce as TF builds it in graph mode: an Identity per
        gradient, then one IdentityN over (reduced, original) whose first half is used."""
        from ..framework.indexed_slices import IndexedSlices
        a = _ops()[0]
        if any(isinstance(g, IndexedSlices) for g in grads):
            return grads
        for g in grads:
            a.identity(g)
        return list(a.identity_n(list(grads) + list(grads))[:len(grads)])

    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True,
                        **kwargs):
        """The update op, as OptimizerV2 builds it: weights (iter, hyperparameters, slots), the
        coefficients shared by all variables, an update per (gradient, variable) under
        "<name>/update_<var>", then iter += 1 after all of them."""
        a, m, s, t, clip, cf = _ops()
        grads_and_vars = list(grads_and_vars)
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[v.name for _, v in grads_and_vars]}.")
        var_list = [v for _, v in pairs]
        g = get_default_graph()
        self._graph = g
        with name_scope(self._name):
            with g.control_dependencies(None):
                _ = self.iterations
                self._create_hypers()
                self._create_slots(var_list)
            dtypes_seen = []
            for v in var_list:
                if v.dtype.base_dtype not in dtypes_seen:
                    dtypes_seen.append(v.dtype.base_dtype)
            apply_state = {dt: self._prepare_local(dt) for dt in dtypes_seen}
            grads = [gr for gr, _ in pairs]
            if experimental_aggregate_gradients:
                grads = self._aggregate(grads)
            grads = self._clip(grads)
            from ..framework.indexed_slices import IndexedSlices
            with name_scope(name or self._name):
                updates = []
                for grad, var in zip(grads, var_list):
                    coefficients = apply_state[var.dtype.base_dtype]
                    with g.colocate_with(var.op), name_scope("update_" + var.op.name):
                        if isinstance(grad, IndexedSlices):
                            if getattr(var, "constraint", None) is not None:
                                raise RuntimeError("Cannot use a constraint function on a sparse "
                                                   "variable.")
                            op = self._resource_apply_sparse_duplicate_indices(
                                grad.values, var, grad.indices, coefficients)
                        else:
                            op = self._resource_apply_dense(grad, var, coefficients)
                            if getattr(var, "constraint", None) is not None:
                                with control_dependencies([op]):
                                    op = var.assign(var.constraint(var))
                    updates.append(_as_op(op))
                with control_dependencies([cf.group(*updates)]):
                    inc = self.iterations.assign_add(np.asarray(1, np.int64), read_value=False)
        return _as_op(inc)

    def _prepare_local(self, dtype):
        a = _ops()[0]
        coefficients = {}
        if "learning_rate" in self._hyper:
            coefficients["lr_t"] = a.identity(self._decayed_lr(dtype))
        return coefficients

    def _resource_apply_dense(self, grad, var, coefficients):
        raise NotImplementedError

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, coefficients):
        a, m = _ops()[:2]
        from ..ops import math_ops
        unique_indices, new_index_positions = a.unique(indices)
        summed = math_ops.unsorted_segment_sum(grad, new_index_positions,
                                               a.shape(unique_indices)[0])
        return self._resource_apply_sparse(summed, var, unique_indices, coefficients)

    def _resource_apply_sparse(self, grad, var, indices, coefficients):
        raise NotImplementedError(f"{type(self).__name__} has no sparse update")

    # -- config and weights --------------------------------------------------------------------
    def get_config(self):
        config = {"name": self._name}
        if self.clipnorm is not None:
            config["clipnorm"] = self.clipnorm
        if self.clipvalue is not None:
            config["clipvalue"] = self.clipvalue
        if self.global_clipnorm is not None:
            config["global_clipnorm"] = self.global_clipnorm
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        return cls(**config)

    def _serialize_hyperparameter(self, name):
        value = self._hyper[name]
        if name in self._hyper_vars:
            from . import backend as K
            try:
                return K.get_value(self._hyper_vars[name])   # np.float32, as TF's
            except Exception:  # noqa: BLE001  (no session yet: the Python value)
                return value
        return value

    def variables(self):
        return list(self._weights)

    @property
    def weights(self):
        return list(self._weights)

    def get_weights(self):
        from . import backend as K
        return K.batch_get_value(self._weights)

    def set_weights(self, weights):
        from . import backend as K
        if len(weights) != len(self._weights):
            raise ValueError(f"You called `set_weights(weights)` on optimizer {self._name} with a "
                             f"weight list of length {len(weights)}, but the optimizer was "
                             f"expecting {len(self._weights)} weights.")
        K.batch_set_value(list(zip(self._weights, weights)))


class SGD(Optimizer):
    """Gradient descent with optional (Nesterov) momentum; learning_rate default 0.01."""

    _HYPER_ORDER = ("learning_rate", "decay", "momentum")

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._momentum = False
        if callable(momentum) or isinstance(momentum, Tensor) or momentum > 0:
            self._momentum = True
        if isinstance(momentum, (int, float)) and not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                             f"(of type {type(momentum)}).")
        self._set_hyper("momentum", momentum)
        self.nesterov = nesterov

    def _create_slots(self, var_list):
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["momentum"] = _ops()[0].identity(self._get_hyper("momentum", dtype))
        return c

    def _resource_apply_dense(self, grad, var, coefficients):
        if self._momentum:
            return _resource_apply("ApplyKerasMomentum",
                                   [var, self.get_slot(var, "momentum"), coefficients["lr_t"], grad,
                                    coefficients["momentum"]], use_nesterov=bool(self.nesterov))
        return _resource_apply("ApplyGradientDescent", [var, coefficients["lr_t"], grad])

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, coefficients):
        if self._momentum:
            return super()._resource_apply_sparse_duplicate_indices(grad, var, indices, coefficients)
        from ..ops import resource_variable_ops as rvo
        if not getattr(var, "_is_resource_variable", False):
            return _ops()[2].scatter_add(var, indices, -grad * coefficients["lr_t"])
        return rvo.resource_scatter_add(var.handle, indices, -grad * coefficients["lr_t"])

    def _resource_apply_sparse(self, grad, var, indices, coefficients):
        return _resource_apply("SparseApplyKerasMomentum",
                               [var, self.get_slot(var, "momentum"), coefficients["lr_t"], grad, indices,
                                coefficients["momentum"]], use_nesterov=bool(self.nesterov))

    def get_config(self):
        config = super().get_config()
        config.update(learning_rate=self._serialize_hyperparameter("learning_rate"),
                      decay=self._initial_decay,
                      momentum=self._serialize_hyperparameter("momentum"), nesterov=self.nesterov)
        return config


class Adam(Optimizer):
    """Adam (Kingma & Ba); defaults learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7."""

    _HYPER_ORDER = ("learning_rate", "decay", "beta_1", "beta_2")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 name="Adam", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or 1e-7
        self.amsgrad = amsgrad

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "m")
        for var in var_list:
            self.add_slot(var, "v")
        if self.amsgrad:
            for var in var_list:
                self.add_slot(var, "vhat")

    def _prepare_local(self, dtype):
        a, m = _ops()[:2]
        c = super()._prepare_local(dtype)
        local_step = m.cast(self.iterations + 1, dtype)
        beta_1_t = a.identity(self._get_hyper("beta_1", dtype))
        beta_2_t = a.identity(self._get_hyper("beta_2", dtype))
        beta_1_power = m.pow(beta_1_t, local_step)
        beta_2_power = m.pow(beta_2_t, local_step)
        lr = c["lr_t"] * (m.sqrt(1 - beta_2_power) / (1 - beta_1_power))
        c.update(lr=lr, epsilon=a.convert_to_tensor(np.asarray(self.epsilon, dtype.as_numpy_dtype)),
                 beta_1_t=beta_1_t, beta_1_power=beta_1_power, one_minus_beta_1_t=1 - beta_1_t,
                 beta_2_t=beta_2_t, beta_2_power=beta_2_power, one_minus_beta_2_t=1 - beta_2_t)
        return c

    def _resource_apply_dense(self, grad, var, c):
        if self.amsgrad:
            return self._apply_amsgrad(grad, var, c)
        return _resource_apply("ApplyAdam",
                               [var, self.get_slot(var, "m"), self.get_slot(var, "v"), c["beta_1_power"],
                                c["beta_2_power"], c["lr_t"], c["beta_1_t"], c["beta_2_t"],
                                c["epsilon"], grad], use_nesterov=False)

    def _apply_amsgrad(self, grad, var, c):
        # ResourceApplyAdamWithAmsgrad's update, composed: v-hat keeps the largest v seen.
        m, s, cf = _ops()[1], _ops()[2], _ops()[5]
        mv, vv, vh = self.get_slot(var, "m"), self.get_slot(var, "v"), self.get_slot(var, "vhat")
        m_t = s.assign(mv, mv + (grad - mv) * c["one_minus_beta_1_t"])
        v_t = s.assign(vv, vv + (m.square(grad) - vv) * c["one_minus_beta_2_t"])
        vh_t = s.assign(vh, m.maximum(vh, v_t))
        var_t = s.assign_sub(var, c["lr"] * m_t / (m.sqrt(vh_t) + c["epsilon"]))
        return cf.group(*[_as_op(var_t), _as_op(m_t), _as_op(v_t), _as_op(vh_t)])

    def _resource_apply_sparse(self, grad, var, indices, c):
        a, m, s = _ops()[:3]
        from ..ops import resource_variable_ops as rvo
        if self.amsgrad:
            raise NotImplementedError("Adam(amsgrad=True) on sparse gradients is not supported "
                                      "by tensorweave yet")
        mv = self.get_slot(var, "m")
        m_scaled_g_values = grad * c["one_minus_beta_1_t"]
        m_t = s.assign(mv, mv * c["beta_1_t"])
        with control_dependencies([_as_op(m_t)]):
            m_t = _scatter_add(rvo, mv, indices, m_scaled_g_values)
        vv = self.get_slot(var, "v")
        v_scaled_g_values = (grad * grad) * c["one_minus_beta_2_t"]
        v_t = s.assign(vv, vv * c["beta_2_t"])
        with control_dependencies([_as_op(v_t)]):
            v_t = _scatter_add(rvo, vv, indices, v_scaled_g_values)
        v_sqrt = m.sqrt(v_t)
        var_update = s.assign_sub(var, c["lr"] * m_t / (v_sqrt + c["epsilon"]))
        return _ops()[5].group(*[_as_op(var_update), _as_op(m_t), _as_op(v_t)])

    def get_config(self):
        config = super().get_config()
        config.update(learning_rate=self._serialize_hyperparameter("learning_rate"),
                      decay=self._initial_decay, beta_1=self._serialize_hyperparameter("beta_1"),
                      beta_2=self._serialize_hyperparameter("beta_2"), epsilon=self.epsilon,
                      amsgrad=self.amsgrad)
        return config


class RMSprop(Optimizer):
    """RMSprop; defaults learning_rate 0.001, rho 0.9, momentum 0, epsilon 1e-7."""

    _HYPER_ORDER = ("learning_rate", "decay", "rho", "momentum")

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name="RMSprop", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self._momentum = False
        if callable(momentum) or isinstance(momentum, Tensor) or momentum > 0:
            self._momentum = True
        if isinstance(momentum, (int, float)) and not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum}")
        self._set_hyper("momentum", momentum)
        self.epsilon = epsilon or 1e-7
        self.centered = centered

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "rms")
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")
        if self.centered:
            for var in var_list:
                self.add_slot(var, "mg")

    def _prepare_local(self, dtype):
        a = _ops()[0]
        c = super()._prepare_local(dtype)
        rho = a.identity(self._get_hyper("rho", dtype))
        c.update(neg_lr_t=-c["lr_t"],
                 epsilon=a.convert_to_tensor(np.asarray(self.epsilon, dtype.as_numpy_dtype)),
                 rho=rho, momentum=a.identity(self._get_hyper("momentum", dtype)),
                 one_minus_rho=1.0 - rho)
        return c

    def _resource_apply_dense(self, grad, var, c):
        a, m, s = _ops()[:3]
        rms = self.get_slot(var, "rms")
        if self._momentum and self.centered:
            return _resource_apply("ApplyCenteredRMSProp",
                                   [var, self.get_slot(var, "mg"), rms, self.get_slot(var, "momentum"),
                                    c["lr_t"], c["rho"], c["momentum"], c["epsilon"], grad])
        if self._momentum:
            return _resource_apply("ApplyRMSProp",
                                   [var, rms, self.get_slot(var, "momentum"), c["lr_t"], c["rho"],
                                    c["momentum"], c["epsilon"], grad])
        rms_t = c["rho"] * rms + c["one_minus_rho"] * m.square(grad)
        rms_t = s.assign(rms, rms_t)
        denom_t = rms_t
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = s.assign(mg, c["rho"] * mg + c["one_minus_rho"] * grad)
            denom_t = rms_t - m.square(mg_t)
        var_t = var - c["lr_t"] * grad / (m.sqrt(denom_t) + c["epsilon"])
        return _as_op(s.assign(var, var_t))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # TF's RMSprop: the fused sparse kernels with momentum; otherwise every row of the slots
        # decays by rho and only the gathered rows get the (1 - rho)-scaled squared gradient.
        a, m, s, _, _, cf = _ops()
        from ..ops import resource_variable_ops as rvo
        rms = self.get_slot(var, "rms")
        if self._momentum:
            mom = self.get_slot(var, "momentum")
            if self.centered:
                return _resource_apply("SparseApplyCenteredRMSProp",
                                       [var, self.get_slot(var, "mg"), rms, mom, c["lr_t"],
                                        c["rho"], c["momentum"], c["epsilon"], grad, indices])
            return _resource_apply("SparseApplyRMSProp",
                                   [var, rms, mom, c["lr_t"], c["rho"], c["momentum"],
                                    c["epsilon"], grad, indices])
        rms_scaled_g_values = (grad * grad) * c["one_minus_rho"]
        rms_t = s.assign(rms, rms * c["rho"])
        with control_dependencies([_as_op(rms_t)]):
            rms_t = _scatter_add(rvo, rms, indices, rms_scaled_g_values)
            rms_slice = a.gather(rms_t, indices)
        denom_slice = rms_slice
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = s.assign(mg, mg * c["rho"])
            with control_dependencies([_as_op(mg_t)]):
                mg_t = _scatter_add(rvo, mg, indices, grad * c["one_minus_rho"])
                mg_slice = a.gather(mg_t, indices)
                denom_slice = rms_slice - m.square(mg_slice)
        var_update = _scatter_add(rvo, var, indices,
                                  c["neg_lr_t"] * grad / (m.sqrt(denom_slice) + c["epsilon"]))
        if self.centered:
            return cf.group(var_update, rms_t, mg_t)
        return cf.group(var_update, rms_t)

    def get_config(self):
        config = super().get_config()
        config.update(learning_rate=self._serialize_hyperparameter("learning_rate"),
                      decay=self._initial_decay, rho=self._serialize_hyperparameter("rho"),
                      momentum=self._serialize_hyperparameter("momentum"), epsilon=self.epsilon,
                      centered=self.centered)
        return config


class Adagrad(Optimizer):
    """Adagrad; defaults learning_rate 0.001, initial_accumulator_value 0.1, epsilon 1e-7."""

    _HYPER_ORDER = ("learning_rate", "decay")

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value must be non-negative: "
                             f"{initial_accumulator_value}")
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon or 1e-7

    def _create_slots(self, var_list):
        from ..ops import init_ops
        for var in var_list:
            init = init_ops.constant_initializer(self._initial_accumulator_value,
                                                 dtype=var.dtype.base_dtype)
            self.add_slot(var, "accumulator", init)

    def _prepare_local(self, dtype):
        a = _ops()[0]
        from ..framework import dtypes
        c = super()._prepare_local(dtype)
        c.update(epsilon=a.convert_to_tensor(np.asarray(self.epsilon, dtype.as_numpy_dtype)),
                 neg_lr_t=-c["lr_t"], zero=a.zeros((), dtype=dtypes.int64))
        return c

    def _resource_apply_dense(self, grad, var, c):
        return _resource_apply("ApplyAdagradV2", [var, self.get_slot(var, "accumulator"), c["lr_t"],
                                                  c["epsilon"], grad], update_slots=True)

    def _resource_apply_sparse(self, grad, var, indices, c):
        return _resource_apply("SparseApplyAdagradV2",
                               [var, self.get_slot(var, "accumulator"), c["lr_t"], c["epsilon"], grad,
                                indices], update_slots=True)

    def get_config(self):
        config = super().get_config()
        config.update(learning_rate=self._serialize_hyperparameter("learning_rate"),
                      decay=self._initial_decay,
                      initial_accumulator_value=self._initial_accumulator_value,
                      epsilon=self.epsilon)
        return config


from .optimizers_extra import Adadelta, Adamax, Ftrl, Nadam, TFOptimizer  # noqa: E402

_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad,
            "adadelta": Adadelta, "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}


def get(identifier):
    """An optimizer for a name ("sgd", "adam", ...), a keras optimizer, or a tf.train one."""
    if isinstance(identifier, (Optimizer, TFOptimizer)):
        return identifier
    if isinstance(identifier, str):
        key = identifier.lower()
        if key not in _BY_NAME:
            raise _unknown_object_error("optimizer", identifier)
        return _BY_NAME[key]()
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(identifier["class_name"].lower())
        if cls is None:
            raise _unknown_object_error("optimizer", identifier["class_name"])
        return cls.from_config(identifier.get("config", {}))
    if hasattr(identifier, "compute_gradients") and hasattr(identifier, "apply_gradients"):
        return TFOptimizer(identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config):
    return get(config)


def __getattr__(name):
    raise AttributeError(f"tf.keras.optimizers.{name} is not supported by tensorweave yet")
