"""Datasets on disk: `Dataset.save` / `Dataset.load` and `Dataset.snapshot`
(`tf.data.experimental.snapshot`).

`save(path)` builds a `SaveDataset` op; running it writes every element under `path`:
`dataset_spec.pb` (the element structure, written when the op is built, as TF does),
`snapshot.metadata` and a numbered folder holding the elements in `cache_file`'s format.
`load(path)` reads them back. Only tensorweave reads these files: the content is not TF's
snapshot format, though the layout and names are TF's.

`snapshot(path)` writes the elements of its first complete pass under `path/<fingerprint>` and
later passes (in any session or process) read them instead of running the input.
"""

import hashlib
import json
import os
import random

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.graph import Tensor
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import SparseTensorSpec, TensorSpec
from ..kernels.registry import register_kernel
from . import _runtime, cache_file
from .dataset_ops import DatasetV1

__all__ = ["save", "load", "snapshot", "LoadDataset", "SnapshotDataset"]

_SPEC = "dataset_spec.pb"
_METADATA = "snapshot.metadata"

registry.register_op("SaveDataset", stateful=True)
registry.no_gradient("SaveDataset")


# -- the element structure as JSON -----------------------------------------------------------------

def _encode(structure):
    if isinstance(structure, dict):
        return {"dict": [[k, _encode(v)] for k, v in structure.items()]}
    if isinstance(structure, tuple):
        return {"tuple": [_encode(v) for v in structure]}
    if isinstance(structure, list):
        return {"list": [_encode(v) for v in structure]}
    return int(structure)


def _decode(obj):
    if isinstance(obj, dict):
        if "dict" in obj:
            return {k: _decode(v) for k, v in obj["dict"]}
        if "tuple" in obj:
            return tuple(_decode(v) for v in obj["tuple"])
        return [_decode(v) for v in obj["list"]]
    return obj


def _spec_json(ds):
    return json.dumps({
        "structure": _encode(ds._structure), "types": [t.name for t in ds._types],
        "shapes": [s.as_list() if s.ndims is not None else None for s in ds._shapes],
        "sparse": [c is SparseTensor for c in ds._classes]})


def _read_spec(path):
    try:
        with open(os.path.join(path, _SPEC)) as f:
            obj = json.load(f)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"tf.data snapshot element_spec file not found: "
                                               f"{os.path.join(path, _SPEC)}.") from None
    return (_decode(obj["structure"]), [_dtypes.as_dtype(t) for t in obj["types"]],
            [TensorShape(s) for s in obj["shapes"]], [SparseTensor if s else Tensor for s in obj["sparse"]])


def _from_element_spec(spec):
    leaves = flatten(spec)
    for leaf in leaves:
        if not isinstance(leaf, (TensorSpec, SparseTensorSpec)):
            raise NotImplementedError(f"Dataset.load of a {type(leaf).__name__} component is not supported by "
                                      f"tensorweave yet")
    structure = pack_sequence_as(spec, list(range(len(leaves))))
    return (structure, [leaf.dtype for leaf in leaves], [leaf.shape for leaf in leaves],
            [SparseTensor if isinstance(leaf, SparseTensorSpec) else Tensor for leaf in leaves])


def _str(value):
    value = value.item() if hasattr(value, "item") else value
    return value.decode() if isinstance(value, bytes) else value


# -- save ----------------------------------------------------------------------------------------------

def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """An op that writes every element of `dataset` under `path` when run (TF1 graph mode)."""
    if shard_func is not None:
        raise NotImplementedError("Dataset.save(shard_func=...) is not supported by tensorweave yet")
    if checkpoint_args is not None:
        raise NotImplementedError("Dataset.save(checkpoint_args=...) is not supported by tensorweave yet")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, _SPEC), "w") as f:
        f.write(_spec_json(dataset))
    path_t = convert_to_tensor(path, dtype=_dtypes.string, name="path")
    caps = dataset.all_captures()
    return apply_op("SaveDataset", [path_t] + list(caps), [], "SaveDataset", attrs={"dataset": dataset})


@register_kernel("SaveDataset")
def _save_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    caps = dataset.all_captures()

    def save_dataset(path, *values):
        path = _str(path)
        run_dir = os.path.join(path, str(random.getrandbits(63)))
        os.makedirs(run_dir, exist_ok=True)
        writer = cache_file.Writer(os.path.join(run_dir, "00000000"))
        it = _runtime.whole_pipeline(dataset, dict(zip(caps, values)), ctx)
        try:
            for element in it:
                writer.add(element)
        except BaseException:
            writer.abandon()
            raise
        finally:
            it.close()
        writer.finish()
        with open(os.path.join(path, _METADATA), "w") as f:
            f.write(os.path.basename(run_dir))
    return save_dataset


# -- load ----------------------------------------------------------------------------------------------

def _latest_run(path):
    try:
        with open(os.path.join(path, _METADATA)) as f:
            return os.path.join(path, f.read().strip(), "00000000")
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"Could not find metadata file [{os.path.join(path, _METADATA)}]") \
            from None


class LoadDataset(DatasetV1):
    """The elements a `save` op wrote under `path`."""

    def __init__(self, path, element_spec=None):
        path = _str(path)
        self._path = path
        spec = _read_spec(path) if element_spec is None else _from_element_spec(element_spec)
        self._set_element(*spec)

    def _cardinality(self, valmap):
        with open(_latest_run(self._path) + ".index") as f:
            return int(f.read().strip() or 0)

    def _bind(self, valmap, rt):
        path, classes = self._path, self._classes

        def make():
            yield from cache_file.read(_latest_run(path), classes)
        return make


def load(path, element_spec=None, compression=None, reader_func=None):
    """The dataset `Dataset.save` wrote under `path`."""
    if reader_func is not None:
        raise NotImplementedError("Dataset.load(reader_func=...) is not supported by tensorweave yet")
    return LoadDataset(path, element_spec)


# -- snapshot ------------------------------------------------------------------------------------------

class SnapshotDataset(DatasetV1):
    """The input's elements; the first complete pass is written under `path/<fingerprint>` and
    later passes read it."""

    _tf_name = "_MapDataset"   # what TF 2.21's repr shows for a snapshot in graph mode

    def __init__(self, input_dataset, path):
        self._inputs = (input_dataset,)
        self._path = convert_to_tensor(path, dtype=_dtypes.string, name="path")
        self._captures = [self._path]
        self._preserve_cardinality = True
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)
        self._fingerprint = str(int(hashlib.sha1(_spec_json(input_dataset).encode()).hexdigest()[:15], 16))

    def _cardinality(self, valmap):
        from .cardinality import _cardinality
        return _cardinality(self._inputs[0], valmap)

    def _bind(self, valmap, rt):
        from .ordering_ops import CacheDataset
        base = os.path.join(_str(valmap[self._path]), self._fingerprint)
        os.makedirs(base, exist_ok=True)
        # The first complete pass is written as a file cache is (with its read-ahead at an early stop).
        return CacheDataset._file_cache(self, os.path.join(base, "00000000"), self._inputs[0]._bind(valmap, rt))


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """`dataset.apply(snapshot(path))`: the transformation form of `Dataset.snapshot`."""
    return lambda ds: _snapshot_method(ds, path, compression, reader_func, shard_func)


def _snapshot_method(self, path, compression="AUTO", reader_func=None, shard_func=None, checkpoint_args=None,
                     name=None):
    if reader_func is not None or shard_func is not None:
        raise NotImplementedError("Dataset.snapshot(reader_func/shard_func) is not supported by tensorweave yet")
    return SnapshotDataset(self, path)


def _save_method(self, path, compression=None, shard_func=None, checkpoint_args=None):
    return save(self, path, compression, shard_func, checkpoint_args)


def _load_method(path, element_spec=None, compression=None, reader_func=None, wait=False):
    return load(path, element_spec, compression, reader_func)


DatasetV1.save = _save_method
DatasetV1.load = staticmethod(_load_method)
DatasetV1.snapshot = _snapshot_method
