"""`fit / evaluate / predict` on a Python generator, an iterator or a `tf.keras.utils.Sequence`,
and the deprecated `fit_generator / evaluate_generator / predict_generator`, as TF's v1 keras
runs them (training_generator_v1.model_iteration).

Each step takes the next element of the data: `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`,
and runs `train_on_batch` / `test_on_batch` (metrics not reset between batches) or
`predict_on_batch`. A generator needs `steps_per_epoch` (`steps` for evaluate / predict); a
Sequence runs `len(seq)` steps unless told otherwise. fit's epoch loss is the batch losses
averaged over the samples seen (TF's BaseLogger; data that runs out early stops the loop with a
warning), evaluate's is averaged over the steps asked for; the stateful metrics report their
accumulated values. `validation_data` may be another
generator (with `validation_steps`), a Sequence, a dataset, or arrays `(x, y[, sample_weight])`
(batched by the size of the last training batch, the loss averaged over those batches, as TF).

Workers: TF reads the data on `workers` threads or processes through a queue of
`max_queue_size` batches. tensorweave reads it in-process, one batch when a step needs it, which
gives the same batches in the same order (a Sequence with `workers >= 1` is visited in
`random.shuffle`d order each pass when `shuffle=True`, and `on_epoch_end()` is called once a pass
is done, when the next batch is asked for; with `workers=0` it is read in order, without
`on_epoch_end`, as TF's). What differs is only what TF's prefetching does beyond that: it may read
batches ahead that no step uses.
"""

import collections.abc
import inspect
import math
import random
import warnings

import numpy as np

from .engine import _flatten, _map
from .utils_extra import Sequence


def _as_list(x):
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def is_generator_or_sequence(x):
    """TF's data_utils.is_generator_or_sequence: a generator, a Sequence or any iterator (not
    arrays, builtin containers or a tf.data iterator, which fit refuses on its own)."""
    if isinstance(x, (np.ndarray, str, bytes, list, tuple, dict, set, frozenset)):
        return False
    if hasattr(x, "get_next") and hasattr(x, "output_types"):
        return False
    return inspect.isgenerator(x) or isinstance(x, Sequence) or \
        isinstance(x, collections.abc.Iterator)


def _iter_sequence_ordered(seq, shuffle):
    """What TF's OrderedEnqueuer yields: every index of each pass (shuffled with `random` when
    asked), then `seq.on_epoch_end()`, forever."""
    order = list(range(len(seq)))
    while True:
        if shuffle:
            random.shuffle(order)
        for i in order:
            yield seq[i]
        seq.on_epoch_end()


def _iter_sequence_infinite(seq):
    while True:
        for item in seq:
            yield item


def _get_next_batch(generator):
    """The next element as a tuple of 1 to 3 items, or None when the data ran out."""
    from ..framework import errors
    try:
        out = next(generator)
    except (StopIteration, errors.OutOfRangeError):
        return None
    if not isinstance(out, tuple):
        out = (out,)
    if len(out) not in (1, 2, 3):
        raise ValueError("Output of generator should be a tuple of 1 or 2 or 3 elements: (input,) "
                         "or (input, target) or (input, target, sample_weights). Received "
                         f"{out}")
    return out


def _check_generator_arguments(y=None, sample_weight=None, validation_split=None):
    # TF's message lacks the space between "is" and "a".
    if y is not None:
        raise ValueError("`y` argument is not supported when data isa generator or Sequence "
                         "instance. Instead pass targets as the second element of the generator.")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when data isa generator or "
                         "Sequence instance. Instead pass sample weights as the third element of "
                         "the generator.")
    if validation_split:
        raise ValueError("If your data is in the form of a Python generator, you cannot use "
                         "`validation_split`.")


def _check_batch_size(batch_size, x):
    from .training_loops import _is_dataset
    if batch_size is not None and (isinstance(x, Sequence) or inspect.isgenerator(x)
                                   or _is_dataset(x)):
        raise ValueError("The `batch_size` argument must not be specified for the given input "
                         f"type. Received input: {x}, batch_size: {batch_size}")


def _should_run_validation(validation_freq, epoch):
    one_indexed = epoch + 1
    if isinstance(validation_freq, int):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return one_indexed % validation_freq == 0
    if not isinstance(validation_freq, collections.abc.Container):
        raise ValueError("`validation_freq` must be an Integer or `collections.abc.Container` "
                         f"(e.g. list, tuple, etc.). Received: {validation_freq}")
    return one_indexed in validation_freq


def _array_batches(data, batch_size):
    """TF's convert_to_generator_like for a tuple of arrays: its batches in order, and how many."""
    data = tuple(d for d in data if not all(e is None for e in _flatten(d)))
    data = _map(np.asarray, data)
    n = int(_flatten(data)[0].shape[0])
    steps = int(math.ceil(n / batch_size))

    def gen():
        for i in range(steps):
            yield _map(lambda a: a[i * batch_size:(i + 1) * batch_size], data)
    return gen(), steps


class GeneratorLoopsMixin:
    """The generator / Sequence loops of Model (see the module docstring)."""

    def _generator_loop(self, data, mode, steps=None, epochs=1, verbose=1, callbacks=None,
                        validation_data=None, validation_steps=None, validation_freq=1,
                        class_weight=None, max_queue_size=10, workers=1,
                        use_multiprocessing=False, shuffle=False, initial_epoch=0,
                        batch_size=None, steps_name="steps"):
        """TF's model_iteration over generator-like data; mode "train", "test" or "predict"."""
        from . import callbacks as cbks_mod
        from .training_loops import _is_dataset
        from ..framework import errors
        from ..platform import tf_logging as logging

        is_dataset = _is_dataset(data)
        restart = None
        if is_dataset:   # (only as validation data of a generator fit)
            self._ensure_graph_from_dataset(data)
            steps = self._dataset_steps(data, steps, steps_name)
            read, restart = self._dataset_reader(data)

            def from_dataset():
                while True:
                    try:
                        yield read()
                    except errors.OutOfRangeError:
                        return
            generator = from_dataset()
        elif isinstance(data, tuple):
            generator, steps = _array_batches(data, batch_size)
        else:
            generator = data
            if isinstance(data, Sequence) and steps is None:
                steps = len(data)
        is_sequence = isinstance(generator, Sequence)
        if not is_sequence and use_multiprocessing and workers > 1:
            logging.warning("Using a generator with `use_multiprocessing=True` and multiple "
                            "workers may duplicate your data. Please consider using the "
                            "`keras.utils.Sequence` class.")
        if steps is None and not is_dataset:
            arg_name = "steps_per_epoch" if mode == "train" else "steps"
            raise ValueError(f"Please specify the number of steps via the `{arg_name}` argument.")
        if is_generator_or_sequence(validation_data) and \
                not isinstance(validation_data, Sequence) and not validation_steps:
            raise ValueError("Please specify the `validation_steps` argument.")
        if is_sequence:
            generator = _iter_sequence_ordered(generator, shuffle) if workers > 0 \
                else _iter_sequence_infinite(generator)
        elif not hasattr(generator, "__next__"):
            generator = iter(generator)
        if restart is not None:
            restart()

        if mode == "train":
            def batch_fn(x, y=None, sample_weight=None):
                return self.train_on_batch(x, y, sample_weight=sample_weight,
                                           class_weight=class_weight, reset_metrics=False)
        elif mode == "test":
            def batch_fn(x, y=None, sample_weight=None):
                return self.test_on_batch(x, y, sample_weight=sample_weight,
                                          reset_metrics=False)
        else:
            def batch_fn(x, y=None, sample_weight=None):
                return self.predict_on_batch(x)

        do_validation = validation_data is not None
        use_steps = not isinstance(data, tuple)
        if isinstance(callbacks, cbks_mod.CallbackList):   # fit's list, for its validation
            cbs = callbacks
        else:
            cb_list = _as_list(callbacks)
            if mode == "train":
                self.history = cbks_mod.History()
                cb_list = [cbks_mod.BaseLogger()] + cb_list + [self.history]
                if verbose:
                    cb_list.append(cbks_mod.ProgbarLogger("steps" if use_steps else "samples"))
            cbs = cbks_mod.CallbackList(cb_list)
            cbs.set_model(self)
            self._set_generator_params(cbs, do_validation, epochs, steps, verbose, mode)
        self.stop_training = False
        cbs._call_begin_hook(mode)

        results = None
        for epoch in range(initial_epoch, epochs):
            if self.stop_training:
                break
            if mode != "predict":
                self.reset_metrics()
            if mode == "train":
                cbs.on_epoch_begin(epoch, {})
            target = np.inf if steps is None else steps
            sums, outputs, step = None, None, 0
            seen, totals = 0, {}   # TF's BaseLogger: fit's epoch loss, averaged over samples
            while step < target:
                batch = _get_next_batch(generator)
                if batch is None:
                    if is_dataset:
                        if steps:
                            self.stop_training = True
                            logging.warning(
                                "Your dataset ran out of data; interrupting training. Make sure "
                                f"that your dataset can generate at least `{steps_name} * "
                                f"epochs` batches (in this case, {steps * epochs} batches). You "
                                "may need to use the repeat() function when building your "
                                "dataset.")
                        elif step > 0:
                            steps = step
                    else:
                        self.stop_training = True
                        logging.warning(
                            "Your dataset iterator ran out of data; interrupting training. Make "
                            f"sure that your iterator can generate at least `{steps_name} * "
                            f"epochs` batches (in this case, {steps * epochs} batches). You may "
                            "need touse the repeat() function when building your dataset.")
                    break
                size = int(np.shape(_flatten(batch[0])[0])[0])
                batch_logs = {"batch": step, "size": size}
                cbs._call_batch_hook(mode, "begin", step, batch_logs)
                outs = batch_fn(*batch)
                if not isinstance(outs, list):
                    outs = [outs]
                if mode == "predict":
                    if outputs is None:
                        outputs = [[] for _ in outs]
                    for o, b in zip(outputs, outs):
                        o.append(b)
                    batch_logs["outputs"] = outs
                else:
                    if sums is None:
                        # TF sums the test losses in float32
                        sums = [np.float32(0)] * len(outs)
                    sums[0] = sums[0] + outs[0]
                    sums[1:] = outs[1:]
                    outs = [float(o) for o in outs]   # TF's batch logs hold Python floats
                    if mode == "train":
                        seen += size
                        totals["loss"] = totals.get("loss", 0.0) + outs[0] * size
                    batch_logs.update(zip(self.metrics_names, outs))
                cbs._call_batch_hook(mode, "end", step, batch_logs)
                step += 1
                if self.stop_training:
                    break

            if mode == "predict":
                if outputs is None:
                    raise ValueError("Empty training data.")
                results = [np.concatenate(o) for o in outputs]
                results = results[0] if len(results) == 1 else results
                continue
            if sums is None:
                raise ValueError("Empty training data.")
            sums[0] = sums[0] / (steps or step)
            results = sums
            epoch_logs = dict(zip(self.metrics_names, [float(r) for r in results]))
            if mode == "train":
                # TF's BaseLogger replaces the loss by its average over the samples seen.
                epoch_logs["loss"] = totals["loss"] / seen
            if do_validation and _should_run_validation(validation_freq, epoch) and \
                    not self.stop_training:
                val_results = self._generator_loop(
                    validation_data, "test", steps=validation_steps, batch_size=size,
                    class_weight=class_weight, workers=workers,
                    use_multiprocessing=use_multiprocessing, max_queue_size=max_queue_size,
                    callbacks=cbs, verbose=verbose, steps_name="validation_steps")
                epoch_logs.update({"val_" + k: float(v) for k, v in
                                   zip(self.metrics_names, _as_list(val_results))})
            if mode == "train":
                cbs.on_epoch_end(epoch, epoch_logs)
            if restart is not None and steps is None and epoch < epochs - 1:
                restart()

        cbs._call_end_hook(mode)
        if mode == "train":
            return self.history
        if mode == "test" and len(results) == 1:
            return results[0]
        return results

    def _set_generator_params(self, cbs, do_validation, epochs, steps, verbose, mode):
        names = list(getattr(self, "metrics_names", None) or []) if mode != "predict" else []
        if mode == "train" and do_validation:
            names += ["val_" + n for n in names]
        cbs.set_params({"batch_size": None, "epochs": epochs, "steps": steps, "samples": steps,
                        "verbose": verbose, "do_validation": do_validation, "metrics": names})

    # -- fit / evaluate / predict on generators ------------------------------------------------
    def _fit_generator_like(self, x, y, batch_size, epochs, verbose, callbacks, validation_split,
                            validation_data, shuffle, class_weight, sample_weight, initial_epoch,
                            steps_per_epoch, validation_steps, validation_freq, max_queue_size,
                            workers, use_multiprocessing):
        _check_batch_size(batch_size, x)
        _check_generator_arguments(y, sample_weight, validation_split=validation_split)
        return self._generator_loop(
            x, "train", steps=steps_per_epoch, epochs=epochs, verbose=verbose,
            callbacks=callbacks, validation_data=validation_data,
            validation_steps=validation_steps, validation_freq=validation_freq,
            class_weight=class_weight, max_queue_size=max_queue_size, workers=workers,
            use_multiprocessing=use_multiprocessing, shuffle=shuffle,
            initial_epoch=initial_epoch, steps_name="steps_per_epoch")

    def _evaluate_generator_like(self, x, y, batch_size, verbose, sample_weight, steps,
                                 callbacks, max_queue_size, workers, use_multiprocessing):
        _check_batch_size(batch_size, x)
        _check_generator_arguments(y, sample_weight)
        return self._generator_loop(x, "test", steps=steps, verbose=verbose, callbacks=callbacks,
                                    max_queue_size=max_queue_size, workers=workers,
                                    use_multiprocessing=use_multiprocessing)

    def _predict_generator_like(self, x, batch_size, verbose, steps, callbacks, max_queue_size,
                                workers, use_multiprocessing):
        _check_batch_size(batch_size, x)
        return self._generator_loop(x, "predict", steps=steps, verbose=verbose,
                                    callbacks=callbacks, max_queue_size=max_queue_size,
                                    workers=workers, use_multiprocessing=use_multiprocessing)

    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1, callbacks=None,
                      validation_data=None, validation_steps=None, validation_freq=1,
                      class_weight=None, max_queue_size=10, workers=1, use_multiprocessing=False,
                      shuffle=True, initial_epoch=0):
        """Deprecated: `fit` on a generator or Sequence (what this calls)."""
        warnings.warn("`model.fit_generator` is deprecated and will be removed in a future "
                      "version. Please use `Model.fit`, which supports generators.", stacklevel=2)
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                        verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                        validation_steps=validation_steps, validation_freq=validation_freq,
                        class_weight=class_weight, max_queue_size=max_queue_size,
                        workers=workers, use_multiprocessing=use_multiprocessing,
                        shuffle=shuffle, initial_epoch=initial_epoch)

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                           workers=1, use_multiprocessing=False, verbose=0):
        """Deprecated: `evaluate` on a generator or Sequence (what this calls)."""
        warnings.warn("`Model.evaluate_generator` is deprecated and will be removed in a future "
                      "version. Please use `Model.evaluate`, which supports generators.",
                      stacklevel=2)
        return self.evaluate(generator, steps=steps, max_queue_size=max_queue_size,
                             workers=workers, use_multiprocessing=use_multiprocessing,
                             verbose=verbose, callbacks=callbacks)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                          workers=1, use_multiprocessing=False, verbose=0):
        """Deprecated: `predict` on a generator or Sequence (what this calls)."""
        warnings.warn("`Model.predict_generator` is deprecated and will be removed in a future "
                      "version. Please use `Model.predict`, which supports generators.",
                      stacklevel=2)
        return self.predict(generator, steps=steps, max_queue_size=max_queue_size,
                            workers=workers, use_multiprocessing=use_multiprocessing,
                            verbose=verbose, callbacks=callbacks)


for _name in ("fit_generator", "evaluate_generator", "predict_generator"):
    # TF's errors name them "Model.fit_generator()" (a bad keyword argument, say).
    getattr(GeneratorLoopsMixin, _name).__qualname__ = "Model." + _name
