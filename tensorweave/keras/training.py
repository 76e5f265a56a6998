"""`Model.compile / fit / evaluate / predict / train_on_batch / test_on_batch /
predict_on_batch`, as TF's v1 keras training loop (training_v1 + training_arrays_v1) runs them.

`compile` makes one target placeholder per output ("<output layer>_target"), the total loss
(each output's loss reduced as sum / number of entries, times its loss weight, plus the layers'
regularization losses), and stateful metrics ("acc" for 'accuracy'/'acc' in TF1 mode: binary,
sparse-categorical or categorical accuracy chosen from the loss and output shape, as TF does).
The train function feeds the learning phase True and runs the optimizer's updates (made under the
name scope "training") and the layers' updates (batch-norm moving averages).

`fit` loops over epochs and batches (`np.random.shuffle` of the sample indices each epoch when
`shuffle=True`, as TF), resets the metrics at the start of each epoch, and logs per epoch the
loss averaged over samples and the metrics' accumulated values; `validation_data` adds "val_*".
"""

import numpy as np

from ..framework.graph import name_scope
from . import backend as K
from .engine import get_mask
from .training_generator import _as_list
from .training_loops import LoopsMixin


def _is_fn(fn, target):
    from . import losses
    if isinstance(fn, losses.LossFunctionWrapper):
        return fn.fn is target
    return fn is target


def _wrong_array_count(what, names, arrays):
    return ValueError(f"Error when checking model {what}: the list of Numpy arrays that you are "
                      "passing to your model is not the size the model expected. Expected to see "
                      f"{len(names)} array(s), for inputs {names} but instead got the following "
                      f"list of {len(arrays)} arrays: {str(arrays)[:200]}...")

class TrainingMixin(LoopsMixin):
    """compile/fit/evaluate/predict for Model (graph mode, TF's v1 semantics)."""

    def _init_training(self):
        self.optimizer = None
        self._compiled = False
        self._train_fn = self._test_fn = self._predict_fn = None
        self.history = None
        self.stop_training = False
        self._metric_objects = []

    # -- compile -------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                sample_weight_mode=None, weighted_metrics=None, target_tensors=None,
                distribute=None, run_eagerly=None, **kwargs):
        """Configures training: optimizer (a name or an optimizer), loss (a name, function or
        Loss; a list or dict for several outputs), metrics (names, functions or Metrics)."""
        from . import optimizers
        if kwargs:
            raise TypeError(f"Invalid keyword argument(s) in `compile()`: {tuple(kwargs)}. Valid "
                            "keyword arguments include \"cloning\", \"experimental_run_tf_function\", "
                            "\"distribute\", \"target_tensors\", or \"sample_weight_mode\".")
        if weighted_metrics or target_tensors is not None:
            raise NotImplementedError("compile(weighted_metrics / target_tensors) is not supported "
                                      "by tensorweave yet")
        if isinstance(sample_weight_mode, (list, dict)):
            raise NotImplementedError("compile(sample_weight_mode=<list or dict>) is not supported "
                                      "by tensorweave yet")
        if sample_weight_mode not in (None, "temporal"):
            raise ValueError('"sample_weight_mode should be None or "temporal". Found: '
                             f"{sample_weight_mode}")
        self._compile_sw_mode = sample_weight_mode
        if run_eagerly:
            raise ValueError("run_eagerly=True is not supported in TF1 graph mode")
        self.optimizer = optimizers.get(optimizer)
        self.loss = loss
        self._compile_metrics = metrics
        self._loss_weights = loss_weights
        self._compiled = True
        self._train_fn = self._test_fn = self._predict_fn = None
        self._graph_compiled = False
        if self.outputs is not None:
            self._compile_graph()

    def _resolve_per_output(self, value, what, default=None):
        names = self.output_names
        if isinstance(value, dict):
            for k in value:
                if k not in names:
                    raise ValueError(f"Unknown entries in {what} dictionary: [{k!r}]. Only expected "
                                     f"following keys: {names}")
            return [value.get(n, default) for n in names]
        if isinstance(value, (list, tuple)) and what != "metrics":
            if len(value) != len(names):
                raise ValueError(f"When passing a list as {what}, it should have one entry per model "
                                 f"outputs. The model has {len(names)} outputs, but you passed "
                                 f"{what}={value}")
            return list(value)
        return [value] * len(names)

    def _compile_graph(self):
        from . import losses as losses_mod, metrics as metrics_mod
        from ..ops import math_ops
        if self._graph_compiled:
            return
        g = self.outputs[0].graph
        with g.as_default():
            loss_fns = self._resolve_per_output(self.loss, "loss")
            weights = self._resolve_per_output(self._loss_weights, "loss_weights", 1.0) \
                if self._loss_weights is not None else [1.0] * len(self.outputs)
            self._loss_fns = []
            for fn in loss_fns:
                if fn is None:
                    self._loss_fns.append(None)
                    continue
                fn = losses_mod.get(fn)
                if not isinstance(fn, losses_mod.Loss):
                    fn = losses_mod.LossFunctionWrapper(fn, name=getattr(fn, "__name__", "loss"))
                self._loss_fns.append(fn)
            if all(f is None for f in self._loss_fns):
                raise ValueError("The model cannot be compiled because it has no loss to optimize.")
            self.targets = []
            for out, name, fn in zip(self.outputs, self.output_names, self._loss_fns):
                if fn is None:
                    self.targets.append(None)
                    continue
                self.targets.append(K.placeholder(ndim=out.shape.ndims, name=name + "_target",
                                                  dtype=out.dtype.base_dtype))
            self._loss_weights_list = weights
            self._sw_mode = None
            self._sample_weights = [None] * len(self.outputs)
            multi = len(self.outputs) > 1
            self._metric_objects = []
            self.metrics_names = ["loss"]
            self._output_loss_metrics = [None] * len(self.outputs)
            if multi:
                for i, (name, fn) in enumerate(zip(self.output_names, self._loss_fns)):
                    if fn is not None:
                        self._output_loss_metrics[i] = metrics_mod.Mean(name=name + "_loss")
            self._build_loss()
            for m in self._output_loss_metrics:
                if m is not None:
                    self.metrics_names.append(m.name)
            per_output = self._per_output_metrics(self._compile_metrics)
            for out, name, fn, tgt, mlist in zip(self.outputs, self.output_names, self._loss_fns,
                                                  self.targets, per_output):
                mask = get_mask(out)
                for spec in mlist:
                    mobj, mname = self._make_metric(spec, fn, out)
                    if multi:
                        mname = f"{name}_{mname}"
                    result = mobj(tgt, out) if mask is None else \
                        mobj(tgt, out, sample_weight=math_ops.cast(mask, out.dtype.base_dtype))
                    self._metric_objects.append((mobj, result))
                    self.metrics_names.append(mname)
            metric_vars = [v for m, _ in self._metric_objects for v in m.variables] + \
                [v for m in self._output_loss_metrics if m is not None for v in m.variables]
            from ..ops import array_ops, state_ops, control_flow_ops
            with g.control_dependencies(None):
                self._reset_op = control_flow_ops.group(
                    *[state_ops.assign(v, array_ops.zeros_like(v)).op for v in metric_vars]) \
                    if metric_vars else None
        self._graph_compiled = True

    def _build_loss(self):
        """The total loss as TF's _prepare_total_loss: per output, the loss function's per-sample
        values weighted by the sample weights (a "<output>_sample_weights" placeholder once
        weights were given) and the output's keras mask, reduced, times the loss weight; plus
        the layers' losses."""
        from . import losses as L
        from ..framework.constant_op import constant
        from ..ops import array_ops, math_ops
        self._sample_weights = []
        for name, fn in zip(self.output_names, self._loss_fns):
            if fn is None or self._sw_mode is None:
                self._sample_weights.append(None)
                continue
            default, shape = ([[1.0]], [None, None]) if self._sw_mode == "temporal" \
                else ([1.0], [None])
            self._sample_weights.append(array_ops.placeholder_with_default(
                constant(default, dtype=K.floatx()), shape=shape, name=name + "_sample_weights"))
        self._output_loss_results = []
        with name_scope("loss"):
            loss_list = []
            for i, (out, name, fn, tgt, w, sw) in enumerate(zip(
                    self.outputs, self.output_names, self._loss_fns, self.targets,
                    self._loss_weights_list, self._sample_weights)):
                if fn is None:
                    continue
                with name_scope(name + "_loss"):
                    mask = get_mask(out)
                    if mask is not None:
                        mask = math_ops.cast(mask, out.dtype.base_dtype)
                        if sw is None:
                            sw = mask
                        else:
                            mask, _, sw = L.squeeze_or_expand_dimensions(mask, sample_weight=sw)
                    reduction = fn.reduction
                    if reduction == L.Reduction.AUTO:
                        reduction = L.Reduction.SUM_OVER_BATCH_SIZE
                    per_sample = fn.call(tgt, out)
                    sw = L.apply_valid_mask(per_sample, sw, mask, reduction)
                    weighted = L.compute_weighted_loss(per_sample, sample_weight=sw,
                                                       reduction=L.Reduction.NONE)
                    value = L.reduce_weighted_loss(weighted, reduction)
                if self._output_loss_metrics[i] is not None:
                    self._output_loss_results.append(self._output_loss_metrics[i](value))
                loss_list.append(w * value)
            custom = list(self.losses)
            if custom:
                loss_list.append(math_ops.add_n(custom))
            self.total_loss = loss_list[0] if len(loss_list) == 1 else math_ops.add_n(loss_list)

    def _set_sample_weight_mode(self, weighted):
        """Notes whether this call gives sample weights (TF's _update_sample_weight_modes)."""
        self._sw_wanted = (self._compile_sw_mode or "samplewise") if weighted else None

    def _recompile_weights(self):
        """Rebuilds the loss when sample weights started or stopped being given; True if it did.
        As TF's _recompile_weights_loss_and_weighted_metrics this runs when the train or test
        function is made, and only that function is remade: the other one keeps the old loss."""
        wanted = getattr(self, "_sw_wanted", None)
        if wanted == self._sw_mode:
            return False
        self._sw_mode = wanted
        with self.outputs[0].graph.as_default():
            self._build_loss()
        return True

    def _per_output_metrics(self, metrics):
        # TF's collect_per_output_metric_info.
        from . import metrics as M
        n = len(self.outputs)
        if not metrics:
            return [[] for _ in range(n)]
        if isinstance(metrics, dict):
            self._resolve_per_output(metrics, "metrics")   # (refuses unknown output names)
            return [_as_list(metrics.get(name)) for name in self.output_names]
        if not isinstance(metrics, list):
            raise TypeError("Type of `metrics` argument not understood. Expected a list or "
                            f"dictionary, found: {metrics}")
        if any(isinstance(m, list) for m in metrics):
            if len(metrics) != n:
                raise ValueError("When passing a list of lists as `metrics`, it should have one "
                                 f"entry per model output. The model has {n} outputs, but you "
                                 f"passed metrics={metrics}")
            return [_as_list(m) for m in metrics]
        if n == 1:
            return [list(metrics)]
        # Each output gets its own copy of a metric object (TF's clone_metric).
        return [[type(m).from_config(m.get_config()) if isinstance(m, M.Metric) else m
                 for m in metrics] for _ in range(n)]

    def _make_metric(self, spec, loss_fn, output):
        from . import losses, metrics as M
        if isinstance(spec, M.Metric):
            return spec, spec.name
        if spec in ("accuracy", "acc", "crossentropy", "ce"):
            last = output.shape.as_list()[-1] if output.shape.ndims else None
            is_sparse = _is_fn(loss_fn, losses.sparse_categorical_crossentropy)
            is_binary = _is_fn(loss_fn, losses.binary_crossentropy)
            if spec in ("accuracy", "acc"):
                if last == 1 or is_binary:
                    fn = M.binary_accuracy
                elif is_sparse:
                    fn = M.sparse_categorical_accuracy
                else:
                    fn = M.categorical_accuracy
                name = "acc"
            else:
                if last == 1 or is_binary:
                    fn = M.binary_crossentropy
                elif is_sparse:
                    fn = M.sparse_categorical_crossentropy
                else:
                    fn = M.categorical_crossentropy
                name = "ce"
        else:
            fn = M.get(spec)
            name = getattr(fn, "name", None) or fn.__name__
        return M.MeanMetricWrapper(fn, name=name), name

    @property
    def metrics(self):
        return [m for m in getattr(self, "_output_loss_metrics", []) if m is not None] + \
            [m for m, _ in self._metric_objects]

    def _metric_outputs(self):
        return list(self._output_loss_results) + [r for _, r in self._metric_objects]

    # -- functions -----------------------------------------------------------------------------
    def _check_compiled(self):
        if not self._compiled:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    def _feed_targets(self):
        return [t for t in self.targets if t is not None]

    def _make_train_function(self):
        if self._recompile_weights() or self._train_fn is None:
            g = self.outputs[0].graph
            with g.as_default():
                K.symbolic_learning_phase()  # made before "training", as TF's train function
                with name_scope("training"):
                    params = self._collected_trainable_weights = self.trainable_weights
                    updates = self.optimizer.get_updates(loss=self.total_loss, params=params)
                    updates = list(updates) + list(self.updates)
                    outputs = [self.total_loss] + self._metric_outputs()
                # TF's v1 train function opens the scope twice: its group_deps is "training_1/..."
                with name_scope("training"):
                    self._train_fn = K.Function(self.inputs + self._feed_targets() +
                                                self._feed_sample_weights(), outputs,
                                                updates=updates, name="train_function",
                                                feed_learning_phase=True)
        return self._train_fn

    def _make_test_function(self):
        if self._recompile_weights() or self._test_fn is None:
            with self.outputs[0].graph.as_default():
                outputs = [self.total_loss] + self._metric_outputs()
                self._test_fn = K.Function(self.inputs + self._feed_targets() +
                                           self._feed_sample_weights(), outputs,
                                           name="test_function", feed_learning_phase=False)
        return self._test_fn

    def _make_predict_function(self):
        if self._predict_fn is None:
            with self.outputs[0].graph.as_default():
                self._predict_fn = K.Function(self.inputs, self.outputs, name="predict_function",
                                              feed_learning_phase=False)
        return self._predict_fn

    def reset_metrics(self):
        if getattr(self, "_reset_op", None) is not None:
            with self.outputs[0].graph.as_default():
                K.get_session().run(self._reset_op)

    # -- data ----------------------------------------------------------------------------------
    def _standardize_x(self, x):
        if hasattr(x, "get_next") and hasattr(x, "output_types"):  # a tf.data Iterator
            raise ValueError("For performance reasons TF-Keras `fit`, `evaluate` and`predict` "
                             "accept tf.data `Datasets` as input but not iterators that have "
                             "been manually generated from Datasets by users. Please directly "
                             "pass in the original `Dataset` object instead of passing in "
                             "`iter(dataset)`.")
        if isinstance(x, dict):
            names = getattr(self, "input_names", None) or []
            for n in names:
                if n not in x:
                    raise ValueError(f'No data provided for "{n}". Need data for each key in: '
                                     f"{names}")
            return [np.asarray(x[n]) for n in names]
        if isinstance(x, (list, tuple)):
            # TF: a flat list of numbers is one array for a one-input model.
            if x and isinstance(x[0], (float, int)) and \
                    len(getattr(self, "input_names", None) or [None]) == 1:
                return [np.asarray(x)]
            return [np.asarray(a) for a in x]
        if x is None:
            raise ValueError("Please provide as model inputs either a single array or a list of "
                             "arrays.")
        return [np.asarray(x)]

    def _standardize(self, x, y=None, need_y=True):
        xs = self._standardize_x(x)
        self._ensure_graph(xs)
        if self._compiled:
            self._compile_graph()
        if len(xs) != len(self.inputs):
            raise _wrong_array_count("input", self.input_names, xs)
        # As TF's standardize_single_array: a 1-D array is a column unless the input is 1-D.
        xs = [a[:, None] if a.ndim == 1 and t.shape.ndims != 1 else a
              for a, t in zip(xs, self.inputs)]
        xs = [a.astype(t.dtype.base_dtype.as_numpy_dtype, copy=False) for a, t in zip(xs, self.inputs)]
        for a, t in zip(xs, self.inputs):
            self._check_array_shape(a, t, "input")
        ys = []
        if need_y:
            if y is None:
                raise ValueError("Target data is missing. Your model was compiled with loss, and "
                                 "therefore expects target data to be passed in `fit()`.")
            if isinstance(y, dict):
                ys = [np.asarray(y[n]) for n in self.output_names]
            elif isinstance(y, (list, tuple)) and (len(self.outputs) > 1 or
                                                   hasattr(y[0], "shape")):
                ys = [np.asarray(a) for a in y]
            else:
                ys = [np.asarray(y)]
            if len(ys) != len(self.outputs):
                raise _wrong_array_count("target", self.output_names, ys)
            ys = [a for a, t in zip(ys, self.targets) if t is not None]
            tgts = self._feed_targets()
            out_ys = []
            for a, t in zip(ys, tgts):
                if a.ndim == t.shape.ndims - 1:
                    a = a.reshape(a.shape + (1,))
                out_ys.append(a.astype(t.dtype.base_dtype.as_numpy_dtype, copy=False))
            ys = out_ys
            n = {len(a) for a in xs + ys}
            if len(n) > 1:
                raise ValueError(f"Input arrays should have the same number of samples as target "
                                 f"arrays. Found {len(xs[0])} input samples and {len(ys[0])} target "
                                 "samples.")
            self._check_loss_and_target(ys)
        return xs, ys

    def _check_loss_and_target(self, ys):
        """TF's check_loss_and_target_compatibility: targets that cannot suit MSE or a
        crossentropy (the usual mistakes) are refused before any step runs."""
        from . import losses as L
        key_fns = (L.mean_squared_error, L.binary_crossentropy, L.categorical_crossentropy)
        key_classes = (L.MeanSquaredError, L.BinaryCrossentropy, L.CategoricalCrossentropy)
        fed = [(fn, out) for fn, out in zip(self._loss_fns, self.outputs) if fn is not None]
        for y, (fn, out) in zip(ys, fed):
            wrapped = isinstance(fn, L.LossFunctionWrapper)
            if isinstance(fn, L.CategoricalCrossentropy) or \
                    (wrapped and fn.fn is L.categorical_crossentropy):
                if y.shape[-1] == 1:
                    raise ValueError(
                        f"You are passing a target array of shape {y.shape} while using as loss "
                        "`categorical_crossentropy`. `categorical_crossentropy` expects targets "
                        "to be binary matrices (1s and 0s) of shape (samples, classes). If your "
                        "targets are integer classes, you can convert them to the expected "
                        "format via:\n```\nfrom tf_keras.src.utils import to_categorical\n"
                        "y_binary = to_categorical(y_int)\n```\n\nAlternatively, you can use "
                        "the loss function `sparse_categorical_crossentropy` instead, which does "
                        "expect integer targets.")
            if not (isinstance(fn, key_classes) or (wrapped and fn.fn in key_fns)):
                continue
            shape = tuple(out.shape.as_list()) if out.shape.ndims is not None else ()
            for target_dim, out_dim in zip(y.shape[1:], shape[1:]):
                if out_dim is not None and target_dim != out_dim:
                    raise ValueError(
                        f"A target array with shape {y.shape} was passed for an output of shape "
                        f"{shape} while using as loss `{fn.name}`. This loss expects targets to "
                        "have the same shape as the output.")

    @staticmethod
    def _check_array_shape(a, t, what):
        dims = t.shape.as_list() if t.shape.ndims is not None else None
        if dims is None:
            return
        if a.ndim != len(dims):
            raise ValueError(f"Error when checking {what}: expected {t.op.name} to have "
                             f"{len(dims)} dimensions, but got array with shape {a.shape}")
        for d, s in zip(dims[1:], a.shape[1:]):
            if d is not None and d != s:
                raise ValueError(f"Error when checking {what}: expected {t.op.name} to have shape "
                                 f"{tuple(dims[1:])} but got array with shape {a.shape[1:]}")
