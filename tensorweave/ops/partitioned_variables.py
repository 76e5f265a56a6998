"""Partitioned variables: `tf.fixed_size_partitioner`, `tf.min_max_variable_partitioner`,
`tf.variable_axis_size_partitioner` and the `PartitionedVariable` that
`tf.get_variable(..., partitioner=...)` returns.

A partitioner is `fn(shape, dtype) -> [partitions per axis]` (only one axis may have more than
one partition). get_variable then makes one variable per shard, "<name>/part_<i>", the first
`size % n` shards one row longer (TF's split). Each shard is an ordinary variable, so
`replica_device_setter` puts consecutive shards on different ps tasks, and each shard carries a
`SaveSliceInfo` (its offset in the full variable).

A `PartitionedVariable` is iterable (its shards, in offset order); converting it to a tensor
concatenates the shards ("<name>/ConcatPartitions/concat", then an Identity named "<name>").
`tf.nn.embedding_lookup` takes it as its list of shards.
"""

import collections.abc
import math

from ..framework import dtypes as _dtypes
from ..framework.constant_op import register_tensor_conversion_function
from ..framework.graph import control_dependencies, name_scope
from ..framework.tensor_shape import TensorShape, dimension_value

__all__ = ["PartitionedVariable", "fixed_size_partitioner", "min_max_variable_partitioner",
           "variable_axis_size_partitioner"]


class SaveSliceInfo:
    """Where a shard sits in its full variable (TF's Variable.SaveSliceInfo)."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None):
        self.full_name = full_name
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)
        self.var_shape = list(var_shape)

    @property
    def spec(self):
        """TF's slice spec string: "<full shape> <offset>,<length>:..." (e.g. "10 4 4,3:0,4")."""
        full_shape_str = " ".join("%d" % d for d in self.full_shape) + " "
        sl_spec = ":".join("%d,%d" % (o, s) for o, s in zip(self.var_offset, self.var_shape))
        return full_shape_str + sl_spec

    def __repr__(self):
        return f"SaveSliceInfo({self.full_name!r}, {self.spec!r})"


class _PartitionInfo:
    """What an initializer gets as `partition_info`: the full shape and this shard's offset."""

    def __init__(self, full_shape, var_offset):
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)

    def single_offset(self, shape):
        dim = self.single_slice_dim(shape)
        return 0 if dim is None else self.var_offset[dim]

    def single_slice_dim(self, shape):
        for i, (full, part) in enumerate(zip(self.full_shape, shape)):
            if full != part:
                return i
        return None


# -- partitioners ------------------------------------------------------------------------------

def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16, max_shards=None):
    """Shards along `axis` so that each shard holds at most `max_shard_bytes` (at least one slice
    per shard; strings count `bytes_per_string_element` each), at most `max_shards` shards."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. Currently, "
                         "max_shard_bytes is %d andbytes_per_string_element is %d"
                         % (max_shard_bytes, bytes_per_string_element))
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        dtype = _dtypes.as_dtype(dtype)
        element_size = bytes_per_string_element if dtype.base_dtype == _dtypes.string else dtype.size
        partitions = [1] * shape.ndims
        axis_size = dimension_value(shape[axis])
        bytes_per_slice = 1.0 * (shape.num_elements() / axis_size) * element_size
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * axis_size / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10, bytes_per_string_element=16):
    """As many shards along `axis` as keep each at least `min_slice_size` bytes, at most
    `max_partitions` and at most the axis length."""
    def _partitioner(shape, dtype):
        if axis >= len(shape):
            raise ValueError(f"Can not partition variable along axis {axis} when shape is only {shape}")
        dtype = _dtypes.as_dtype(dtype)
        bytes_per_element = bytes_per_string_element if dtype.base_dtype == _dtypes.string else dtype.size
        total_size_bytes = shape.num_elements() * bytes_per_element
        partitions = total_size_bytes / min_slice_size
        partitions_list = [1] * len(shape)
        partitions_list[axis] = max(1, min(dimension_value(shape[axis]), max_partitions,
                                           int(math.ceil(partitions))))
        return partitions_list
    return _partitioner


def fixed_size_partitioner(num_shards, axis=0):
    """`num_shards` shards along `axis` (fewer when the axis is shorter)."""
    def _partitioner(shape, **unused_args):
        partitions_list = [1] * len(shape)
        partitions_list[axis] = min(num_shards, dimension_value(shape[axis]))
        return partitions_list
    return _partitioner


# -- the pieces get_variable uses --------------------------------------------------------------

def call_partitioner(partitioner, shape, dtype):
    """The partitioner's list for a new variable, checked like TF's _call_partitioner."""
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but instead was {shape}.")
    if shape.ndims < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, collections.abc.Sequence):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.ndims:
        raise ValueError(f"Partitioner returned a partition list that does not match the Variable's rank: "
                         f"{slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, partitioning: "
                         f"{slicing}")
    return list(slicing)


def slice_dim_and_num_slices(slicing):
    for slice_dim, num_slices in enumerate(slicing):
        if num_slices > 1:
            break
    else:
        slice_dim, num_slices = 0, 1
    for i in range(slice_dim + 1, len(slicing)):
        if slicing[i] > 1:
            raise ValueError(f"Can only slice a variable along one dimension: slicing: {slicing}, "
                             f"partitioned dimension: {slice_dim}")
    return slice_dim, num_slices


def iter_slices(full_shape, num_slices, slice_dim):
    """(offset, shape) of each shard: the first `size % n` shards are one longer (TF)."""
    num_slices_with_excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_slice_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = list(full_shape)
        shape[slice_dim] = min_slice_len + bool(i < num_slices_with_excess)
        yield list(offset), shape
        offset[slice_dim] += shape[slice_dim]


def partition_info(full_shape, var_offset):
    return _PartitionInfo(full_shape, var_offset)


# -- PartitionedVariable -----------------------------------------------------------------------

class PartitionedVariable:
    """A variable stored as shards (ordinary variables) along one axis."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        for v in variable_list:
            if getattr(v, "_save_slice_info", None) is None:
                raise ValueError(f"All variables must have a save_slice_info available: "
                                 f"{[v.name for v in variable_list]}")
            if len(shape) != len(partitions):
                raise ValueError(f"len(shape) != len(partitions): {shape} vs. {partitions}")
            if v._save_slice_info.full_shape != list(TensorShape(shape).as_list()):
                raise ValueError(f"All variables' full shapes must match shape: {shape}; but full shapes were: "
                                 f"{[v._save_slice_info.full_shape for v in variable_list]}")
        self._variable_list = sorted(variable_list, key=lambda v: v._save_slice_info.var_offset)
        self._name = name
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._partitions = list(partitions)
        self._as_tensor = None

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def __repr__(self):
        return (f"<tensorweave PartitionedVariable {self._name!r} shape={self._shape} "
                f"partitions={self._partitions}>")

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        from . import array_ops
        if len(self._variable_list) == 1:
            with name_scope(None):
                return array_ops.identity(self._variable_list[0], name=self._name)
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(f"Cannot concatenate along more than one dimension: {axes}. "
                                      "Multi-axis partition concat is not supported")
        with name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(self._variable_list, axes[0])
        with name_scope(None):
            return array_ops.identity(concatenated, name=self._name)

    def as_tensor(self):
        """The full value: the shards concatenated (ops made outside any control dependencies)."""
        with control_dependencies(None):
            return self._concat()

    @staticmethod
    def _TensorConversionFunction(v, dtype=None, name=None, as_ref=False):  # noqa: N802 - TF's name
        del name
        if dtype is not None and not _dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
            raise ValueError(f"Incompatible type conversion requested to type '{_dtypes.as_dtype(dtype).name}' "
                             f"for variable of type '{v.dtype.name}'")
        if as_ref:
            raise NotImplementedError("PartitionedVariable doesn't support being used as a reference.")
        return v.as_tensor()

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    graph = property(lambda self: self._variable_list[0].graph)

    def get_shape(self):
        return self._shape

    def _get_variable_list(self):
        return list(self._variable_list)

    def get_variable_list(self):
        """The shard variables, in offset order (TF spells this `_get_variable_list`)."""
        return list(self._variable_list)

    def _get_partitions(self):
        return list(self._partitions)

    def get_partitions(self):
        return list(self._partitions)

    def _apply_assign_fn(self, assign_fn, value):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(f"Cannot do assign action along more than one dimension: {axes}.  "
                                      "Multi-axis partition assign action is not supported ")
        if isinstance(value, list):
            if len(value) != len(self._variable_list):
                raise ValueError(f"Expected {len(self._variable_list)} values, got {len(value)}")
            value_list = value
        elif isinstance(value, PartitionedVariable):
            value_list = list(value)
        else:
            from . import array_ops
            ix = axes[0]
            sizes = [dimension_value(v.shape[ix]) for v in self._variable_list]
            value_list = array_ops.split(value, sizes, axis=ix)
        return [assign_fn(var, value_list[i]) for i, var in enumerate(self._variable_list)]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Assigns `value` (a full tensor, split along the partition axis, or a list per shard)."""
        out = self._apply_assign_fn(
            lambda var, v: var.assign(v, use_locking=use_locking, name=name, read_value=read_value), value)
        return out if read_value else [a.op if hasattr(a, "op") else a for a in out]


register_tensor_conversion_function(PartitionedVariable, PartitionedVariable._TensorConversionFunction)
