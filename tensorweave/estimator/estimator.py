"""tf.estimator.Estimator (TF1): train / evaluate / predict a model_fn with checkpoints in model_dir.

Each call builds a fresh graph: set the graph seed (RunConfig.tf_random_seed), create the global
step, call input_fn (a Dataset or (features, labels)), call model_fn, then run it in a monitored
session that restores the latest checkpoint of model_dir. train() saves checkpoints there
(model.ckpt-<step>, at the first step, every save_checkpoints_steps/secs and at the end) and
summaries; evaluate() writes its metrics to model_dir/eval[_name]; predict() yields one dict per
example.

    def model_fn(features, labels, mode, params):
        ...
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
    est = tf.estimator.Estimator(model_fn, model_dir="/tmp/m")
    est.train(input_fn, steps=100)
"""

import inspect
import os
import tempfile
import time

import numpy as np

from ..framework.graph import Graph, GraphKeys
from ..platform import tf_logging as logging
from .model_fn import EstimatorSpec, ModeKeys, RunConfig

__all__ = ["Estimator"]


def _fn_args(fn):
    if hasattr(fn, "func") and hasattr(fn, "keywords"):  # functools.partial
        return tuple(a for a in _fn_args(fn.func) if a not in (fn.keywords or {}))
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()


class _StopAfterNEvalsHook:
    """Stops evaluation after `num_evals` batches, logging "Evaluation [k/num_evals]" as TF's does
    (every batch below 20 batches, else every num_evals // 10)."""

    def __init__(self, num_evals):
        self._num_evals = num_evals
        self._done = 0
        self._log_frequency = 1 if num_evals < 20 else num_evals // 10

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        self._done += 1
        if self._done % self._log_frequency == 0 or self._done == self._num_evals:
            logging.info("Evaluation [%d/%d]", self._done, self._num_evals)
        if self._done >= self._num_evals:
            run_context.request_stop()

    def end(self, session):
        pass


class Estimator:
    """Trains, evaluates and predicts with `model_fn(features, labels, mode, params, config)`."""

    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        if config is None:
            config = RunConfig()
        elif not isinstance(config, RunConfig):
            raise ValueError(f"config must be an instance of `RunConfig`, but provided {config}.")
        if model_dir is not None and config.model_dir is not None and os.fspath(model_dir) != config.model_dir:
            raise ValueError(f"`model_dir` are set both in constructor and `RunConfig`, but with different values. "
                             f"In constructor: '{model_dir}', in `RunConfig`: '{config.model_dir}' ")
        model_dir = os.fspath(model_dir) if model_dir is not None else config.model_dir
        if model_dir is None:
            model_dir = tempfile.mkdtemp()
            logging.warning("Using temporary folder as model directory: %s", model_dir)
        if config.model_dir != model_dir:
            config = config.replace(model_dir=model_dir)
        logging.info("Using config: %s", str(vars(config)))
        args = _fn_args(model_fn)
        if "features" not in args and len(args) < 1:
            raise ValueError(f"model_fn ({model_fn}) must include features argument.")
        if params is not None and "params" not in args:
            raise ValueError(f"model_fn ({model_fn}) does not include params argument, but params ({params}) "
                             f"is passed to Estimator.")
        self._model_fn = model_fn
        self._model_dir = model_dir
        self._config = config
        self._params = dict(params or {})
        self._warm_start_settings = _warm_start_settings(warm_start_from)

    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: self._config)
    params = property(lambda self: dict(self._params))
    model_fn = property(lambda self: self._call_model_fn)

    # -- checkpoints ----------------------------------------------------------------------------

    def latest_checkpoint(self):
        """The path of the newest checkpoint in model_dir, or None."""
        from ..train.checkpoint_management import latest_checkpoint
        return latest_checkpoint(self._model_dir)

    def get_variable_names(self):
        """The names of the variables saved in the latest checkpoint, sorted."""
        from ..train.checkpoint_utils import list_variables
        self._check_trained()
        return [name for name, _ in list_variables(self._model_dir)]

    def get_variable_value(self, name):
        """The value of variable `name` in the latest checkpoint (a NumPy array)."""
        from ..train.checkpoint_utils import load_variable
        self._check_trained()
        return load_variable(self._model_dir, name)

    def _check_trained(self):
        if not self.latest_checkpoint():
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")

    # -- building -------------------------------------------------------------------------------

    def _call_input_fn(self, input_fn, mode):
        args = _fn_args(input_fn)
        kwargs = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self._params
        if "config" in args:
            kwargs["config"] = self._config
        return input_fn(**kwargs)

    def _features_and_labels(self, input_fn, mode):
        from ..data import DatasetV1 as DatasetV2
        result = self._call_input_fn(input_fn, mode)
        if isinstance(result, DatasetV2):
            from ..data import make_one_shot_iterator
            result = make_one_shot_iterator(result).get_next()
        if isinstance(result, (list, tuple)):
            if len(result) != 2:
                raise ValueError(f"input_fn should return (features, labels) as a len 2 tuple, got {len(result)}")
            return result[0], result[1]
        return result, None

    def _call_model_fn(self, features, labels, mode, config=None):
        args = _fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self._params
        if "config" in args:
            kwargs["config"] = config or self._config
        logging.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        logging.info("Done calling model_fn.")
        if not isinstance(spec, EstimatorSpec):
            raise ValueError(f"model_fn should return an EstimatorSpec. Given: {spec}")
        return spec

    def _new_graph(self):
        from ..ops.random_ops import set_random_seed
        g = Graph()
        ctx = g.as_default()
        ctx.__enter__()
        if self._config.tf_random_seed is not None:
            set_random_seed(self._config.tf_random_seed)
        return g, ctx

    def _saver_scaffold(self, spec):
        from ..train.saver import Saver
        scaffold = spec.scaffold
        if scaffold.saver is None and not get_saver_collection(scaffold):
            scaffold._saver = Saver(sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                                    keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours,
                                    save_relative_paths=True)
        return scaffold

    # -- train ----------------------------------------------------------------------------------

    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains for `steps` more steps or until global step `max_steps` (or until input_fn's
        data ends: OutOfRangeError / StopIteration), resuming from model_dir's latest checkpoint."""
        from ..train import basic_session_run_hooks as h
        from ..train.monitored_session import MonitoredTrainingSession
        from ..train.training_util import get_or_create_global_step
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None:
            ckpt = self.latest_checkpoint()
            if ckpt:
                from ..train.checkpoint_utils import load_variable
                if int(load_variable(ckpt, GraphKeys.GLOBAL_STEP)) >= max_steps:
                    logging.info("Skipping training since max_steps has already saved.")
                    return self
        hooks = list(hooks or [])
        g, ctx = self._new_graph()
        try:
            global_step = get_or_create_global_step(g)
            features, labels = self._features_and_labels(input_fn, ModeKeys.TRAIN)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN)
            if self._warm_start_settings is not None:
                # initializers load the checkpoint; a checkpoint in model_dir still wins (restored)
                from ..train.warm_starting_util import warm_start
                logging.info("Warm-starting with WarmStartSettings: %s", self._warm_start_settings)
                warm_start(*self._warm_start_settings)
            all_hooks = [h.NanTensorHook(spec.loss),
                         h.LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                             every_n_iter=self._config.log_step_count_steps)]
            if steps is not None or max_steps is not None:
                all_hooks.append(h.StopAtStepHook(steps, max_steps))
            all_hooks += hooks + list(spec.training_hooks)
            scaffold = self._saver_scaffold(spec)
            chief_hooks = list(spec.training_chief_hooks)
            cfg = self._config
            if cfg.save_checkpoints_secs or cfg.save_checkpoints_steps or saving_listeners:
                chief_hooks.append(h.CheckpointSaverHook(
                    self._model_dir, save_secs=cfg.save_checkpoints_secs, save_steps=cfg.save_checkpoints_steps,
                    scaffold=scaffold, listeners=list(saving_listeners or []),
                    save_graph_def=cfg._checkpoint_save_graph_def))
            with MonitoredTrainingSession(checkpoint_dir=self._model_dir, scaffold=scaffold, hooks=all_hooks,
                                          chief_only_hooks=chief_hooks, save_checkpoint_secs=0,
                                          save_summaries_steps=cfg.save_summary_steps, config=cfg.session_config,
                                          log_step_count_steps=cfg.log_step_count_steps) as sess:
                loss = None
                while not sess.should_stop():
                    _, loss = sess.run([spec.train_op, spec.loss])
            if loss is not None:
                logging.info("Loss for final step: %s.", loss)
        finally:
            ctx.__exit__(None, None, None)
        return self

    # -- evaluate -------------------------------------------------------------------------------

    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Runs the eval metrics over input_fn's data (or `steps` batches) on the latest (or the
        given) checkpoint; returns {metric name: value, "loss": ..., "global_step": ...}."""
        from .. import metrics as _metrics
        from ..ops.control_flow_ops import group
        from ..train.basic_session_run_hooks import FinalOpsHook
        from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
        from ..train.training_util import get_or_create_global_step
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        checkpoint_path = checkpoint_path or self.latest_checkpoint()
        if not checkpoint_path:
            logging.info("Could not find trained model in model_dir: %s, running initialization to evaluate.",
                         self._model_dir)
        g, ctx = self._new_graph()
        try:
            global_step = get_or_create_global_step(g)
            features, labels = self._features_and_labels(input_fn, ModeKeys.EVAL)
            spec = self._call_model_fn(features, labels, ModeKeys.EVAL)
            if "loss" in spec.eval_metric_ops:
                raise ValueError("Metric with name \"loss\" is not allowed, because Estimator already defines a "
                                 "default metric with the same name.")
            metric_ops = dict(spec.eval_metric_ops)
            metric_ops["loss"] = _metrics.mean(spec.loss)
            update_op = group(*[u for _, u in metric_ops.values()])
            eval_dict = {k: v for k, (v, _) in metric_ops.items()}
            eval_dict[GraphKeys.GLOBAL_STEP] = global_step
            final = FinalOpsHook(eval_dict)
            all_hooks = list(hooks or []) + list(spec.evaluation_hooks)
            if steps is not None:
                all_hooks.append(_StopAfterNEvalsHook(steps))
            all_hooks.append(final)
            creator = ChiefSessionCreator(scaffold=spec.scaffold, checkpoint_filename_with_path=checkpoint_path,
                                          config=self._config.session_config)
            logging.info("Starting evaluation at %s", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as sess:
                while not sess.should_stop():
                    sess.run(update_op)
            results = final.final_ops_values
            logging.info("Finished evaluation at %s", time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime()))
        finally:
            ctx.__exit__(None, None, None)
        logging.info("Saving dict for global step %d: %s", int(results[GraphKeys.GLOBAL_STEP]),
                     ", ".join(f"{k} = {v!s}" for k, v in sorted(results.items()) if not isinstance(v, bytes)))
        if checkpoint_path:
            logging.info("Saving 'checkpoint_path' summary for global step %d: %s",
                         int(results[GraphKeys.GLOBAL_STEP]), checkpoint_path)
        self._write_eval_summary(results, name)
        return results

    def _write_eval_summary(self, results, name):
        from ..protos.public import Summary
        from ..summary.writer import FileWriterCache
        out = os.path.join(self._model_dir, "eval" if not name else "eval_" + name)
        summary = Summary()
        for k, v in sorted(results.items()):
            if k == GraphKeys.GLOBAL_STEP:
                continue
            if np.ndim(v) == 0 and np.asarray(v).dtype.kind in "biuf":
                summary.value.add(tag=k, simple_value=float(v))
        writer = FileWriterCache.get(out)
        writer.add_summary(summary, int(results[GraphKeys.GLOBAL_STEP]))
        writer.flush()

    # -- export ---------------------------------------------------------------------------------

    def export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                           checkpoint_path=None, experimental_mode=ModeKeys.PREDICT):
        """Writes the PREDICT graph and the latest checkpoint as a SavedModel under
        export_dir_base/<timestamp>; returns its path (bytes). See estimator/export.py."""
        from .export import export_saved_model
        return export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                  checkpoint_path, experimental_mode)

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                          checkpoint_path=None, strip_default_attrs=False):
        """TF 1.x's older name of export_saved_model."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                       checkpoint_path)

    # -- predict --------------------------------------------------------------------------------

    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None, yield_single_examples=True):
        """Yields the predictions of the latest (or given) checkpoint: one dict per example (or per
        batch with yield_single_examples=False), or one array when predictions is a tensor."""
        from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
        from ..train.training_util import get_or_create_global_step
        checkpoint_path = checkpoint_path or self.latest_checkpoint()
        if not checkpoint_path:
            logging.info("Could not find trained model in model_dir: %s, running initialization to predict.",
                         self._model_dir)
        g, ctx = self._new_graph()
        try:
            get_or_create_global_step(g)
            features, _ = self._features_and_labels(input_fn, ModeKeys.PREDICT)
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT)
            predictions = spec.predictions
            if isinstance(predictions, dict) and predict_keys is not None:
                if isinstance(predict_keys, str):
                    predict_keys = [predict_keys]
                missing = [k for k in predict_keys if k not in predictions]
                if missing:
                    raise ValueError(f"Expected to run at least one output from {list(predictions)}, "
                                     f"provided {predict_keys}.")
                predictions = {k: predictions[k] for k in predict_keys}
            creator = ChiefSessionCreator(scaffold=spec.scaffold, checkpoint_filename_with_path=checkpoint_path,
                                          config=self._config.session_config)
            with MonitoredSession(session_creator=creator, hooks=list(hooks or []) + list(spec.prediction_hooks)) \
                    as sess:
                while not sess.should_stop():
                    values = sess.run(predictions)
                    if not yield_single_examples:
                        yield values
                        continue
                    if not isinstance(values, dict):
                        yield from values
                        continue
                    n = {len(v) for v in values.values()}
                    if len(n) != 1:
                        raise ValueError(f"Batch length of predictions should be same. {values}")
                    for i in range(n.pop()):
                        yield {k: v[i] for k, v in values.items()}
        finally:
            ctx.__exit__(None, None, None)


def _warm_start_settings(warm_start_from):
    """None, a checkpoint (or model_dir) path, or a WarmStartSettings, as a WarmStartSettings."""
    from ..train.warm_starting_util import WarmStartSettings
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        path = os.fsdecode(warm_start_from)
        if os.path.exists(os.path.join(path, "saved_model.pb")) or os.path.exists(
                os.path.join(path, "saved_model.pbtxt")):
            path = os.path.join(path, "variables", "variables")
        return WarmStartSettings(ckpt_to_initialize_from=path, vars_to_warm_start=".*")
    if isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    raise ValueError(f"warm_start_from must be a string or a WarmStartSettings, instead got {type(warm_start_from)}")


def get_saver_collection(scaffold):
    from ..framework.graph import get_collection
    return get_collection(GraphKeys.SAVERS)
