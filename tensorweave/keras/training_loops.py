"""`fit / evaluate / predict / train_on_batch / test_on_batch / predict_on_batch` loops, as TF's
v1 keras runs them (training_arrays_v1.model_iteration).

Two modes:
- samples (NumPy arrays, no `steps`): batches of `batch_size` (default 32) over the samples,
  shuffled each epoch; the epoch loss is the per-batch loss averaged over samples.
- steps (a `tf.data.Dataset`, or `steps` / `steps_per_epoch` given): each step takes the next
  element of the dataset (or, for arrays, all of them); the loss is averaged over steps. A dataset
  without `steps_per_epoch` runs to its end each epoch (its cardinality, or until it runs out),
  from a fresh iterator; with `steps_per_epoch` one iterator runs on across epochs.
Stateful metrics report their accumulated value either way.

`sample_weight` (one weight per sample, or per time step with compile(sample_weight_mode=
"temporal")) and `class_weight` ({class: weight}, the class being argmax(y) or y itself) weight
the loss through "<output>_sample_weights" placeholders; metrics stay unweighted, as in TF.
"""

import numpy as np

from . import backend as K
from .training_generator import GeneratorLoopsMixin, _as_list, is_generator_or_sequence


def _is_dataset(x):
    return hasattr(x, "make_initializable_iterator") or type(x).__name__.endswith("Dataset")


def standardize_weights(y, sample_weight=None, class_weight=None, sample_weight_mode=None):
    """The weights for one output's targets `y` (NumPy), from `sample_weight` and/or
    `class_weight`, as TF's training_utils_v1.standardize_weights; None when neither is given."""
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight_mode == "temporal":
            if y.ndim < 3:
                raise ValueError(f"Found a sample_weight array for an input with shape {y.shape}. "
                                 "Timestep-wise sample weighting (use of sample_weight_mode="
                                 "\"temporal\") is restricted to outputs that are at least 3D, i.e. "
                                 "that have a time dimension.")
            if sample_weight.ndim != 2:
                raise ValueError(f"Found a sample_weight array with shape {sample_weight.shape}. "
                                 "In order to use timestep-wise sample weighting, you should pass "
                                 "a 2D sample_weight array.")
        elif sample_weight.ndim != 1:
            raise ValueError(f"Found a sample_weight array with shape {sample_weight.shape}. In "
                             "order to use timestep-wise sample weights, you should specify "
                             "sample_weight_mode=\"temporal\" in compile(); founssd "
                             f"\"{sample_weight_mode}\" instead. If you just mean to use "
                             "sample-wise weights, make sure your sample_weight array is 1D.")
        if y.shape[:sample_weight.ndim] != sample_weight.shape:
            raise ValueError(f"Found a sample_weight array with shape {sample_weight.shape} for "
                             f"an input with shape {y.shape}. sample_weight cannot be broadcast.")
    class_sample_weight = None
    if isinstance(class_weight, dict):
        if y.ndim > 2:
            raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
        y_classes = y
        if y.ndim == 2:
            if y.shape[1] > 1:
                y_classes = np.argmax(y, axis=1)
            elif y.shape[1] == 1:
                y_classes = np.reshape(y, y.shape[0])
        class_sample_weight = np.asarray([class_weight[c] for c in y_classes if c in class_weight])
        if len(class_sample_weight) != len(y_classes):
            missing = set(y_classes) - set(class_weight.keys())
            raise ValueError("`class_weight` must contain all classes in the data. The classes "
                             f"{missing} exist in the data but not in `class_weight`.")
    if class_sample_weight is not None and sample_weight is not None:
        return class_sample_weight * sample_weight
    if sample_weight is not None:
        return sample_weight
    return class_sample_weight


class LoopsMixin(GeneratorLoopsMixin):
    """The data-feeding loops of Model (see the module docstring); generators and Sequences go
    to GeneratorLoopsMixin (training_generator.py)."""

    # -- sample weights ------------------------------------------------------------------------
    def _weights_for(self, ys, sample_weight, class_weight):
        """Per fed target: its weights array, or None for all when none were given."""
        outputs = [n for n, t in zip(self.output_names, self.targets) if t is not None]
        if sample_weight is None and class_weight is None:
            return None
        if isinstance(sample_weight, dict):
            sws = [sample_weight.get(n) for n in outputs]
        elif isinstance(sample_weight, (list, tuple)) and len(outputs) > 1:
            sws = list(sample_weight)
        else:
            sws = [sample_weight] * len(outputs) if len(outputs) == 1 else \
                [sample_weight] + [None] * (len(outputs) - 1)
        if isinstance(class_weight, dict) and class_weight and \
                all(k in self.output_names for k in class_weight):
            cws = [class_weight.get(n) for n in outputs]
        else:
            cws = [class_weight] * len(outputs)
        out = []
        for y, sw, cw in zip(ys, sws, cws):
            w = standardize_weights(y, sw, cw, self._compile_sw_mode)
            if w is None:
                w = np.ones(y.shape[:2] if self._compile_sw_mode == "temporal" else y.shape[:1])
            out.append(np.asarray(w, K.floatx()))
        return out

    def _arrays(self, x, y, sample_weight=None, class_weight=None):
        """x, y and weight arrays as the train/test functions take them (rebuilding the loss
        when weights start or stop being given)."""
        xs, ys = self._standardize(x, y)
        sws = self._weights_for(ys, sample_weight, class_weight)
        self._set_sample_weight_mode(sws is not None)
        return xs + ys + (sws or [])

    def _feed_sample_weights(self):
        return [w for w in getattr(self, "_sample_weights", []) if w is not None]

    # -- datasets ------------------------------------------------------------------------------
    def _dataset_reader(self, dataset):
        """A function returning the next element of `dataset` as NumPy (OutOfRangeError at its
        end), and one that restarts it."""
        with self._model_graph().as_default():
            it = dataset.make_initializable_iterator()
            nxt = it.get_next()
        state = {"init": False}

        def restart():
            K.get_session().run(it.initializer)
            state["init"] = True

        def read():
            if not state["init"]:
                restart()
            return K.get_session().run(nxt)
        return read, restart

    def _model_graph(self):
        from ..framework.graph import get_default_graph
        return self.outputs[0].graph if self.outputs else get_default_graph()

    @staticmethod
    def _split_element(el, need_y=True):
        if isinstance(el, tuple) and not hasattr(el, "_fields"):
            if len(el) == 1:
                return el[0], None, None
            if len(el) == 2:
                return el[0], el[1], None
            if len(el) == 3:
                return el
            raise ValueError("Please provide model inputs as a list or tuple of 2 or 3 elements: "
                             f"(input, target) or (input, target, sample_weights) Received {el}")
        if need_y:
            raise ValueError("Please provide model inputs as a list or tuple of 2 or 3 elements: "
                             f"(input, target) or (input, target, sample_weights) Received {el}")
        return el, None, None

    def _dataset_steps(self, dataset, steps, what):
        from ..data.cardinality import INFINITE, UNKNOWN, cardinality
        if steps is not None:
            return steps
        with self._model_graph().as_default():   # TF runs the cardinality op in its session
            n = int(K.get_session().run(cardinality(dataset)))
        if n == INFINITE:
            raise ValueError(f"When passing an infinitely repeating dataset, you must specify the "
                             f"`{what}` argument.")
        return None if n == UNKNOWN else np.int64(n)

    def _steps_source(self, x, y, sample_weight, class_weight, need_y=True):
        """A function giving the feed arrays of the next step, and a restart function."""
        if _is_dataset(x):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input.")
            read, restart = self._dataset_reader(x)

            def nxt():
                bx, by, bsw = self._split_element(read(), need_y)
                if not need_y:
                    xs, _ = self._standardize(bx, need_y=False)
                    return xs
                return self._arrays(bx, by, bsw, class_weight)
            return nxt, restart
        arrays = self._arrays(x, y, sample_weight, class_weight) if need_y else \
            self._standardize(x, need_y=False)[0]
        return (lambda: arrays), (lambda: None)

    def _run_steps(self, fn, source, steps, callbacks=None, restart=None, mode="test"):
        """`steps` steps (or until the data runs out when None) of fn; [mean loss, metrics...]."""
        from ..framework import errors
        if restart is not None:
            restart()
        results, done = None, 0
        while steps is None or done < steps:
            try:
                arrays = source()
            except errors.OutOfRangeError:
                if steps is not None:
                    print(f"WARNING: Your dataset ran out of data; interrupting training. Make "
                          f"sure that your dataset can generate at least `steps_per_epoch * "
                          f"epochs` batches (in this case, {steps} batches). You may need to "
                          "use the repeat() function when building your dataset.")
                    self.stop_training = True
                break
            if callbacks is not None:
                callbacks._call_batch_hook(mode, "begin", done, {"batch": done, "size": 1})
            outs = fn(arrays)
            if results is None:
                results = [0.0] * len(outs)
            # TF's step-mode sums come out in float64 when training, float32 when testing.
            results[0] += float(outs[0]) if mode == "train" else outs[0]
            results[1:] = outs[1:]
            done += 1
            if callbacks is not None:
                logs = {"batch": done - 1, "size": 1}
                logs.update(zip(self.metrics_names, [float(o) for o in outs]))
                callbacks._call_batch_hook(mode, "end", done - 1, logs)
                if self.stop_training:
                    break
        if results is None:
            return None
        results[0] = results[0] / (steps if steps is not None else done)
        return results

    def _predict_steps(self, fn, source, steps, restart, callbacks):
        """Runs fn on each batch source() gives (until StopIteration/OutOfRange or `steps`),
        calling the predict hooks; the outputs concatenated."""
        from ..framework import errors
        if restart is not None:
            restart()
        callbacks._call_begin_hook("predict")
        outs, done = None, 0
        while steps is None or done < steps:
            try:
                arrays = source()
            except (errors.OutOfRangeError, StopIteration):
                break
            size = len(arrays[0]) if steps is None else 1
            callbacks._call_batch_hook("predict", "begin", done, {"batch": done, "size": size})
            batch = fn(arrays)
            if outs is None:
                outs = [[] for _ in batch]
            for o, b in zip(outs, batch):
                o.append(b)
            callbacks._call_batch_hook("predict", "end", done,
                                       {"batch": done, "size": size, "outputs": list(batch)})
            done += 1
        callbacks._call_end_hook("predict")
        outs = [np.concatenate(o) for o in outs]
        return outs[0] if len(outs) == 1 else outs

    # -- array batches -------------------------------------------------------------------------
    @staticmethod
    def _batches(n, batch_size):
        num = int(np.ceil(n / float(batch_size)))
        return [(i * batch_size, min(n, (i + 1) * batch_size)) for i in range(num)]

    def _run_loop(self, fn, arrays, batch_size, index_array=None, callbacks=None, mode="test"):
        n = len(arrays[0])
        if index_array is None:
            index_array = np.arange(n)
        results = None
        for batch_index, (start, end) in enumerate(self._batches(n, batch_size)):
            ids = index_array[start:end]
            batch = [a[ids] for a in arrays]
            if callbacks is not None:
                callbacks._call_batch_hook(mode, "begin", batch_index,
                                           {"batch": batch_index, "size": end - start})
            outs = fn(batch)
            if results is None:
                results = [0.0] * len(outs)
            # TF's train loop sums Python floats (float64), its test loop float32 values.
            results[0] += (float(outs[0]) if mode == "train" else outs[0]) * (end - start)
            results[1:] = outs[1:]
            if callbacks is not None:
                logs = {"batch": batch_index, "size": end - start}
                logs.update(zip(self.metrics_names, [float(o) for o in outs]))
                callbacks._call_batch_hook(mode, "end", batch_index, logs)
                if self.stop_training:
                    break
        if results is None:
            raise ValueError("Empty training data.")
        results[0] = results[0] / n
        if mode == "train":
            return results
        return [np.float32(r) for r in results]

    # -- the public loops ----------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_freq=1, max_queue_size=10, workers=1, use_multiprocessing=False, **kwargs):
        """Trains for `epochs` epochs; returns a History whose `.history` maps "loss", the
        metrics and "val_*" to per-epoch values."""
        from . import callbacks as cbks_mod
        self._check_compiled()
        if is_generator_or_sequence(x):
            return self._fit_generator_like(
                x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                shuffle, class_weight, sample_weight, initial_epoch, steps_per_epoch,
                validation_steps, validation_freq, max_queue_size, workers, use_multiprocessing)
        steps_mode = _is_dataset(x) or steps_per_epoch is not None
        if _is_dataset(x):
            self._ensure_graph_from_dataset(x)
            steps = self._dataset_steps(x, steps_per_epoch, "steps_per_epoch")
        else:
            steps = steps_per_epoch
        restart_each_epoch = _is_dataset(x) and steps_per_epoch is None
        if steps_mode:
            source, restart = self._steps_source(x, y, sample_weight, class_weight)
            n = steps
        else:
            arrays = self._arrays(x, y, sample_weight, class_weight)
            n = len(arrays[0])
        val = None
        if validation_data is not None:
            if _is_dataset(validation_data):
                vsteps = self._dataset_steps(validation_data, validation_steps, "validation_steps")
                vsource, vrestart = self._steps_source(validation_data, None, None, None)
                val = ("steps", vsource, vrestart, vsteps)
            else:
                if len(validation_data) not in (2, 3):
                    raise ValueError("When passing a `validation_data` argument, it must contain "
                                     "either 2 items (x_val, y_val), or 3 items (x_val, y_val, "
                                     f"val_sample_weights), or alternatively it could be a dataset "
                                     f"or a dataset or a dataset iterator. However we received "
                                     f"`validation_data={validation_data}`")
                vx, vy = validation_data[:2]
                vsw = validation_data[2] if len(validation_data) == 3 else None
                val = ("arrays", vx, vy, vsw)
        elif validation_split and 0.0 < validation_split < 1.0 and not steps_mode:
            split_at = int(len(arrays[0]) * (1.0 - validation_split))
            val = ("split", [a[split_at:] for a in arrays])
            arrays = [a[:split_at] for a in arrays]
            n = split_at
        batch_size = None if steps_mode else (batch_size or 32)
        train_fn = self._make_train_function()
        self.history = cbks_mod.History()
        cb_list = [cbks_mod.BaseLogger()] + _as_list(callbacks) + [self.history]
        if verbose:  # last, as TF's configure_callbacks: it prints after the user's callbacks
            cb_list.append(cbks_mod.ProgbarLogger("steps" if steps_mode else "samples"))
        callbacks = cbks_mod.CallbackList(cb_list)
        callbacks.set_model(self)
        metric_names = list(self.metrics_names)
        if val is not None:
            metric_names += ["val_" + m for m in self.metrics_names]
        callbacks.set_params({"batch_size": batch_size, "epochs": epochs,
                              "steps": n if steps_mode else None, "samples": n,
                              "verbose": verbose, "do_validation": val is not None,
                              "metrics": metric_names})
        if verbose:  # TF's _print_train_info ("samples" unless x is a dataset)
            unit = "steps" if _is_dataset(x) else "samples"
            msg = f"Train on {n} {unit}"
            if val is not None:
                nval = val[3] if val[0] == "steps" else len(val[1][0]) if val[0] == "split" \
                    else len(_as_list(val[1])[0])
                if nval:
                    msg += f", validate on {nval} {unit}"
            print(msg)
        self.stop_training = False
        callbacks.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            if steps_mode:
                results = self._run_steps(train_fn, source, steps, callbacks,
                                          restart if restart_each_epoch or epoch == initial_epoch
                                          else None, mode="train")
                if results is None:
                    break
            else:
                index_array = np.arange(n)  # TF shuffles a fresh arange each epoch
                if shuffle == "batch":
                    index_array = _batch_shuffle(index_array, batch_size)
                elif shuffle:
                    np.random.shuffle(index_array)
                results = self._run_loop(train_fn, arrays, batch_size, index_array, callbacks,
                                         "train")
            epoch_logs = dict(zip(self.metrics_names, [float(r) for r in results]))
            if val is not None and (epoch + 1) % validation_freq == 0 and not self.stop_training:
                vres = self._validate(val, batch_size, callbacks)
                if vres is not None:
                    epoch_logs.update({"val_" + k: float(v)
                                       for k, v in zip(self.metrics_names, vres)})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callbacks.on_train_end()
        return self.history

    def _validate(self, val, batch_size, callbacks):
        test_fn_arrays = None
        if val[0] == "arrays":
            test_fn_arrays = self._arrays(val[1], val[2], val[3])
        elif val[0] == "split":
            test_fn_arrays = val[1]
        fn = self._make_test_function()
        self.reset_metrics()
        callbacks._call_begin_hook("test")  # fit's callbacks see its validation as TF's
        if val[0] == "steps":
            res = self._run_steps(fn, val[1], val[3], callbacks, restart=val[2])
        else:
            # TF runs validation through model_iteration with its default shuffle=True, so
            # the validation samples are visited in a np.random order (and draw from it).
            index_array = np.arange(len(test_fn_arrays[0]))
            np.random.shuffle(index_array)
            res = self._run_loop(fn, test_fn_arrays, batch_size or 32, index_array, callbacks)
        callbacks._call_end_hook("test")
        return res

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None,
                 callbacks=None, max_queue_size=10, workers=1, use_multiprocessing=False,
                 return_dict=False, **kwargs):
        """The loss (averaged over samples, or over steps for a dataset) and metrics on (x, y);
        a scalar when there are no metrics."""
        self._check_compiled()
        if is_generator_or_sequence(x):
            results = self._evaluate_generator_like(x, y, batch_size, verbose, sample_weight,
                                                    steps, callbacks, max_queue_size, workers,
                                                    use_multiprocessing)
            if return_dict:
                return dict(zip(self.metrics_names, _as_list(results)))
            return results
        steps_mode = _is_dataset(x) or steps is not None
        if steps_mode:
            if _is_dataset(x):
                self._ensure_graph_from_dataset(x)
                steps = self._dataset_steps(x, steps, "steps")
            source, restart = self._steps_source(x, y, sample_weight, None)
        else:
            arrays = self._arrays(x, y, sample_weight)
        fn = self._make_test_function()
        cbs = self._mode_callbacks(callbacks, batch_size, verbose, steps if steps_mode else None,
                                   None if steps_mode else len(arrays[0]))
        self.reset_metrics()
        cbs._call_begin_hook("test")
        if steps_mode:
            results = self._run_steps(fn, source, steps, cbs, restart=restart)
        else:
            results = self._run_loop(fn, arrays, batch_size or 32, callbacks=cbs)
        cbs._call_end_hook("test")
        # TF's v1 evaluate draws no progress bar (its ProgbarLogger is only added to fit).
        if return_dict:
            return dict(zip(self.metrics_names, results))
        return results[0] if len(results) == 1 else results

    def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None, max_queue_size=10,
                workers=1, use_multiprocessing=False):
        """The model's outputs on x, computed in batches (default 32) and concatenated; with
        `steps` (or a dataset) one step per element (arrays: all of x each step)."""
        if is_generator_or_sequence(x):
            return self._predict_generator_like(x, batch_size, verbose, steps, callbacks,
                                                max_queue_size, workers, use_multiprocessing)
        if _is_dataset(x) or steps is not None:
            if _is_dataset(x):
                self._ensure_graph_from_dataset(x)
                steps = self._dataset_steps(x, steps, "steps")
            source, restart = self._steps_source(x, None, None, None, need_y=False)
            fn = self._make_predict_function()
            cbs = self._mode_callbacks(callbacks, batch_size, verbose, steps, None)
            return self._predict_steps(fn, source, steps, restart, cbs)
        xs, _ = self._standardize(x, need_y=False)
        fn = self._make_predict_function()
        n = len(xs[0])
        cbs = self._mode_callbacks(callbacks, batch_size, verbose, None, n)
        batches = iter(self._batches(n, batch_size or 32))

        def source():
            start, end = next(batches)
            return [a[start:end] for a in xs]
        return self._predict_steps(fn, source, None, None, cbs)

    def _mode_callbacks(self, callbacks, batch_size, verbose, steps, samples):
        """The user's callbacks of evaluate/predict, set up as TF's configure_callbacks."""
        from . import callbacks as cbks_mod
        cbs = cbks_mod.CallbackList(_as_list(callbacks))
        cbs.set_model(self)
        cbs.set_params({"batch_size": batch_size, "epochs": 1, "steps": steps,
                        "samples": samples, "verbose": verbose, "do_validation": False,
                        "metrics": list(getattr(self, "metrics_names", None) or [])})
        return cbs

    def _ensure_graph_from_dataset(self, dataset):
        """A model without inputs yet takes them from the dataset's element shapes."""
        if self.outputs is not None:
            return
        spec = dataset.output_shapes if hasattr(dataset, "output_shapes") else None
        xs = spec[0] if isinstance(spec, tuple) else spec
        shapes = [s.as_list() for s in _as_list(xs)]
        self._ensure_graph([np.zeros([d or 1 for d in s], np.float32) for s in shapes])
        if self._compiled:
            self._compile_graph()

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True,
                       return_dict=False):
        """One optimizer step on one batch; returns the loss and metrics of that batch."""
        self._check_compiled()
        arrays = self._arrays(x, y, sample_weight, class_weight)
        outs = [np.float32(o) for o in self._make_train_function()(arrays)]
        if reset_metrics:
            self.reset_metrics()
        if return_dict:
            return dict(zip(self.metrics_names, outs))
        return outs[0] if len(outs) == 1 else outs

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True, return_dict=False):
        """Loss and metrics on one batch, without updating the weights."""
        self._check_compiled()
        arrays = self._arrays(x, y, sample_weight)
        outs = [np.float32(o) for o in self._make_test_function()(arrays)]
        if reset_metrics:
            self.reset_metrics()
        if return_dict:
            return dict(zip(self.metrics_names, outs))
        return outs[0] if len(outs) == 1 else outs

    def predict_on_batch(self, x):
        xs, _ = self._standardize(x, need_y=False)
        outs = self._make_predict_function()(xs)
        return outs[0] if len(outs) == 1 else outs


def _batch_shuffle(index_array, batch_size):
    batch_count = int(len(index_array) / batch_size)
    last_batch = index_array[batch_count * batch_size:]
    index_array = index_array[:batch_count * batch_size]
    index_array = index_array.reshape((batch_count, batch_size))
    np.random.shuffle(index_array)
    index_array = index_array.flatten()
    return np.append(index_array, last_batch)
