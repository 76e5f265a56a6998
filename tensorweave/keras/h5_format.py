"""Keras' legacy HDF5 layout, read and written through h5py (an optional dependency, imported by
the callers only when an HDF5 file is asked for, as TF does):

- weights: root attributes `backend`, `keras_version`, `layer_names`; one group per layer (in
  name order) with a `weight_names` attribute and one dataset per weight (`dense/kernel:0`).
- whole models (`model.save("m.h5")`, the default format of TF1 programs): `model_config` and
  `training_config` JSON attributes and the weights under `model_weights`.

The optimizer's state is not saved (a loaded model's optimizer starts afresh)."""

import json

import numpy as np

from . import backend as K

KERAS_VERSION = "2.21.0"


def _layer_weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def save_weights_to_group(f, layers):
    """Writes each layer's weights into its own group of `f`."""
    f.attrs["backend"] = "tensorflow".encode("utf8")
    f.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    f.attrs["layer_names"] = [layer.name.encode("utf8") for layer in layers]
    for layer in sorted(layers, key=lambda x: x.name):
        g = f.create_group(layer.name)
        weights = _layer_weights(layer)
        values = K.batch_get_value(weights) if weights else []
        names = [w.name.encode("utf8") for w in weights]
        g.attrs["weight_names"] = names
        for name, val in zip(names, values):
            val = np.asarray(val)
            dset = g.create_dataset(name, val.shape, dtype=val.dtype)
            if not val.shape:
                dset[()] = val
            else:
                dset[:] = val


def _decoded(values):
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for v in values]


def load_weights_from_group(f, layers):
    """Sets the weights of the layers that have some, in order, from the groups of `f` that
    have some (TF's topological loading; layer names need not match)."""
    layers = [layer for layer in layers if _layer_weights(layer)]
    saved = []
    for name in _decoded(f.attrs["layer_names"]):
        g = f[name]
        weight_names = _decoded(g.attrs["weight_names"])
        if weight_names:
            saved.append((name, [np.asarray(g[w]) for w in weight_names]))
    if len(saved) != len(layers):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected "
                         f"{len(layers)} layers, found {len(saved)} saved layers.")
    pairs = []
    for layer, (name, values) in zip(layers, saved):
        weights = _layer_weights(layer)
        if len(weights) != len(values):
            raise ValueError(f"Weight count mismatch for layer #{len(pairs)} (named {layer.name} "
                             f"in the current model, {name} in the save file). Layer expects "
                             f"{len(weights)} weight(s). Received {len(values)} saved weight(s)")
        for w, v in zip(weights, values):
            if tuple(w.shape.as_list()) != v.shape:
                raise ValueError(f"Shape mismatch in layer #{len(pairs)} (named {layer.name}) "
                                 f"for weight {w.name}. Weight expects shape "
                                 f"{tuple(w.shape.as_list())}. Received saved weight with shape "
                                 f"{v.shape}")
            pairs.append((w, v))
    K.batch_set_value(pairs)


def load_weights_from_group_by_name(f, layers, skip_mismatch=False):
    """Sets the weights of the layers named as groups of `f` (TF's `by_name=True` loading);
    with `skip_mismatch`, a layer whose weights do not fit is left as it is."""
    from ..platform import tf_logging as logging
    index = {}
    for layer in layers:
        index.setdefault(layer.name, []).append(layer)
    pairs = []
    for k, name in enumerate(_decoded(f.attrs["layer_names"])):
        g = f[name]
        values = [np.asarray(g[w]) for w in _decoded(g.attrs["weight_names"])]
        for layer in index.get(name, []):
            weights = _layer_weights(layer)
            if len(weights) != len(values):
                if skip_mismatch:
                    logging.warning(f"Skipping loading of weights for layer #{k} (named "
                                    f"{layer.name}) due to mismatch in number of weights. Layer "
                                    f"expects {len(weights)} weight(s). Received {len(values)} "
                                    "saved weight(s)")
                    continue
                raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name}). "
                                 f"Layer expects {len(weights)} weight(s). Received "
                                 f"{len(values)} saved weight(s)")
            for w, v in zip(weights, values):
                expected = tuple(w.shape.as_list())
                if expected == v.shape:
                    pairs.append((w, v))
                    continue
                if not skip_mismatch:
                    raise ValueError(f"Shape mismatch in layer #{k} (named {layer.name}) for "
                                     f"weight {w.name}. Weight expects shape {expected}. "
                                     f"Received saved weight with shape {v.shape}")
                logging.warning(f"Skipping loading weights for layer #{k} (named {layer.name}) "
                                f"due to mismatch in shape for weight {w.name}. Weight expects "
                                f"shape {expected}. Received saved weight with shape {v.shape}")
    K.batch_set_value(pairs)


def _training_config(model):
    from . import optimizers
    opt = model.optimizer
    loss = getattr(model, "loss", None)

    def name_of(fn):
        return fn if isinstance(fn, str) or fn is None else getattr(fn, "__name__", None) or \
            type(fn).__name__
    if isinstance(loss, dict):
        loss = {k: name_of(v) for k, v in loss.items()}
    elif isinstance(loss, (list, tuple)):
        loss = [name_of(v) for v in loss]
    else:
        loss = name_of(loss)
    return {"loss": loss, "metrics": _plain_metrics(getattr(model, "_compile_metrics", None)),
            "weighted_metrics": None, "loss_weights": getattr(model, "_loss_weights", None),
            "optimizer_config": {"class_name": type(opt).__name__,
                                 "config": _plain(opt.get_config())}} \
        if isinstance(opt, optimizers.Optimizer) else None


def _plain_metrics(metrics):
    if metrics is None or isinstance(metrics, str):
        return metrics
    if isinstance(metrics, dict):
        return {k: _plain_metrics(v) for k, v in metrics.items()}
    if isinstance(metrics, (list, tuple)):
        return [_plain_metrics(m) for m in metrics]
    return getattr(metrics, "__name__", None) or getattr(metrics, "name", None)


def _plain(obj):
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.floating):
        return float(str(obj))   # the float32's shortest repr (0.001), not its float64 widening
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def save_model(model, filepath):
    """Writes the model's architecture, compile arguments and weights to an HDF5 file."""
    from .weights_io import h5py_or_raise
    from .saving import _json_default, serialize
    h5py = h5py_or_raise("save_model() using h5 format requires h5py. Could not import h5py.")
    with h5py.File(filepath, "w") as f:
        f.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
        f.attrs["backend"] = "tensorflow".encode("utf8")
        f.attrs["model_config"] = json.dumps(serialize(model), default=_json_default) \
            .encode("utf8")
        if getattr(model, "optimizer", None) is not None:
            tc = _training_config(model)
            if tc is not None:
                f.attrs["training_config"] = json.dumps(tc, default=_json_default).encode("utf8")
        save_weights_to_group(f.create_group("model_weights"), model.layers)


def load_model(filepath, custom_objects=None, compile=True):  # noqa: A002
    """A model rebuilt from `save_model`'s file: new layers, the saved weights, compiled with the
    saved optimizer (fresh state), loss and metrics when `compile`."""
    from .weights_io import h5py_or_raise
    from .saving import model_from_config
    h5py = h5py_or_raise("`load_model()` using h5 format requires h5py. Could not import h5py.")
    with h5py.File(filepath, "r") as f:
        cfg = f.attrs.get("model_config")
        if cfg is None:
            raise ValueError(f"No model config found in the file at {filepath}.")
        cfg = json.loads(cfg.decode("utf8") if isinstance(cfg, bytes) else cfg)
        model = model_from_config(cfg, custom_objects=custom_objects)
        load_weights_from_group(f["model_weights"], model.layers)
        tc = f.attrs.get("training_config")
    if compile and tc is not None:
        from . import optimizers
        tc = json.loads(tc.decode("utf8") if isinstance(tc, bytes) else tc)
        opt = optimizers.deserialize(tc["optimizer_config"])
        loss = tc["loss"]
        if custom_objects and isinstance(loss, str) and loss in custom_objects:
            loss = custom_objects[loss]
        elif isinstance(loss, str):
            from . import losses
            loss = losses.get(loss)   # TF hands back the function (mean_squared_error)
        model.compile(optimizer=opt, loss=loss, metrics=tc.get("metrics"),
                      loss_weights=tc.get("loss_weights"))
    return model
