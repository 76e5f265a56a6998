"""The `tf.keras.callbacks` that save files or change the learning rate, as TF's legacy keras
runs them in its v1 fit loop: ModelCheckpoint (weights in TF's checkpoint format, or whole
models), CSVLogger, LearningRateScheduler and ReduceLROnPlateau. Messages are TF's."""

import collections
import csv
import os

import numpy as np

from ..platform import tf_logging as logging
from . import backend as K
from .callbacks import Callback


def _monitor_op(mode, monitor):
    """(comparison, starting best) for `mode`, guessing "max" for accuracy-like monitors."""
    if mode not in ("auto", "min", "max"):
        logging.warning("ModelCheckpoint mode %s is unknown, fallback to auto mode.", mode)
        mode = "auto"
    if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
        return np.greater, -np.inf
    return np.less, np.inf


class ModelCheckpoint(Callback):
    """Saves the model (or only its weights) after every epoch, or every `save_freq` batches;
    `filepath` may hold `{epoch}` and log keys (`"w-{epoch:02d}-{val_loss:.2f}"`)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", options=None,
                 initial_value_threshold=None, **kwargs):
        super().__init__()
        self.monitor = monitor
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.epochs_since_last_save = 0
        self._batches_seen_since_last_saving = 0
        self._current_epoch = 0
        self.period = kwargs.pop("period", 1)
        if "load_weights_on_restart" in kwargs:
            kwargs.pop("load_weights_on_restart")
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.monitor_op, self.best = _monitor_op(mode, monitor)
        if initial_value_threshold is not None:
            self.best = initial_value_threshold
        if self.save_freq != "epoch" and not isinstance(self.save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {self.save_freq}. Expected save_freq are "
                             "'epoch' or integer")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_batch_end(self, batch, logs=None):
        if isinstance(self.save_freq, int):
            self._batches_seen_since_last_saving += 1
            if self._batches_seen_since_last_saving >= self.save_freq:
                self._batches_seen_since_last_saving = 0
                self._save_model(self._current_epoch, batch, logs)

    on_train_batch_end = on_batch_end

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_since_last_save += 1
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from None

    def _save(self, filepath):
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)

    def _save_model(self, epoch, batch, logs):
        logs = logs or {}
        if not (isinstance(self.save_freq, int) or self.epochs_since_last_save >= self.period):
            return
        self.epochs_since_last_save = 0
        filepath = self._file_path(epoch, batch, logs)
        dirname = os.path.dirname(filepath)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._save(filepath)
            return
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Can save best model only with %s available, skipping.", self.monitor)
        elif self.monitor_op(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                      f"{current:.5f}, saving model to {filepath}")
            self.best = current
            self._save(filepath)
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")


class CSVLogger(Callback):
    """Writes each epoch's logs as a CSV row ("epoch" then the sorted log keys)."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        mode = "w"
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        self.csv_file = open(self.filename, mode, newline="")

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def handle_value(k):
            if isinstance(k, str):
                return k
            if isinstance(k, collections.abc.Iterable) and \
                    not (isinstance(k, np.ndarray) and k.ndim == 0):
                return f"\"[{', '.join(map(str, k))}]\""
            return k

        if self.keys is None:
            self.keys = sorted(logs.keys())
            if not any(key.startswith("val_") for key in self.keys):
                # validation_freq > 1: the val_ columns come later, so name them now.
                self.keys.extend(["val_" + k for k in self.keys])
        if self.model.stop_training:
            logs = {k: logs.get(k, "NA") for k in self.keys}
        if not self.writer:
            class CustomDialect(csv.excel):
                delimiter = self.sep
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        self.csv_file.close()
        self.writer = None


def _lr_variable(model):
    opt = model.optimizer
    if not hasattr(opt, "lr"):
        raise ValueError('Optimizer must have a "lr" attribute.')
    return opt.lr


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch's start to `schedule(epoch, lr)` (or
    `schedule(epoch)`); the epoch's logs get "lr"."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr_var = _lr_variable(self.model)
        try:
            lr = self.schedule(epoch, float(K.get_value(lr_var)))
        except TypeError:  # the old one-argument schedules
            lr = self.schedule(epoch)
        from ..framework.graph import Tensor
        if not isinstance(lr, (Tensor, float, np.float32, np.float64)):
            raise ValueError('The output of the "schedule" function should be float. '
                             f"Got: {lr}")
        if isinstance(lr, Tensor) and not lr.dtype.is_floating:
            raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        value = K.get_session().run(lr) if isinstance(lr, Tensor) else lr
        K.set_value(lr_var, value)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = K.get_value(_lr_variable(self.model))


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when `monitor` has not improved by `min_delta`
    for `patience` epochs (then waits `cooldown` epochs), never below `min_lr`."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            logging.warning("`epsilon` argument is deprecated and will be removed, use "
                            "`min_delta` instead.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            logging.warning("Learning rate reduction mode %s is unknown, fallback to auto mode.",
                            self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        lr_var = _lr_variable(self.model)
        logs["lr"] = K.get_value(lr_var)
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Learning rate reduction is conditioned on metric `%s` which is not "
                            "available. Available metrics are: %s", self.monitor,
                            ",".join(logs.keys()))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = K.get_value(lr_var)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    K.set_value(lr_var, new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate "
                              f"to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
