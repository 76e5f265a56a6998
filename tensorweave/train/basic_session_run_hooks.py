"""The standard session-run hooks: StopAtStepHook, CheckpointSaverHook, SummarySaverHook,
LoggingTensorHook, NanTensorHook, StepCounterHook, FinalOpsHook, FeedFnHook,
GlobalStepWaiterHook, and (beyond TF) ProgressBarHook, a tqdm progress bar."""

import os
import time

import numpy as np

from ..framework.graph import GraphKeys, Operation, Tensor, get_default_graph
from ..platform import tf_logging as logging
from . import training_util
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["SecondOrStepTimer", "LoggingTensorHook", "StopAtStepHook", "CheckpointSaverListener",
           "CheckpointSaverHook", "StepCounterHook", "NanLossDuringTrainingError", "NanTensorHook",
           "SummarySaverHook", "GlobalStepWaiterHook", "FinalOpsHook", "FeedFnHook", "ProfilerHook",
           "ProgressBarHook"]


def _now():
    return time.time()


class SecondOrStepTimer:
    """Triggers at most once every `every_secs` seconds or every `every_steps` steps."""

    def __init__(self, every_secs=None, every_steps=None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if self._every_secs is None and self._every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if self._every_secs is not None and self._every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and _now() >= self._last_triggered_time + self._every_secs:
            return True
        if self._every_steps is not None and step >= self._last_triggered_step + self._every_steps:
            return True
        return False

    def update_last_triggered_step(self, step):
        """Records a trigger at `step`; returns (elapsed seconds, elapsed steps) since the last."""
        current_time = _now()
        if self._last_triggered_time is None:
            elapsed_secs = elapsed_steps = None
        else:
            elapsed_secs = current_time - self._last_triggered_time
            elapsed_steps = step - self._last_triggered_step
        self._last_triggered_time = current_time
        self._last_triggered_step = step
        return elapsed_secs, elapsed_steps

    def last_triggered_step(self):
        return self._last_triggered_step


class NeverTriggerTimer(SecondOrStepTimer):
    def __init__(self):  # noqa: D107 - no arguments
        self.reset()

    def should_trigger_for_step(self, step):
        return False

    def update_last_triggered_step(self, step):
        return None, None


def _as_graph_element(obj):
    graph = get_default_graph()
    if not isinstance(obj, str):
        if not isinstance(obj, (Tensor, Operation)) and hasattr(obj, "_as_graph_element"):
            obj = obj._as_graph_element()
        if getattr(obj, "graph", graph) is not graph:
            raise ValueError(f"Given {obj} must be from the default graph.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        pass
    else:
        raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs (at least 2).")
    return element


def _global_step_read():
    return training_util._get_or_create_global_step_read()


def _summary_writer(logdir):
    """The FileWriter for `logdir` from tf.summary.FileWriterCache (None if summaries are not
    available)."""
    try:
        from ..summary import FileWriterCache
    except ImportError:
        return None
    return FileWriterCache.get(logdir)


def _scalar_summary(tag, value):
    try:
        from ..protos.summary_pb2 import Summary
    except ImportError:
        return None
    return Summary(value=[Summary.Value(tag=tag, simple_value=float(value))])


class LoggingTensorHook(SessionRunHook):
    """Logs the values of `tensors` (a list of tensors/names, or a dict tag -> tensor) every
    N local steps, every N seconds, or at the end."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = NeverTriggerTimer() if only_log_at_end else \
            SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter)
        self._log_at_end = at_end

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        if self._should_trigger:
            return SessionRunArgs(self._current_tensors)
        return None

    def _log_tensors(self, tensor_values):
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        try:
            elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
            if self._formatter:
                logging.info(self._formatter(tensor_values))
            else:
                stats = ["%s = %s" % (tag, tensor_values[tag]) for tag in self._tag_order]  # str(), not format(): np.float32 formats as a float64
                if elapsed_secs is not None:
                    logging.info("%s (%.3f sec)", ", ".join(stats), elapsed_secs)
                else:
                    logging.info("%s", ", ".join(stats))
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop after `num_steps` more steps or once the global step reaches `last_step`."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self):
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StopAtStepHook.")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            global_step = session.run(self._global_step_tensor)
            self._last_step = global_step + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        global_step = run_values.results + 1
        if global_step >= self._last_step:
            # The global step may have been incremented by this run: read it again.
            step = run_context.session.run(self._global_step_tensor)
            if step >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called around each checkpoint a CheckpointSaverHook writes; after_save returning True
    requests a stop."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint every N steps or seconds, after the session is created and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None, save_graph_def=True):
        logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1
        self._save_graph_def = save_graph_def

    def _set_steps_per_run(self, steps_per_run):
        self._steps_per_run = steps_per_run

    def begin(self):
        self._summary_writer = _summary_writer(self._checkpoint_dir)
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use CheckpointSaverHook.")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = session.run(self._global_step_tensor)
        if self._save_graph_def:
            self._write_graph(session)
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def _write_graph(self, session):
        try:
            from ..framework.graph_io import write_graph
            graph_def = get_default_graph().as_graph_def(add_shapes=True)
        except Exception as e:  # noqa: BLE001 - graph serialization not available
            logging.debug("Not writing graph.pbtxt: %s", e)
            return
        write_graph(graph_def, self._checkpoint_dir, "graph.pbtxt")
        if self._summary_writer is not None:
            try:
                from ..framework import meta_graph
                saver = self._get_saver()
                meta_graph_def = meta_graph.create_meta_graph_def(
                    graph_def=graph_def, saver_def=saver.saver_def if saver else None)
                # (as TF's hook: the graph, then the MetaGraphDef with the saver's SaverDef)
                self._summary_writer.add_graph(get_default_graph())
                self._summary_writer.add_meta_graph(meta_graph_def)
            except Exception as e:  # noqa: BLE001
                logging.debug("Not adding the graph to the summary: %s", e)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Saves the checkpoint for `step`; True if a listener asks to stop."""
        logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step, write_meta_graph=self._save_graph_def)
        if self._summary_writer is not None:
            try:
                from ..protos.event_pb2 import SessionLog
                self._summary_writer.add_session_log(
                    SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
            except Exception as e:  # noqa: BLE001 - event files are optional here
                logging.debug("No checkpoint event written: %s", e)
        logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logging.info("A CheckpointSaverListener requested that training be stopped. listener: %s", listener)
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError("No items in collection {}. Please add a saver to the collection or provide a "
                               "saver or scaffold.".format(GraphKeys.SAVERS))
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which one to use by passing "
                               "it to the constructor.".format(GraphKeys.SAVERS))
        self._saver = savers[0]
        return savers[0]


class StepCounterHook(SessionRunHook):
    """Logs (and writes as a summary) the global steps per second."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step = None
        self._steps_per_run = 1

    def _set_steps_per_run(self, steps_per_run):
        self._steps_per_run = steps_per_run

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StepCounterHook.")
        self._summary_tag = get_default_graph().get_collection(GraphKeys.GLOBAL_STEP)[0].op.name + "/sec" \
            if get_default_graph().get_collection(GraphKeys.GLOBAL_STEP) else "global_step/sec"

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time
        if self._summary_writer is not None:
            summary = _scalar_summary(self._summary_tag, steps_per_sec)
            if summary is not None:
                self._summary_writer.add_summary(summary, global_step)
        logging.info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
                if elapsed_time is not None and elapsed_time > 0:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)
        if stale_global_step == self._last_global_step:
            logging.log_first_n(logging.WARN, "It seems that global step (tf.train.get_global_step) has not "
                                "been increased. Current value (could be stable): %s vs previous value: %s. "
                                "You could increase the global step by passing tf.train.get_global_step() "
                                "to Optimizer.apply_gradients or Optimizer.minimize.", 5,
                                stale_global_step, self._last_global_step)
        self._last_global_step = stale_global_step


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Raises NanLossDuringTrainingError (or requests a stop) when the loss is NaN."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            failure_message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logging.error(failure_message)
                raise NanLossDuringTrainingError
            logging.warning(failure_message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Runs the summary op every N steps or seconds and writes the result with a FileWriter."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None, scaffold=None,
                 summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use SummarySaverHook.")

    def before_run(self, run_context):
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary:
            ops = self._get_summary_op()
            if ops is not None:
                requests["summary"] = ops
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        stale_global_step = run_values.results["global_step"]
        global_step = stale_global_step + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            try:
                from ..protos.event_pb2 import SessionLog
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), global_step)
            except Exception as e:  # noqa: BLE001
                logging.debug("No session start event written: %s", e)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            if "summary" in run_values.results:
                for summary in run_values.results["summary"]:
                    self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        summary_op = self._summary_op
        if self._scaffold is not None:
            summary_op = self._scaffold.summary_op
        if summary_op is None:
            return None
        if not isinstance(summary_op, list):
            return [summary_op]
        return summary_op


class GlobalStepWaiterHook(SessionRunHook):
    """Delays the loop until the global step reaches `wait_until_step` (non-chief workers)."""

    def __init__(self, wait_until_step, poll_secs=0.5, max_wait_secs=None):
        self._wait_until_step = wait_until_step
        self._poll_secs = poll_secs
        self._max_wait_secs = max_wait_secs

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use _GlobalStepWaiterHook.")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logging.info("Waiting for global step %d before starting training.", self._wait_until_step)
        start = _now()
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if self._max_wait_secs is not None and _now() - start > self._max_wait_secs:
                run_context.request_stop()
                return None
            time.sleep(self._poll_secs)


class ProfilerHook(SessionRunHook):
    """Every N steps or seconds, traces a step (RunOptions FULL_TRACE) and writes its Chrome
    trace to `output_dir/timeline-<step>.json`; the step's RunMetadata also goes to the
    directory's summary writer under the tag `step_<step>`."""

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True, show_memory=False):
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._file_writer = _summary_writer(output_dir)
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        self._next_step = None
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ProfilerHook.")

    def before_run(self, run_context):
        from ..runtime.config import RunOptions
        self._request_summary = (self._next_step is not None
                                 and self._timer.should_trigger_for_step(self._next_step))
        requests = {"global_step": self._global_step_tensor}
        opts = RunOptions(trace_level=RunOptions.FULL_TRACE) if self._request_summary else None
        return SessionRunArgs(requests, options=opts)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            # the timer starts counting from the first step seen
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step), run_values.run_metadata.step_stats)
            if self._file_writer is not None:
                self._file_writer.add_run_metadata(run_values.run_metadata, "step_%d" % global_step)
        self._next_step = global_step + 1

    def _save(self, step, save_path, step_stats):
        from .. import timeline
        logging.info("Saving timeline for %d into '%s'.", step, save_path)
        with open(save_path, "w") as f:
            trace = timeline.Timeline(step_stats)
            f.write(trace.generate_chrome_trace_format(show_dataflow=self._show_dataflow,
                                                       show_memory=self._show_memory))


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` when the session ends; their values are in `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)


class FeedFnHook(SessionRunHook):
    """Feeds `feed_fn()` (a dict) into every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class ProgressBarHook(SessionRunHook):
    """A tqdm progress bar over global steps (not in TensorFlow).

    total: the global step the bar runs to (e.g. StopAtStepHook's last_step), or None;
    tensors: optional {name: tensor} shown after the bar (e.g. {"loss": loss}), fetched every
    `every_n_steps` runs; the remaining arguments go to tqdm (desc, file, disable, ...)."""

    def __init__(self, total=None, tensors=None, every_n_steps=10, **tqdm_kwargs):
        self._total = total
        self._tensors = dict(tensors or {})
        self._every = max(1, int(every_n_steps))
        self._tqdm_kwargs = tqdm_kwargs
        self._bar = None

    def begin(self):
        self._global_step_tensor = _global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ProgressBarHook.")
        self._fetch = {"step": self._global_step_tensor}
        self._fetch.update({f"t:{k}": _as_graph_element(v) for k, v in self._tensors.items()})
        self._runs = 0

    def after_create_session(self, session, coord):
        from tqdm.auto import tqdm
        step = int(session.run(self._global_step_tensor))
        if self._bar is not None:
            self._bar.close()
        kwargs = dict(unit="step", dynamic_ncols=True, leave=True)
        kwargs.update(self._tqdm_kwargs)
        self._bar = tqdm(total=self._total, initial=step, **kwargs)
        self._last = step

    def before_run(self, run_context):
        fetch = self._fetch if self._tensors and self._runs % self._every == 0 else {"step": self._global_step_tensor}
        return SessionRunArgs(fetch)

    def after_run(self, run_context, run_values):
        self._runs += 1
        results = run_values.results
        # The read may see the step before or after this run's increment (as in TF); end()
        # brings the bar to the final value.
        step = int(results["step"])
        if self._bar is not None:
            if step > self._last:
                self._bar.update(step - self._last)
                self._last = step
            shown = {k[2:]: results[k] for k in results if k.startswith("t:")}
            if shown:
                self._bar.set_postfix({k: (f"{float(v):.4g}" if np.ndim(v) == 0 else v) for k, v in shown.items()},
                                      refresh=False)

    def end(self, session):
        if self._bar is not None:
            step = int(session.run(self._global_step_tensor))
            if step > self._last:
                self._bar.update(step - self._last)
            self._bar.close()
            self._bar = None
