"""`tf.keras.utils.Progbar` and the `ProgbarLogger` callback, printing what TF's legacy keras
prints during `fit` (verbose=1: a bar redrawn with backspaces and a carriage return, at most
every `interval` seconds; verbose=2: one line per epoch with the time per epoch and per sample).
Timings differ from run to run by nature; the format is TF's."""

import os
import sys
import time

import numpy as np

from .callbacks import Callback


def _format_time(time_per_unit, unit_name):
    if time_per_unit >= 1 or time_per_unit == 0:
        return f" {time_per_unit:.0f}s/{unit_name}"
    if time_per_unit >= 1e-3:
        return f" {time_per_unit * 1000.0:.0f}ms/{unit_name}"
    return f" {time_per_unit * 1000000.0:.0f}us/{unit_name}"


class Progbar:
    """A progress bar to `target` units: `update(current, [(name, value), ...])` averages the
    values over the units seen (values in `stateful_metrics` are shown as given)."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        # TF's test: 'posix' is always in sys.modules on Linux, so the bar is always redrawn.
        self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
                                 or "ipykernel" in sys.modules or "posix" in sys.modules
                                 or "PYCHARM_HOSTED" in os.environ)
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def _update_stateful_metrics(self, stateful_metrics):
        self.stateful_metrics = self.stateful_metrics.union(stateful_metrics)

    def _accumulate(self, current, values):
        for k, v in values:
            if k not in self._values_order:
                self._values_order.append(k)
            if k not in self.stateful_metrics:
                value_base = max(current - self._seen_so_far, 1)
                if k not in self._values:
                    self._values[k] = [v * value_base, value_base]
                else:
                    self._values[k][0] += v * value_base
                    self._values[k][1] += value_base
            else:
                self._values[k] = [v, 1]
        self._seen_so_far = current

    def _average(self, k):
        return np.mean(self._values[k][0] / max(1, self._values[k][1]))

    def update(self, current, values=None, finalize=None):
        """Moves the bar to `current` and folds `values` ([(name, value)]) into the averages."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        self._accumulate(current, values or [])
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._print_bar(current, now, info, finalize)
        elif self.verbose == 2 and finalize:
            self._print_line(current, now, info)
        self._last_update = now

    def _print_bar(self, current, now, info, finalize):
        prev_total_width = self._total_width
        message = "\b" * prev_total_width + "\r" if self._dynamic_display else "\n"
        if self.target is not None:
            numdigits = int(np.log10(self.target)) + 1
            bar = ("%" + str(numdigits) + "d/%d [") % (current, self.target)
            prog_width = int(self.width * float(current) / self.target)
            if prog_width > 0:
                bar += "=" * (prog_width - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - prog_width) + "]"
        else:
            bar = "%7d/Unknown" % current
        self._total_width = len(bar)
        message += bar
        time_per_unit = self._estimate_step_duration(current, now)
        if self.target is None or finalize:
            info += _format_time(time_per_unit, self.unit_name)
        else:
            eta = time_per_unit * (self.target - current)
            if eta > 3600:
                eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
            elif eta > 60:
                eta_format = "%d:%02d" % (eta // 60, eta % 60)
            else:
                eta_format = "%ds" % eta
            info = f" - ETA: {eta_format}"
        for k in self._values_order:
            avg = self._average(k)
            info += f" - {k}:" + (f" {avg:.4f}" if abs(avg) > 1e-3 else f" {avg:.4e}")
        self._total_width += len(info)
        if prev_total_width > self._total_width:
            info += " " * (prev_total_width - self._total_width)
        if finalize:
            info += "\n"
        sys.stdout.write(message + info)
        sys.stdout.flush()

    def _print_line(self, current, now, info):
        numdigits = int(np.log10(self.target)) + 1
        info = ("%" + str(numdigits) + "d/%d") % (current, self.target) + info
        for k in self._values_order:
            avg = self._average(k)
            # TF compares the signed value here (a negative loss prints as %.4e).
            info += f" - {k}:" + (f" {avg:.4f}" if avg > 1e-3 else f" {avg:.4e}")
        if self._time_at_epoch_end:
            time_per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
            info += " -" + _format_time(time_per_epoch, "epoch")
            info += " -" + _format_time(time_per_epoch / self.target, self.unit_name)
            info += "\n"
        sys.stdout.write(info)
        sys.stdout.flush()

    def _estimate_step_duration(self, current, now):
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            time_per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            time_per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return time_per_unit

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)


class ProgbarLogger(Callback):
    """Prints fit's progress as TF's v1 loops do: "Epoch i/n" (when n > 1), then the bar
    (verbose=1) or one line (verbose=2) per epoch. Counts samples, or steps for datasets."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        if count_mode not in ("samples", "steps"):
            raise ValueError(f"Unknown `count_mode`: {count_mode}. Expected values are "
                             "['samples', 'steps']")
        self.use_steps = count_mode == "steps"
        self._stateful_metrics = set(stateful_metrics or ())
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1

    def set_params(self, params):
        self.params = params
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps") if self.use_steps else params.get("samples")

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.progbar = None
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")

    def _maybe_init_progbar(self):
        stateful = set(self._stateful_metrics)
        if self.model is not None:
            stateful |= {m.name for m in getattr(self.model, "metrics", [])}
            # TF's v1 loops mark every compiled name but "loss" stateful (per-output names
            # such as "out_mean_absolute_error" included).
            stateful |= set((getattr(self.model, "metrics_names", None) or [])[1:])
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose,
                                   stateful_metrics=stateful,
                                   unit_name="step" if self.use_steps else "sample")
        self.progbar._update_stateful_metrics(stateful)

    def on_batch_end(self, batch, logs=None):
        logs = dict(logs or {})
        self._maybe_init_progbar()
        if self.use_steps:
            # TF leaves "batch" and "size" in the logs here: they are shown (and averaged).
            self.seen = batch + 1
        else:
            batch_size = logs.pop("size", 0)
            num_steps = logs.pop("num_steps", 1)
            logs.pop("batch", None)
            self.seen += num_steps * batch_size
        if self.verbose == 1:
            self.progbar.update(self.seen, list(logs.items()), finalize=False)

    on_train_batch_end = on_batch_end

    def on_epoch_end(self, epoch, logs=None):
        self._maybe_init_progbar()
        target = self.target if self.target is not None else self.seen
        self.progbar.target = target
        self.progbar.update(target, list((logs or {}).items()), finalize=True)
