"""`tf.keras.callbacks`: Callback, CallbackList, History (what `fit` returns), BaseLogger,
ProgbarLogger (progbar.py), LambdaCallback, EarlyStopping, TerminateOnNaN.
ModelCheckpoint, CSVLogger, LearningRateScheduler, ReduceLROnPlateau live in callbacks_io.py;
TensorBoard raises NotImplementedError."""

import numpy as np


class Callback:
    """Base class of keras callbacks. fit calls the train hooks (the batch ones through
    on_train_batch_*, which default to on_batch_*), evaluate and fit's validation the test hooks,
    predict the predict hooks, as TF's CallbackList does."""

    def __init__(self):
        # no `params` until set_params, as TF's Callback
        self.validation_data = None
        self.model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass


_HOOKS = ("on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end",
          "on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin",
          "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end",
          "on_train_begin", "on_train_end", "on_test_begin", "on_test_end", "on_predict_begin",
          "on_predict_end")


class CallbackList:
    """Calls each hook on every callback in order; `logs` None becomes {}."""

    def __init__(self, callbacks=None):
        self.callbacks = list(callbacks or [])

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    def _call_batch_hook(self, mode, when, batch, logs=None):
        """mode "train"/"test"/"predict", when "begin"/"end"."""
        self._call(f"on_{mode}_batch_{when}", batch, logs or {})

    def _call_begin_hook(self, mode):
        self._call(f"on_{mode}_begin", {})

    def _call_end_hook(self, mode):
        self._call(f"on_{mode}_end", {})


def _list_hook(name):
    if name.startswith("on_epoch") or "_batch_" in name or name.startswith("on_batch"):
        def hook(self, index, logs=None):
            self._call(name, index, logs or {})
    else:
        def hook(self, logs=None):
            self._call(name, logs or {})
    hook.__name__ = name
    return hook


for _name in _HOOKS:
    setattr(CallbackList, _name, _list_hook(_name))


class BaseLogger(Callback):
    """Kept for TF's callback order; fit computes the epoch averages itself."""


class History(Callback):
    """Records each epoch's logs: `history.history["loss"]` is the per-epoch loss."""

    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epoch.append(epoch)
        for k, v in logs.items():
            self.history.setdefault(k, []).append(v)
        if self.model is not None:
            self.model.history = self


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        noop = lambda *a, **k: None  # noqa: E731  (the hooks pass logs=...)
        self.on_epoch_begin = on_epoch_begin or noop
        self.on_epoch_end = on_epoch_end or noop
        self.on_batch_begin = on_batch_begin or noop
        self.on_batch_end = on_batch_end or noop
        self.on_train_begin = on_train_begin or noop
        self.on_train_end = on_train_end or noop
        self.__dict__.update(kwargs)  # any other hook, e.g. on_train_batch_end, as TF's


class EarlyStopping(Callback):
    """Stops training when `monitor` has not improved by `min_delta` for `patience` epochs;
    `restore_best_weights` sets the weights of the best epoch back at the end of training."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "min":
            self.monitor_op = np.less
        elif mode == "max":
            self.monitor_op = np.greater
        elif monitor.endswith(("acc", "accuracy", "auc")):
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.less
        if self.monitor_op != np.greater:
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op == np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def _is_improvement(self, value, reference):
        return self.monitor_op(value - self.min_delta, reference)

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class TerminateOnNaN(Callback):
    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


def _unsupported(name):
    class _Unsupported(Callback):
        def __init__(self, *args, **kwargs):
            raise NotImplementedError(f"tf.keras.callbacks.{name} is not supported by tensorweave "
                                      "yet")
    _Unsupported.__name__ = name
    return _Unsupported


TensorBoard = _unsupported("TensorBoard")


# These modules subclass Callback, so they come last.
from .progbar import ProgbarLogger  # noqa: E402
from .callbacks_io import (CSVLogger, LearningRateScheduler, ModelCheckpoint,  # noqa: E402,F401
                           ReduceLROnPlateau)
_REEXPORTED = (ProgbarLogger, CSVLogger, LearningRateScheduler, ModelCheckpoint, ReduceLROnPlateau)
