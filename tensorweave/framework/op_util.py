"""Helpers shared by op constructors: making an op in the default graph, shape functions that
many ops share, and TF's argument checks."""

from .graph import Tensor, get_default_graph
from .tensor_shape import TensorShape, unknown_shape

__all__ = ["apply_op", "unchanged_shape", "broadcast_shapes", "broadcast_shape_fn", "scalar_shape",
           "unknown_shape_fn", "merge_shapes", "shape_str"]


def apply_op(op_type, inputs, out_dtypes, name, attrs=None, shapes=None):
    """Creates an op in the inputs' graph (else the default graph); returns its outputs
    (a single Tensor when it has exactly one output, the Operation when it has none)."""
    inputs = list(inputs)
    if not all(isinstance(t, Tensor) for t in inputs):
        inputs = _densified(inputs)
    g = get_default_graph()
    if inputs and not g._building_function:
        g = inputs[0].graph
    # (While tracing a function, ops go into the FuncGraph, which captures outer inputs.)
    op = g._create_op(op_type, list(inputs), list(out_dtypes), name=name, attrs=attrs, shapes=shapes)
    if len(op._outputs) == 1:
        return op._outputs[0]
    if not op._outputs:
        return op
    return list(op._outputs)


def check_allowed(param, dtype, allowed):
    """TF's op-builder TypeError when `dtype` is not among `allowed` (names, in TF's order)."""
    if allowed is not None and dtype.base_dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.base_dtype.name} not in "
                        f"list of allowed values: {', '.join(allowed)}")


def make_bool(value, arg):
    """A bool attr as TF's generated op wrappers take it: anything but a bool is a TypeError."""
    if not isinstance(value, bool):
        raise TypeError(f"Expected bool for argument '{arg}' not {value!r}.")
    return value


def make_int(value, arg):
    """An int attr as TF's generated op wrappers make it: int(value) (so 2.5 -> 2); strings and
    what int() refuses are a TypeError."""
    if isinstance(value, str):
        raise TypeError(f"Expected int for argument '{arg}' not {value!r}.")
    try:
        return int(value)
    except (ValueError, TypeError):
        raise TypeError(f"Expected int for argument '{arg}' not {value!r}.") from None


def typed_input(value, dtype, arg, op_type, name=None):
    """`value` as a tensor of the fixed input type `dtype` (an op input without a type attr):
    a tensor of another dtype is TF's op-builder TypeError."""
    from .constant_op import convert_to_tensor
    if isinstance(value, Tensor) and value.dtype.base_dtype != dtype:
        raise TypeError(f"Input '{arg}' of '{op_type}' Op has type {value.dtype.base_dtype.name} "
                        f"that does not match expected type of {dtype.name}.")
    return convert_to_tensor(value, dtype=dtype, name=name or arg)


def matching_input(value, like, arg, like_arg, op_type, name=None):
    """`value` as a tensor of `like`'s dtype (two inputs of one type attr): a tensor of another
    dtype is TF's op-builder TypeError."""
    from .constant_op import convert_to_tensor
    dt = like.dtype.base_dtype
    if isinstance(value, Tensor) and value.dtype.base_dtype != dt:
        raise TypeError(f"Input '{arg}' of '{op_type}' Op has type {value.dtype.base_dtype.name} that does "
                        f"not match type {dt.name} of argument '{like_arg}'.")
    return convert_to_tensor(value, dtype=dt, name=name or arg)


def _densified(inputs):
    """Inputs with IndexedSlices made dense, as TF's op wrappers do by converting every input:
    a gather's gradient reaching a gradient function that feeds it to an ordinary op (MatMul's,
    Tanh's) becomes an UnsortedSegmentSum there."""
    from .indexed_slices import IndexedSlices
    from .constant_op import convert_to_tensor
    return [convert_to_tensor(t) if isinstance(t, IndexedSlices) else t for t in inputs]


def unchanged_shape(op):
    """Shape function: every output has the shape of input 0."""
    return [op._inputs[0]._shape] * len(op._outputs)


def scalar_shape(op):
    return [TensorShape([])] * len(op._outputs)


def unknown_shape_fn(op):
    return [unknown_shape()] * len(op._outputs)


def broadcast_shapes(a, b):
    """The NumPy-style broadcast of two static shapes; ValueError if they cannot broadcast."""
    if a.ndims is None or b.ndims is None:
        return unknown_shape()
    da, db = a.as_list(), b.as_list()
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise ValueError(f"Dimensions must be equal, but are {x} and {y}")
    return TensorShape(out)


def broadcast_shape_fn(op):
    """Shape function for elementwise ops over any number of broadcasting inputs."""
    shape = op._inputs[0]._shape
    for t in op._inputs[1:]:
        shape = broadcast_shapes(shape, t._shape)
    return [shape] * len(op._outputs)


def shape_str(shape):
    """A static shape as TF's shape-inference messages print it: [2,?,3], or ? (unknown rank)."""
    if shape.ndims is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def merge_shapes(a, b):
    """TF's InferenceContext::Merge of two static shapes, with its messages (ValueError)."""
    if a.ndims is None:
        return b
    if b.ndims is None:
        return a
    if a.ndims != b.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}")
    out = []
    for i, (x, y) in enumerate(zip(a.as_list(), b.as_list())):
        if x is not None and y is not None and x != y:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and {y}. "
                             f"Shapes are {shape_str(a)} and {shape_str(b)}.")
        out.append(x if x is not None else y)
    return TensorShape(out)
