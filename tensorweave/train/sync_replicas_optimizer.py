"""`tf.train.SyncReplicasOptimizer`: synchronous data-parallel training with backup workers.

Each worker (replica) computes gradients and puts them into one ConditionalAccumulator per
variable (SparseConditionalAccumulator for IndexedSlices), created on the variable's device, so
with `replica_device_setter` the accumulators sit beside the variables on the ps tasks. Then it
takes a token from the sync token queue (on the global step's device) and proceeds to its next
step with `local_step = token`.

The chief runs, in a queue-runner thread, the sync op: take the average of the first
`replicas_to_aggregate` gradients from every accumulator (each accumulator's step then moves to
global step + 1, so gradients still arriving for this step are refused), apply them with the
wrapped optimizer (which increments the global step) and put
`max(total_num_replicas, replicas_to_aggregate)` tokens, each holding the new global step, into
the queue. With
`total_num_replicas > replicas_to_aggregate` the extra workers are backup workers (the paper's
section 4.4): gradients that arrive after the first `replicas_to_aggregate` of a step carry a
local step older than the accumulator's global step and are dropped, so a slow worker never
holds the step back.

Stale gradients: besides the accumulators dropping them, every worker adds 1 to
`stale_gradient_count` (an int64 variable on the global step's device) for each step whose
local step was already behind the global step, read just after its gradients were applied to
the accumulators. The count can be off by a step that races exactly with the chief's update (it
is a report, not what decides the drop); the hook logs it when the session ends.

    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         replicas_to_aggregate=2, total_num_replicas=3)
    train_op = opt.minimize(loss, global_step=global_step)
    hook = opt.make_session_run_hook(is_chief=(task_index == 0))
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=..., hooks=[hook]) as s:
        ...
"""

from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, Tensor, colocate_with, control_dependencies, device, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..platform import tf_logging as logging
from .optimizer import Optimizer
from .queue_runner import QueueRunner
from .session_run_hook import SessionRunHook

__all__ = ["SyncReplicasOptimizer"]


class SyncReplicasOptimizer(Optimizer):
    """Wraps an optimizer so that N replicas' gradients are averaged before one update."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
                 variables_to_average=None, use_locking=False, name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        logging.info("SyncReplicasV2: replicas_to_aggregate=%s; total_num_replicas=%s",
                     replicas_to_aggregate, total_num_replicas)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._gradients_applied = False
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._global_step = None
        self._sync_token_queue = None
        self._chief_queue_runner = None
        self._accumulator_list = []
        self._stale_gradient_count = None
        self.local_step_init_op = None
        self.chief_init_op = None
        self.ready_for_local_init_op = None

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's compute_gradients."""
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Puts the gradients into the accumulators and returns the worker's train op (which
        waits for a token); builds the chief's sync op and queue runner on the way."""
        from ..ops import array_ops, control_flow_ops, math_ops, state_ops, variables
        from ..ops.data_flow_ops import ConditionalAccumulator, FIFOQueue, SparseConditionalAccumulator
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        train_ops = []
        aggregated_grad = []
        var_list = []

        # The local step lives on this worker (colocated with an op placed there).
        local_anchor = control_flow_ops.no_op()
        with colocate_with(local_anchor):
            self._local_step = variables.Variable(initial_value=0, trainable=False,
                                                  collections=[GraphKeys.LOCAL_VARIABLES],
                                                  dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
        self.local_step_init_op = state_ops.assign(self._local_step, global_step)
        chief_init_ops = [self.local_step_init_op]
        self.ready_for_local_init_op = variables.report_uninitialized_variables(variables.global_variables())

        with name_scope(None, self._name):
            for grad, var in grads_and_vars:
                var_list.append(var)
                with device(var.device):
                    if grad is None:
                        aggregated_grad.append(None)
                        continue
                    if isinstance(grad, Tensor):
                        grad_accum = ConditionalAccumulator(grad.dtype, shape=var.get_shape(),
                                                            shared_name=var.name + "/grad_accum")
                        train_ops.append(grad_accum.apply_grad(grad, local_step=self._local_step))
                        aggregated_grad.append(grad_accum.take_grad(self._replicas_to_aggregate))
                    else:
                        if not isinstance(grad, IndexedSlices):
                            raise ValueError("Unknown grad type!")
                        # TF passes shape=(); the full shape checks the same and documents more.
                        grad_accum = SparseConditionalAccumulator(grad.dtype, shape=var.get_shape(),
                                                                  shared_name=var.name + "/grad_accum")
                        train_ops.append(grad_accum.apply_indexed_slices_grad(grad, local_step=self._local_step))
                        aggregated_grad.append(grad_accum.take_indexed_slices_grad(self._replicas_to_aggregate))
                    self._accumulator_list.append((grad_accum, var.device))

            aggregated_grads_and_vars = list(zip(aggregated_grad, var_list))

            # As soon as an accumulator's gradient is taken, its step moves on to the next global
            # step, so gradients still arriving for this step (backup workers) are dropped (TF's
            # kernel increments the step inside TakeGrad; here it is an explicit op per accumulator).
            with device(global_step.device), name_scope(""):
                next_step = math_ops.add(math_ops.cast(global_step, _dtypes.int64), 1)
            set_steps = []
            taken = [g for g in aggregated_grad if g is not None]
            for (accum, dev), g in zip(self._accumulator_list, taken):
                take_op = g.values.op if isinstance(g, IndexedSlices) else g.op
                with device(dev), control_dependencies([take_op]):
                    set_steps.append(accum.set_global_step(next_step, name="SetGlobalStep"))

            # The update runs where the global step is (its per-variable ops colocate with the vars).
            with device(global_step.device), name_scope(""), control_dependencies(set_steps):
                update_op = self._opt.apply_gradients(aggregated_grads_and_vars, global_step)

            with device(global_step.device), name_scope(""):
                # TF gives these queues shapes=(); left unset here because the GraphDef encoder
                # cannot serialize a list-of-shapes attr yet (the sync op must reach the ps).
                sync_token_queue = FIFOQueue(-1, global_step.dtype.base_dtype, name="sync_token_q",
                                             shared_name="sync_token_q")
                self._sync_token_queue = sync_token_queue
                # The queue runner gets a dummy queue to close on stop, not the real one (TF).
                dummy_queue = FIFOQueue(1, _dtypes.int32, name="dummy_queue", shared_name="dummy_queue")
                self._stale_gradient_count = variables.Variable(
                    0, trainable=False, dtype=_dtypes.int64, name=self._name + "_stale_gradient_count")

            with device(global_step.device), name_scope(""):
                with control_dependencies(train_ops):
                    is_stale = math_ops.less(math_ops.cast(self._local_step, _dtypes.int64),
                                             math_ops.cast(global_step, _dtypes.int64))
                    count_stale = state_ops.assign_add(self._stale_gradient_count,
                                                       math_ops.cast(is_stale, _dtypes.int64),
                                                       use_locking=True)
                with control_dependencies(train_ops + [count_stale]):
                    token = sync_token_queue.dequeue()
                train_op = state_ops.assign(self._local_step, token)

                with control_dependencies([update_op]):
                    tokens = array_ops.fill([self._tokens_per_step], global_step)
                    sync_op = sync_token_queue.enqueue_many((tokens,))

                if self._variable_averages is not None:
                    with control_dependencies([sync_op]), name_scope(""):
                        sync_op = self._variable_averages.apply(self._variables_to_average)

                self._chief_queue_runner = QueueRunner(dummy_queue, [sync_op])
            for accum, dev in self._accumulator_list:
                with device(dev):
                    chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
            self.chief_init_op = control_flow_ops.group(*chief_init_ops)
            self._gradients_applied = True
            return train_op

    def get_chief_queue_runner(self):
        """The QueueRunner the chief runs: aggregate, update, release tokens."""
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def variables(self):
        return self._opt.variables()

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    @property
    def stale_gradient_count(self):
        """int64 variable: steps whose gradients were already stale when they reached the ps."""
        return self._stale_gradient_count

    def get_init_tokens_op(self, num_tokens=-1):
        """Puts `num_tokens` (default replicas_to_aggregate) tokens into the queue so the
        replicas can start; run once by the chief."""
        from ..ops import array_ops, control_flow_ops
        if self._gradients_applied is False:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError("Too few tokens to finish the first step: %d (given) vs %d (needed)"
                             % (num_tokens, tokens_needed))
        if num_tokens > 0:
            with device(self._global_step.device), name_scope(""):
                tokens = array_ops.fill([num_tokens], self._global_step)
                init_tokens = self._sync_token_queue.enqueue_many((tokens,))
        else:
            init_tokens = control_flow_ops.no_op(name="no_init_tokens")
        return init_tokens

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """The hook that runs the init ops (and, on the chief, the queue runner and the tokens)."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(SessionRunHook):
    """Initializes the local step (chief: also the accumulators' steps and the initial tokens) and
    starts the chief's queue runner; logs the stale-gradient count at the end."""

    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens
        self.stale_gradients = None

    def begin(self):
        if self._sync_optimizer._gradients_applied is False:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        if self._is_chief:
            self._local_init_op = self._sync_optimizer.chief_init_op
            self._ready_for_local_init_op = self._sync_optimizer.ready_for_local_init_op
            self._q_runner = self._sync_optimizer.get_chief_queue_runner()
            self._init_tokens_op = self._sync_optimizer.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = self._sync_optimizer.local_step_init_op
            self._ready_for_local_init_op = self._sync_optimizer.ready_for_local_init_op
            self._q_runner = None
            self._init_tokens_op = None
        self._stale_count = self._sync_optimizer.stale_gradient_count

    def after_create_session(self, session, coord):
        from .session_manager import _ready
        ok, msg = _ready(self._ready_for_local_init_op, session,
                         "Model is not ready for SyncReplicasOptimizer local init.")
        if not ok:
            raise RuntimeError("Init operations did not make model ready for SyncReplicasOptimizer local_init. "
                               "Init op: %s, error: %s" % (self._local_init_op.name, msg))
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)

    def end(self, session):
        try:
            self.stale_gradients = int(session.run(self._stale_count))
        except Exception as e:  # noqa: BLE001 - a report only; the ps may be gone at the end
            logging.info("SyncReplicasOptimizer: could not read the stale-gradient count: %s", e)
            return
        logging.info("SyncReplicasOptimizer: %d stale gradient(s) dropped so far (all workers)",
                     self.stale_gradients)
