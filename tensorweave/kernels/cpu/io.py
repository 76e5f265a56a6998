"""CPU kernels for checkpoint I/O: SaveV2 writes a one-shard bundle, RestoreV2 reads and verifies
tensors, MergeV2Checkpoints merges per-device bundles, ShardedFilename builds names
(StringJoin is a string kernel).

The file format lives in train/checkpoint_format.py (imported when a plan is compiled)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

_TF_NAMES = {"float32": "float", "float64": "double"}


def _fmt():
    from ...train import checkpoint_format
    return checkpoint_format


def _str(x):
    x = np.asarray(x, dtype=object)
    if x.ndim != 0:
        if x.size != 1:
            raise errors.InvalidArgumentError(None, None, f"Input prefix should be a scalar, got shape "
                                                          f"{list(x.shape)}")
        x = x.reshape(())
    v = x[()]
    return v.decode() if isinstance(v, bytes) else str(v)


def _strs(x):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in np.asarray(x, dtype=object).ravel()]


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_slices(slices, names):
    for s, n in zip(slices, names):
        if s:
            raise errors.UnimplementedError(None, None, f"Saving or restoring a slice of {n} "
                                                        f"(shape_and_slices {s!r}) is not supported yet")


@register_kernel("SaveV2")
def _save_v2(op, ctx):
    fmt = _fmt()

    def save_v2(prefix, tensor_names, shape_and_slices, *tensors):
        names = _strs(tensor_names)
        if len(names) != len(tensors):
            raise errors.InvalidArgumentError(None, None, f"Got {len(names)} tensor names but {len(tensors)} "
                                                          f"tensors")
        _check_slices(_strs(shape_and_slices), names)
        fmt.write_bundle(_str(prefix), names, [np.asarray(t) for t in tensors])
    return save_v2


@register_kernel("RestoreV2")
def _restore_v2(op, ctx):
    fmt = _fmt()
    dtypes = op.get_attr("dtypes")
    shapes = op._attrs.get("_output_shapes")
    want = [None if s is None or not s.is_fully_defined() else tuple(s.as_list()) for s in shapes] \
        if shapes else [None] * len(dtypes)

    def restore_v2(prefix, tensor_names, shape_and_slices):
        names = _strs(tensor_names)
        _check_slices(_strs(shape_and_slices), names)
        reader = fmt.BundleReader(_str(prefix))
        # Check every key, dtype and shape before reading any data, then read and verify all.
        for name, dt, shape in zip(names, dtypes, want):
            if not reader.has(name):
                raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
            got = reader.dtype(name)
            if got != dt:
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; expected dtype {_TF_NAMES.get(dt.name, dt.name)} does "
                                f"not equal original dtype {_TF_NAMES.get(got.name, got.name)}")
            stored = tuple(reader.shape(name))
            if shape is not None and stored != shape:
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; shape in shape_and_slice spec {_dims(shape)} does not "
                                f"match the shape stored in checkpoint: {_dims(stored)}")
        values = [reader.read(n) for n in names]
        return values[0] if len(values) == 1 else tuple(values)
    return restore_v2


@register_kernel("MergeV2Checkpoints")
def _merge_v2(op, ctx):
    fmt = _fmt()
    delete_old_dirs = op.get_attr("delete_old_dirs")

    def merge(checkpoint_prefixes, destination_prefix):
        fmt.merge_bundles(_strs(checkpoint_prefixes), _str(destination_prefix), delete_old_dirs)
    return merge


@register_kernel("ShardedFilename")
def _sharded_filename(op, ctx):
    def sharded_filename(basename, shard, num_shards):
        return np.array("%s-%05d-of-%05d" % (_str(basename), int(shard), int(num_shards)), dtype=object)
    return sharded_filename
