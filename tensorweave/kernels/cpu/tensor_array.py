"""CPU kernels for TensorArray ops: the flow's value is a `TensorArrayValue` (a Python list of
arrays, written in place: an element is written once per step, so a loop writing one element
per iteration costs O(1) per write)."""

import itertools

import numpy as np

from ...framework import dtypes as _dtypes
from ...framework import errors
from ..registry import register_kernel


class TensorArrayValue:
    """The runtime value of a TensorArray flow.

    As TF's TensorArray resource: `element_shape` is partial (None: unknown rank, None dims
    unknown) and, with `identical` (infer_shape), set by the first write; with `clear_after_read`
    an element read once cannot be read or written again. A gradient array has no `name`: it
    aggregates writes instead of refusing a second one."""

    __slots__ = ("items", "dynamic_size", "np_dtype", "element_shape", "name", "clear_after_read",
                 "identical", "cleared")

    def __init__(self, size, dynamic_size, np_dtype, element_shape=None, name=None, clear_after_read=False,
                 identical=False):
        self.items = [None] * int(size)
        self.dynamic_size = dynamic_size
        self.np_dtype = np_dtype
        self.element_shape = element_shape
        self.name = name
        self.clear_after_read = clear_after_read
        self.identical = identical
        self.cleared = set()

    def __len__(self):
        return len(self.items)

    def __add__(self, other):
        other = _unwrap(other)
        if not isinstance(other, TensorArrayValue):
            return self
        n = max(len(self.items), len(other.items))
        out = TensorArrayValue(n, True, self.np_dtype, self.element_shape or other.element_shape)
        for i in range(n):
            a = self.items[i] if i < len(self.items) else None
            b = other.items[i] if i < len(other.items) else None
            out.items[i] = a if b is None else (b if a is None else a + b)
        return out

    __radd__ = __add__

    def __repr__(self):
        return f"<TensorArray size={len(self.items)}>"


# TF names each array's resource "<tensor_array_name or op name>_<n>", n counting the arrays this
# process has created; the name starts its error messages.
_CREATED = itertools.count()


def _unwrap(x):
    if isinstance(x, np.ndarray) and x.dtype == object and x.ndim == 0:
        x = x[()]
    return x


def _ta(x):
    x = _unwrap(x)
    if not isinstance(x, TensorArrayValue):
        return TensorArrayValue(0, True, None)  # a zero gradient: nothing written
    return x


def _full(es):
    """The element shape as a tuple if fully defined, else None."""
    return tuple(es) if es is not None and None not in es else None


def _shape_str(es):
    return "<unknown>" if es is None else "[" + ",".join("?" if d is None else str(d) for d in es) + "]"


def _error(ta, msg):
    return errors.InvalidArgumentError(None, None, (f"TensorArray {ta.name}: " if ta.name else "") + msg)


def _index(ta, i, op_name):
    i = int(i)
    if i < 0 or (i >= len(ta.items) and not ta.dynamic_size):
        raise _error(ta, f"Tried to write to index {i} but array is not resizeable and size is: {len(ta.items)}")
    if i >= len(ta.items):
        ta.items.extend([None] * (i + 1 - len(ta.items)))
    return i


def _write_one(ta, index, value):
    """TF's LockedWrite: bounds, element shape (inferred from the first write), then the
    read-once and write-once rules."""
    i = _index(ta, index, "write")
    shape = np.shape(value)
    es = ta.element_shape
    if es is not None and (len(es) != len(shape) or any(d is not None and d != s for d, s in zip(es, shape))):
        raise _error(ta, f"Could not write to TensorArray index {i} because the value shape is "
                         f"{_shape_str(shape)} which is incompatible with the TensorArray's inferred element "
                         f"shape: {_shape_str(es)} (consider setting infer_shape=False).")
    if ta.identical and _full(es) is None:
        ta.element_shape = tuple(shape)
    if i in ta.cleared:
        raise _error(ta, f"Could not write to TensorArray index {i} because it has already been read.")
    if ta.name is not None and ta.items[i] is not None:
        raise _error(ta, f"Could not write to TensorArray index {i} because it has already been written to.")
    ta.items[i] = value


def _read_one(ta, i, reread=False):
    """TF's LockedRead: an unwritten element is zeros of a fully defined element shape. `reread`:
    a gradient's recomputation of a forward read (the cleared element is kept for it)."""
    if reread:
        return np.asarray(_elem(ta, i))
    if i in ta.cleared:
        raise _error(ta, f"Could not read index {i} twice because it was cleared after a previous read "
                         "(perhaps try setting clear_after_read = false?).")
    v = ta.items[i]
    if v is None:
        full = _full(ta.element_shape)
        if full is None:
            raise _error(ta, f"Could not read from TensorArray index {i}.  Furthermore, the element shape is not "
                             f"fully defined: {_shape_str(ta.element_shape)}.  It is possible you are working "
                             "with a resizeable TensorArray and stop_gradients is not allowing the gradients to "
                             "be written.  If you set the full element_shape property on the forward "
                             "TensorArray, the proper all-zeros tensor will be returned instead of incurring "
                             "this error.")
        v = np.zeros(full, ta.np_dtype)
    if ta.clear_after_read:
        ta.cleared.add(i)  # (as TF: an unwritten element read as zeros is cleared too)
    return np.asarray(v)


@register_kernel("TensorArrayV3")
def _create(op, ctx):
    dyn = op._get_attr("dynamic_size")
    np_dtype = op._get_attr("dtype").as_numpy_dtype
    es = op._get_attr("element_shape")
    es = tuple(es.as_list()) if es.ndims is not None else None
    clear = bool(op._attrs.get("clear_after_read", True))
    identical = bool(op._attrs.get("identical_element_shapes", False))
    base = op._attrs.get("tensor_array_name") or op.name

    def create(size):
        if size < 0:
            raise errors.InvalidArgumentError(None, None, "Size should be >= 0.")
        return TensorArrayValue(size, dyn, np_dtype, es, f"{base}_{next(_CREATED)}", clear, identical)
    return create


@register_kernel("TensorArrayIdentity")
def _identity(op, ctx):
    return _ta


def _check_value_dtype(ta, value_dtype):
    """TF's TensorArray write/scatter/split kernels: the value's dtype must be the array's."""
    ta_dtype = _dtypes.as_dtype(ta.np_dtype)
    if value_dtype != ta_dtype:
        raise errors.InvalidArgumentError(None, None, f"TensorArray dtype is {_dtypes.type_string(ta_dtype)} but Op "
                                                      f"is trying to write dtype {_dtypes.type_string(value_dtype)}.")


@register_kernel("TensorArrayWriteV3")
def _write(op, ctx):
    value_dtype = op._inputs[2].dtype.base_dtype

    def write(flow, index, value):
        ta = _ta(flow)
        _check_value_dtype(ta, value_dtype)
        _write_one(ta, index, value)
        return ta
    return write


def _elem(ta, i, like=None):
    v = ta.items[i] if 0 <= i < len(ta.items) else None
    if v is None:
        if like is not None:
            return np.zeros(np.shape(like), dtype=np.asarray(like).dtype)
        if _full(ta.element_shape) is not None:
            return np.zeros(_full(ta.element_shape), ta.np_dtype)
        raise errors.InvalidArgumentError(None, None, f"Could not read from TensorArray index {i} because it "
                                                      "has not yet been written to.")
    return v


@register_kernel("TensorArrayReadV3")
def _read(op, ctx):
    reread = bool(op._attrs.get("_reread"))

    def read(flow, index):
        ta = _ta(flow)
        i = int(index)
        if i < 0 or i >= len(ta.items):
            raise errors.InvalidArgumentError(None, None, f"Tried to read from index {i} but array size is: "
                                                          f"{len(ta.items)}")
        return _read_one(ta, i, reread)
    return read


def _stack(vals, np_dtype, es):
    if not vals:
        full = _full(es)
        if full is None:
            raise errors.UnimplementedError(None, None, f"TensorArray has size zero, but element shape "
                                                        f"{_shape_str(es)} is not fully defined. Currently only "
                                                        "static shapes are supported when packing zero-size "
                                                        "TensorArrays.")
        return np.zeros((0,) + full, np_dtype)
    first = np.shape(vals[0])
    for k, v in enumerate(vals[1:], 1):
        if np.shape(v) != first:
            raise errors.InvalidArgumentError(None, None, f"TensorArray has inconsistent shapes.  Index 0 has "
                                                          f"shape: {_shape_str(first)} but index {k} has shape: "
                                                          f"{_shape_str(np.shape(v))}")
    return np.stack([np.asarray(v) for v in vals])


@register_kernel("TensorArrayGatherV3")
def _gather(op, ctx):
    np_dtype = op._outputs[0].dtype.base_dtype.as_numpy_dtype
    reread = bool(op._attrs.get("_reread"))
    # TF's gather carries the element shape known when it was built (a loop body's writes may
    # have told it): a zero-size gather takes its shape from there.
    attr_es = op._attrs.get("element_shape")
    attr_es = tuple(attr_es.as_list()) if attr_es is not None and attr_es.ndims is not None else None

    def gather(flow, indices):
        ta = _ta(flow)
        n = len(ta.items)
        for i in np.ravel(indices):
            if i < 0 or i >= n:
                raise errors.InvalidArgumentError(None, None, f"Tried to read from index {i} but array size is: {n}")
        es = ta.element_shape if _full(ta.element_shape) is not None or attr_es is None else attr_es
        return _stack([_read_one(ta, int(i), reread) for i in np.ravel(indices)], np_dtype, es)
    return gather


@register_kernel("TensorArrayScatterV3")
def _scatter(op, ctx):
    value_dtype = op._inputs[2].dtype.base_dtype

    def scatter(flow, indices, value):
        ta = _ta(flow)
        _check_value_dtype(ta, value_dtype)
        value = np.asarray(value)
        if len(value) != len(np.ravel(indices)):
            raise errors.InvalidArgumentError(None, None, "Expected len(indices) == values.shape[0], but saw: "
                                                          f"{len(np.ravel(indices))} vs. {len(value)}")
        if not ta.dynamic_size and np.size(indices) and np.max(indices) >= len(ta.items):
            raise errors.InvalidArgumentError(None, None, f"Max scatter index must be < array size "
                                                          f"({np.max(indices)} vs. {len(ta.items)})")
        for k, i in enumerate(np.ravel(indices)):
            _write_one(ta, i, value[k])
        return ta
    return scatter


@register_kernel("TensorArrayConcatV3")
def _concat(op, ctx):
    np_dtype = op._outputs[0].dtype.base_dtype.as_numpy_dtype
    reread = bool(op._attrs.get("_reread"))

    def concat(flow):
        ta = _ta(flow)
        vals = [_read_one(ta, i, reread) for i in range(len(ta.items))]
        for k, v in enumerate(vals):
            if v.ndim == 0:
                raise errors.InvalidArgumentError(None, None, f"Concat saw a scalar shape at index {k} but requires "
                                                              "at least vectors.  Did you mean to call pack?")
            if v.shape[1:] != vals[0].shape[1:]:
                raise errors.InvalidArgumentError(
                    None, None, f"TensorArray has inconsistent shapes.  Index 0 has (excepting dimension 0) shape: "
                                f"{_shape_str(vals[0].shape[1:])} but index {k} has (excepting dimension 0) shape: "
                                f"{_shape_str(v.shape[1:])}")
        lengths = np.array([v.shape[0] for v in vals], np.int64)
        if not vals:
            return np.zeros((0,), np_dtype), lengths
        return np.concatenate(vals), lengths
    return concat


@register_kernel("TensorArraySplitV3")
def _split(op, ctx):
    value_dtype = op._inputs[1].dtype.base_dtype

    def split(flow, value, lengths):
        ta = _ta(flow)
        _check_value_dtype(ta, value_dtype)
        value = np.asarray(value)
        lengths = np.asarray(lengths)
        if value.ndim == 0:
            raise errors.InvalidArgumentError(None, None, "Expected value to be at least a vector, but received "
                                                          "shape: []")
        if lengths.sum() != len(value):
            raise errors.InvalidArgumentError(None, None, "Expected sum of lengths to be equal to values.shape[0], "
                                                          f"but sum of lengths is {lengths.sum()} and value's "
                                                          f"shape is: {list(value.shape)}")
        if not ta.dynamic_size and len(lengths) != len(ta.items):
            raise errors.InvalidArgumentError(None, None, f"TensorArray's size is not equal to the size of lengths "
                                                          f"({len(ta.items)} vs. {len(lengths)}), and the TensorArray "
                                                          "is not marked as dynamically resizeable")
        start = 0
        for i, n in enumerate(lengths):
            _write_one(ta, i, value[start:start + int(n)])
            start += int(n)
        return ta
    return split


@register_kernel("TensorArrayCloseV3")
def _close(op, ctx):
    def close(flow):
        return None
    return close


@register_kernel("TensorArraySizeV3")
def _size(op, ctx):
    def size(flow):
        return np.int32(len(_ta(flow).items))
    return size


# -- gradient helpers -------------------------------------------------------------------------

@register_kernel("TensorArrayGradWrite")
def _grad_write(op, ctx):
    def grad_write(flow, index, g):
        ta = _ta(flow)
        out = TensorArrayValue(max(len(ta.items), int(index) + 1), True, ta.np_dtype, _full(ta.element_shape))
        out.items[int(index)] = g
        return out
    return grad_write


@register_kernel("TensorArrayGradScatter")
def _grad_scatter(op, ctx):
    def grad_scatter(flow, indices, g):
        ta = _ta(flow)
        idx = np.ravel(indices)
        out = TensorArrayValue(max([len(ta.items)] + [int(i) + 1 for i in idx]), True, ta.np_dtype,
                               _full(ta.element_shape))
        g = np.asarray(g)
        for k, i in enumerate(idx):
            out.items[int(i)] = g[k]
        return out
    return grad_scatter


@register_kernel("TensorArrayGradSplit")
def _grad_split(op, ctx):
    def grad_split(flow, g, lengths):
        ta = _ta(flow)
        out = TensorArrayValue(len(lengths), True, ta.np_dtype, None)
        start = 0
        for i, n in enumerate(np.asarray(lengths)):
            out.items[i] = g[start:start + int(n)]
            start += int(n)
        return out
    return grad_split


@register_kernel("TensorArrayGradRead")
def _grad_read(op, ctx):
    def grad_read(flow, index, like):
        return np.asarray(_elem(_ta(flow), int(index), like))
    return grad_read


@register_kernel("TensorArrayGradGather")
def _grad_gather(op, ctx):
    def grad_gather(flow, indices, like):
        ta = _ta(flow)
        like = np.asarray(like)
        out = np.zeros_like(like)
        for k, i in enumerate(np.ravel(indices)):
            v = ta.items[int(i)] if int(i) < len(ta.items) else None
            if v is not None:
                out[k] = v
        return out
    return grad_gather


@register_kernel("TensorArrayGradConcat")
def _grad_concat(op, ctx):
    def grad_concat(flow, lengths, like):
        ta = _ta(flow)
        like = np.asarray(like)
        parts = []
        for i, n in enumerate(np.asarray(lengths)):
            v = ta.items[i] if i < len(ta.items) else None
            parts.append(np.zeros((int(n),) + like.shape[1:], like.dtype) if v is None else np.asarray(v))
        return np.concatenate(parts) if parts else np.zeros_like(like)
    return grad_concat
