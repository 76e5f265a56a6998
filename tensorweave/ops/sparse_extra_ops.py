"""More SparseTensor ops: slice, transpose, fill_empty_rows, to_indicator, merge, softmax, maximum /
minimum, split, reset_shape, expand_dims, eye, the sparse-output reductions
(`sparse_reduce_sum_sparse` / `_max_sparse`), and `tf.sparse_matmul` (a dense MatMul taking
sparsity hints). Op types, output names and entry orders follow TF's: `SparseSlice` and
`SparseSplit` keep the input's entry order, `SparseFillEmptyRows` groups entries by row (input
order within a row), `SparseSparseMaximum` / the sparse reductions emit row-major order."""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from .sparse_ops import _sp, _with_static_shape, sparse_reorder, sparse_reduce_sum, sparse_tensor_to_dense

__all__ = ["sparse_slice", "sparse_transpose", "sparse_fill_empty_rows", "sparse_to_indicator", "sparse_merge",
           "sparse_softmax", "sparse_maximum", "sparse_minimum", "sparse_split", "sparse_reset_shape",
           "sparse_expand_dims", "sparse_eye", "sparse_reduce_sum_sparse", "sparse_reduce_max_sparse",
           "sparse_matmul"]


def _array():
    from . import array_ops
    return array_ops


def _math():
    from . import math_ops
    return math_ops


def _rank_of(op, idx_input=0, shape_input=2):
    ind, shp = op.inputs[idx_input].shape, op.inputs[shape_input].shape
    r = ind[1].value if ind.ndims == 2 else None
    if r is None and shp.ndims == 1:
        r = shp[0].value
    return r


# -- SparseSlice ---------------------------------------------------------------------------------

registry.register_op("SparseSlice", shape_fn=lambda op: [TensorShape([None, _rank_of(op)]), TensorShape([None]),
                                                         TensorShape([_rank_of(op)])])
registry.register_op("SparseSliceGrad", shape_fn=lambda op: [TensorShape([op.inputs[1].shape[0].value
                                                                          if op.inputs[1].shape.ndims == 2
                                                                          else None])])
registry.no_gradient("SparseSliceGrad")


@registry.register_gradient("SparseSlice")
def _sparse_slice_grad(op, *grads):
    """TF's: the sliced values' gradient scattered back to the input entries they came from."""
    t = grads[1].dtype.base_dtype
    val_grad = apply_op("SparseSliceGrad", [grads[1], op.inputs[0], op.inputs[3], op.outputs[0]], [t],
                        "SparseSliceGrad", attrs={"T": t})
    val_grad.set_shape(op.inputs[1].shape)
    return [None, val_grad, None, None, None]


def sparse_slice(sp_input, start, size, name=None):
    """The entries of `sp_input` inside the box [start, start + size), re-indexed from `start`;
    the output's dense shape is clipped to the input's."""
    sp_input = _sp(sp_input)
    start = convert_to_tensor(start, _dtypes.int64)
    size = convert_to_tensor(size, _dtypes.int64)
    with name_scope(name, "SparseSlice", [sp_input.indices, sp_input.values]) as scope:
        i, v, s = apply_op("SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape, start, size],
                           [_dtypes.int64, sp_input.dtype.base_dtype, _dtypes.int64], scope,
                           attrs={"T": sp_input.dtype.base_dtype})
        return SparseTensor(i, v, s)


# -- transpose, reset_shape, expand_dims, eye, merge, to_indicator (composites, as TF) -------------

def sparse_transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dimensions permuted by `perm` (reversed by default), reordered."""
    sp_input = _sp(sp_input)
    array_ops = _array()
    with name_scope(name, "SparseTranspose", [sp_input.indices, sp_input.values]):
        if perm is None:
            if sp_input.shape.ndims is not None:
                rank = sp_input.shape.ndims
                perm = (rank - 1) - np.arange(0, rank, 1)
            else:
                rank = array_ops.rank(sp_input.indices[0])
                perm = (rank - 1) - array_ops.range(0, rank, 1)
        transposed_indices = array_ops.transpose(array_ops.gather(array_ops.transpose(sp_input.indices), perm))
        perm_ = constant_value(convert_to_tensor(perm))
        if perm_ is not None and sp_input.shape.ndims is not None and sp_input.shape.is_fully_defined():
            old = sp_input.shape.as_list()
            new_shape = [old[int(p)] for p in np.asarray(perm_).reshape(-1)]
        else:
            new_shape = array_ops.gather(sp_input.dense_shape, perm)
        return sparse_reorder(SparseTensor(transposed_indices, sp_input.values, new_shape))


def sparse_reset_shape(sp_input, new_shape=None):
    """The same entries with dense shape `new_shape` (each dimension >= the old one), or, when
    None, the tightest shape holding the entries (max index + 1 per dimension)."""
    sp_input = _sp(sp_input)
    array_ops, math_ops = _array(), _math()
    in_indices = array_ops.identity(sp_input.indices)
    in_values = array_ops.identity(sp_input.values)
    in_shape = array_ops.identity(sp_input.dense_shape)
    if new_shape is None:
        dim_low_bound = math_ops.reduce_max(in_indices, axis=0)
        out = math_ops.maximum(array_ops.constant(0, dtype=_dtypes.int64),
                               math_ops.add(dim_low_bound, array_ops.ones_like(in_shape)))
    else:
        out = convert_to_tensor(new_shape)
        out.shape.with_rank(1)
        out = math_ops.cast(out, _dtypes.int64)
        if out.shape.ndims is not None:
            out.shape.dims[0].assert_is_compatible_with(in_shape.shape.dims[0])
        const = constant_value(out)
        if const is not None and sp_input.shape.ndims is not None and sp_input.shape.is_fully_defined():
            in_const = np.array(sp_input.shape.as_list())
            if not np.all(in_const <= const):
                # TF's message (its two values are printed the other way round).
                raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  Found "
                                 f"new_shape ({in_const}), sp_input.shape ({const}).")
            out = const
        else:
            from .control_flow_ops import with_dependencies
            from . import check_ops
            out = with_dependencies([check_ops.assert_equal(array_ops.shape(in_shape), array_ops.shape(out))],
                                    out)
            out = with_dependencies([check_ops.assert_less_equal(in_shape, out)], out)
    st = SparseTensor(in_indices, in_values, out)
    if new_shape is None and sp_input.shape.ndims is not None:
        # TF cannot see through the max-index computation: rank known, sizes not
        st._static_shape = TensorShape([None] * sp_input.shape.ndims)
    return st


def sparse_expand_dims(sp_input, axis=None, name=None):
    """Inserts a dimension of size 1 at `axis` (-1, the end, by default)."""
    sp_input = _sp(sp_input)
    array_ops = _array()
    rank = sp_input.dense_shape.shape[0].value if sp_input.dense_shape.shape.ndims == 1 else None
    rank_t = rank if rank is not None else array_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    static = None
    with name_scope(name, "expand_dims", [sp_input.indices, sp_input.values]):
        if isinstance(axis, (numbers.Integral, np.integer)) and not isinstance(axis, bool):
            if rank is not None:
                a = int(axis) if axis >= 0 else int(axis) + rank + 1
                static = TensorShape([1 if d == a else None for d in range(rank + 1)])
            axis = convert_to_tensor(int(axis), name="axis", dtype=_dtypes.int32)
        elif not isinstance(axis, Tensor):
            raise TypeError("axis must be an integer value in range [-rank(sp_input) - 1, rank(sp_input)]")
        axis = array_ops.where_v2(axis >= 0, axis, axis + rank_t + 1)
        column_size = array_ops.shape(sp_input.indices)[0]
        new_index = array_ops.zeros([column_size, 1], dtype=_dtypes.int64)
        indices_before = array_ops.slice(sp_input.indices, [0, 0], [-1, axis])
        indices_after = array_ops.slice(sp_input.indices, [0, axis], [-1, -1])
        indices = array_ops.concat([indices_before, new_index, indices_after], axis=1)
        shape_before = array_ops.slice(sp_input.dense_shape, [0], [axis])
        shape_after = array_ops.slice(sp_input.dense_shape, [axis], [-1])
        new_shape = convert_to_tensor([1], name="new_shape", dtype=_dtypes.int64)
        shape = array_ops.concat([shape_before, new_shape, shape_after], axis=0)
        if rank is not None:  # TF's shape inference sees through the constant axis
            indices.set_shape([sp_input.indices.shape[0].value if sp_input.indices.shape.ndims == 2 else None,
                               rank + 1])
            shape.set_shape([rank + 1])
        return _with_static_shape(SparseTensor(indices, sp_input.values, shape), static)


def _make_int64_tensor(value, name):
    if isinstance(value, (numbers.Integral, np.integer)):
        return convert_to_tensor(value, name=name, dtype=_dtypes.int64)
    if not isinstance(value, Tensor):
        raise TypeError(f"{name} must be an integer value")
    if value.dtype.base_dtype == _dtypes.int64:
        return value
    return _math().cast(value, _dtypes.int64)


def sparse_eye(num_rows, num_columns=None, dtype=_dtypes.float32, name=None):
    """A sparse [num_rows, num_columns] identity matrix (ones on the diagonal)."""
    array_ops, math_ops = _array(), _math()
    with name_scope(name, "eye"):
        num_rows = _make_int64_tensor(num_rows, "num_rows")
        num_columns = num_rows if num_columns is None else _make_int64_tensor(num_columns, "num_columns")
        diag_size = math_ops.minimum(num_rows, num_columns)
        diag_range = array_ops.range(diag_size, dtype=_dtypes.int64)
        st = SparseTensor(array_ops.stack([diag_range, diag_range], axis=1),
                          array_ops.ones(diag_size, dtype=dtype), [num_rows, num_columns])
        r, c = constant_value(num_rows), constant_value(num_columns)
        return _with_static_shape(st, TensorShape([None if r is None else int(r), None if c is None else int(c)]))


def _sparse_merge_impl(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    array_ops, math_ops = _array(), _math()
    if isinstance(sp_ids, SparseTensor) or type(sp_ids).__name__ == "SparseTensorValue":
        sp_ids = [sp_ids]
        if not isinstance(vocab_size, (Tensor, numbers.Integral)):
            raise TypeError(f"vocab_size has to be a Tensor or Python int. Found {type(vocab_size)}")
        vocab_size = [vocab_size]
    else:
        if not hasattr(sp_ids, "__iter__"):
            raise TypeError(f"sp_ids has to be a SparseTensor or list thereof. Found {type(sp_ids)}")
        if not hasattr(vocab_size, "__iter__"):
            raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(vocab_size)}")
        for dim in vocab_size:
            if not isinstance(dim, (Tensor, numbers.Integral)):
                raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(dim)}")
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name, "SparseMerge"):
        sp_ids = [_sp(x) for x in sp_ids]
        sp_values = _sp(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype.base_dtype != _dtypes.int64:
                ids_dim = math_ops.cast(ids_dim, _dtypes.int64)
            ids += [array_ops.expand_dims(ids_dim, axis=1)]
        vocab_size = [math_ops.cast(x, _dtypes.int64) for x in vocab_size]
        new_indices = array_ops.concat([sp_ids[0].indices[:, :-1]] + ids, 1)
        new_shape = array_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """Combines ids and values into one SparseTensor whose last dimension is indexed by the ids
    (`vocab_size` wide): entry [..., ids[k]] holds values[k]."""
    return _sparse_merge_impl(sp_ids, sp_values, vocab_size, name, already_sorted)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor [..., vocab_size]: True at [..., id] for each id in the last dimension's
    entries of `sp_input` (an int SparseTensor)."""
    sp_input = _sp(sp_input)
    array_ops = _array()
    with name_scope(name, "SparseToIndicator", [sp_input.indices, sp_input.values]) as scope:
        num_entries = array_ops.shape(sp_input.indices)[0]
        new_values = array_ops.fill(array_ops.expand_dims(num_entries, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = _sparse_merge_impl(sp_input, sp_values, vocab_size, scope)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False, name=scope)


# -- SparseFillEmptyRows -------------------------------------------------------------------------

def _fill_shape(op):
    default = op.inputs[3].shape
    if default.ndims is not None and default.ndims != 0:  # TF's WithRank(default_value, 0)
        raise ValueError(f"Shape must be rank 0 but is rank {default.ndims}")
    dense = constant_value(op.inputs[2])
    rows = int(np.asarray(dense).reshape(-1)[0]) if dense is not None and np.size(dense) else None
    n = op.inputs[1].shape[0].value if op.inputs[1].shape.ndims == 1 else None
    return [TensorShape([None, _rank_of(op)]), TensorShape([None]), TensorShape([rows]), TensorShape([n])]


registry.register_op("SparseFillEmptyRows", shape_fn=_fill_shape)
registry.register_op("SparseFillEmptyRowsGrad", shape_fn=lambda op: [op.inputs[0].shape, TensorShape([])])
registry.no_gradient("SparseFillEmptyRowsGrad")


@registry.register_gradient("SparseFillEmptyRows")
def _sparse_fill_empty_rows_grad(op, *grads):
    t = grads[1].dtype.base_dtype
    d_values, d_default = apply_op("SparseFillEmptyRowsGrad", [op.outputs[3], grads[1]], [t, t],
                                   "SparseFillEmptyRowsGrad", attrs={"T": t})
    return [None, d_values, None, d_default]


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """Adds an entry [row, 0, ...] = default_value for every empty row of `sp_input`; returns
    (the filled SparseTensor, a bool vector marking the rows that were empty)."""
    sp_input = _sp(sp_input)
    with name_scope(name, "SparseFillEmptyRows", [sp_input.indices, sp_input.values]):
        default_value = convert_to_tensor(default_value, dtype=sp_input.dtype.base_dtype)
        t = sp_input.dtype.base_dtype
        i, v, empty, _ = apply_op("SparseFillEmptyRows", [sp_input.indices, sp_input.values,
                                                          sp_input.dense_shape, default_value],
                                  [_dtypes.int64, t, _dtypes.bool, _dtypes.int64], "SparseFillEmptyRows",
                                  attrs={"T": t})
        return SparseTensor(i, v, sp_input.dense_shape), empty


# -- SparseSoftmax ----------------------------------------------------------------------------------

registry.register_op("SparseSoftmax", shape_fn=lambda op: [TensorShape([op.inputs[1].shape[0].value
                                                                        if op.inputs[1].shape.ndims == 1 else None])])


@registry.register_gradient("SparseSoftmax")
def _sparse_softmax_grad(op, grad):
    """TF's: grad_x = (grad - sum over the row of grad * softmax) * softmax, on the entries."""
    array_ops = _array()
    indices, shape = op.inputs[0], op.inputs[2]
    out_vals = op.outputs[0]
    sp_product = SparseTensor(indices, out_vals * grad, shape)
    sum_reduced = -sparse_reduce_sum(sp_product, [-1], keepdims=True)
    row_idx = array_ops.concat([indices[:, :-1], array_ops.zeros_like(indices[:, -1:])], 1)
    sp_sum = grad + array_ops.gather_nd(sum_reduced, row_idx)
    return [None, sp_sum * out_vals, None]


def sparse_softmax(sp_input, name=None):
    """Softmax over the last dimension of `sp_input`'s present entries (missing ones take no part);
    same indices and dense shape."""
    sp_input = _sp(sp_input)
    with name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]):
        t = sp_input.dtype.base_dtype
        if t not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
            raise TypeError(f"Value passed to parameter 'sp_values' has DataType {t.name} not in list of allowed "
                            "values: float16, float32, float64")
        out = apply_op("SparseSoftmax", [sp_input.indices, sp_input.values, sp_input.dense_shape], [t],
                       "SparseSoftmax", attrs={"T": t})
        return SparseTensor(sp_input.indices, out, sp_input.dense_shape)


# -- SparseSparseMaximum / Minimum ------------------------------------------------------------------

for _t in ("SparseSparseMaximum", "SparseSparseMinimum"):
    registry.register_op(_t, shape_fn=lambda op: [TensorShape([None, None]), TensorShape([None])])


def _broken_grad(name):
    # TF 2.21 registers these gradients with one argument too few: asking for one is a TypeError.
    def grad(op, *grads):
        raise TypeError(f"{name}() takes 2 positional arguments but {1 + len(grads)} were given")
    return grad


registry.register_gradient("SparseSparseMaximum")(_broken_grad("_SparseSparseMaximumGrad"))
registry.register_gradient("SparseSparseMinimum")(_broken_grad("_SparseSparseMinimumGrad"))


def _sparse_sparse(op_type, sp_a, sp_b, name):
    sp_a, sp_b = _sp(sp_a), _sp(sp_b)
    with name_scope(name, op_type, [sp_a.indices, sp_a.values, sp_b.indices, sp_b.values]) as scope:
        t = sp_a.dtype.base_dtype
        if sp_b.dtype.base_dtype != t:
            raise TypeError(f"Input 'b_values' of '{op_type}' Op has type {sp_b.dtype.base_dtype.name} that does "
                            f"not match type {t.name} of argument 'a_values'.")
        if t in (_dtypes.bool, _dtypes.string) or t.is_complex:
            raise TypeError(f"Value passed to parameter 'a_values' has DataType {t.name} not in list of allowed "
                            "values: real numeric types")
        i, v = apply_op(op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                                  sp_b.dense_shape], [_dtypes.int64, t], scope, attrs={"T": t})
    return SparseTensor(i, v, sp_a.dense_shape)


def sparse_maximum(sp_a, sp_b, name=None):
    """Element-wise max of two SparseTensors of one shape (absent entries count as 0); the
    result holds the union of their indices in row-major order."""
    return _sparse_sparse("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a, sp_b, name=None):
    """Element-wise min of two SparseTensors of one shape (absent entries count as 0)."""
    return _sparse_sparse("SparseSparseMinimum", sp_a, sp_b, name)


# -- SparseSplit ---------------------------------------------------------------------------------------

def _split_shape(op):
    n = op._get_attr("num_split")
    r = _rank_of(op, 1, 3)
    return [TensorShape([None, r])] * n + [TensorShape([None])] * n + [TensorShape([r])] * n


registry.register_op("SparseSplit", shape_fn=_split_shape)  # no gradient in TF (LookupError)


class _KeywordRequired:
    def __repr__(self):
        return "KeywordRequired()"


def sparse_split(keyword_required=_KeywordRequired(), sp_input=None, num_split=None, axis=None, name=None,
                 split_dim=None):
    """Splits `sp_input` along `axis` into `num_split` SparseTensors (the first dim % num_split
    pieces one wider). Keyword arguments only, as TF."""
    if not isinstance(keyword_required, _KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:        # (TF 2.21 asks for axis before it looks at the deprecated split_dim)
        raise ValueError("axis is required")
    if split_dim is not None:
        raise ValueError("Cannot specify both 'split_dim' and 'axis'.")
    sp_input = _sp(sp_input)
    num_split = int(num_split)
    if num_split < 1:
        raise ValueError(f"Attr 'num_split' of 'SparseSplit' Op passed {num_split} less than minimum 1.")
    axis = convert_to_tensor(axis, dtype=_dtypes.int64, name="split_dim")
    t = sp_input.dtype.base_dtype
    outs = apply_op("SparseSplit", [axis, sp_input.indices, sp_input.values, sp_input.dense_shape],
                    [_dtypes.int64] * num_split + [t] * num_split + [_dtypes.int64] * num_split,
                    name or "SparseSplit", attrs={"num_split": num_split, "T": t})
    outs = list(outs)
    return [SparseTensor(outs[i], outs[num_split + i], outs[2 * num_split + i]) for i in range(num_split)]


# -- SparseReduceSumSparse / SparseReduceMaxSparse -----------------------------------------------------

for _t in ("SparseReduceSumSparse", "SparseReduceMaxSparse"):
    registry.register_op(_t, shape_fn=lambda op: [unknown_shape()] * 3)  # no gradient in TF (LookupError)


def _reduce_sparse(op_type, sp_input, axis, keepdims, reduction_axes, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
    if axis is not None and reduction_axes is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_axes'.")
    keepdims = keep_dims if keepdims is None else keepdims
    axis = reduction_axes if axis is None else axis
    sp_input = _sp(sp_input)
    if axis is None:
        rank = sp_input.shape.ndims
        axes = convert_to_tensor(np.arange(rank, dtype=np.int32)) if rank is not None else \
            _array().range(0, _array().size(sp_input.dense_shape))
    else:
        axes = convert_to_tensor(axis, dtype=_dtypes.int32, name="reduction_axes")
    t = sp_input.dtype.base_dtype
    i, v, s = apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape, axes],
                       [_dtypes.int64, t, _dtypes.int64], op_type, attrs={"keep_dims": bool(keepdims), "T": t})
    return SparseTensor(i, v, s)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Sum of `sp_input` over `axis` as a SparseTensor: one entry per group of present entries."""
    return _reduce_sparse("SparseReduceSumSparse", sp_input, axis, keepdims, reduction_axes, keep_dims)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Max of `sp_input`'s present entries over `axis` as a SparseTensor."""
    return _reduce_sparse("SparseReduceMaxSparse", sp_input, axis, keepdims, reduction_axes, keep_dims)


# -- SparseMatMul (tf.sparse_matmul: dense matrices with sparsity hints) ---------------------------

def _sparse_matmul_shape(op):
    a, b = op.inputs[0].shape, op.inputs[1].shape
    ta, tb = op._get_attr("transpose_a"), op._get_attr("transpose_b")
    a.with_rank(2)
    b.with_rank(2)
    m = a[1 if ta else 0].value if a.ndims == 2 else None
    n = b[0 if tb else 1].value if b.ndims == 2 else None
    if a.ndims == 2 and b.ndims == 2:
        ka, kb = a[0 if ta else 1].value, b[1 if tb else 0].value
        if ka is not None and kb is not None and ka != kb:
            raise ValueError(f"Dimensions must be equal, but are {ka} and {kb}")
    return [TensorShape([m, n])]


registry.register_op("SparseMatMul", shape_fn=_sparse_matmul_shape)


@registry.register_gradient("SparseMatMul")
def _sparse_matmul_grad(op, grad):
    """TF's: MatMul gradients (TF's math_ops.matmul drops the sparsity hints: plain MatMul ops)."""
    t_a, t_b = op._get_attr("transpose_a"), op._get_attr("transpose_b")
    a, b = op.inputs
    da, db = a.dtype.base_dtype, b.dtype.base_dtype

    def mm(x, y, out, transpose_a=False, transpose_b=False):
        if transpose_b:
            y = _array().transpose(y)
        prod = _math().matmul(x, y, transpose_a=transpose_a)
        return prod if prod.dtype.base_dtype == out else _math().cast(prod, out)
    if not t_a and not t_b:
        return [mm(grad, b, da, transpose_b=True), mm(a, grad, db, transpose_a=True)]
    if not t_a and t_b:
        return [mm(grad, b, da), mm(grad, a, db, transpose_a=True)]
    if t_a and not t_b:
        return [mm(b, grad, da, transpose_b=True), mm(a, grad, db)]
    return [mm(b, grad, da, transpose_a=True, transpose_b=True),
            mm(grad, a, db, transpose_a=True, transpose_b=True)]


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b (float32 or bfloat16 matrices, optionally transposed); the sparsity hints only choose
    TF's algorithm, the values are MatMul's."""
    a = convert_to_tensor(a, name="a", preferred_dtype=_dtypes.float32)
    b = convert_to_tensor(b, name="b", preferred_dtype=_dtypes.float32)
    for arg, t in (("a", a), ("b", b)):
        if t.dtype.base_dtype not in (_dtypes.float32, _dtypes.bfloat16):
            raise TypeError(f"Value passed to parameter '{arg}' has DataType {t.dtype.base_dtype.name} not in "
                            "list of allowed values: float32, bfloat16")
    return apply_op("SparseMatMul", [a, b], [_dtypes.float32], name or "SparseMatMul",
                    attrs={"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b),
                           "a_is_sparse": bool(a_is_sparse), "b_is_sparse": bool(b_is_sparse),
                           "Ta": a.dtype.base_dtype, "Tb": b.dtype.base_dtype})


# -- SparseTensor (*, /) dense: SparseDenseCwiseMul / Div / Add --------------------------------

for _op_type in ("SparseDenseCwiseMul", "SparseDenseCwiseDiv", "SparseDenseCwiseAdd"):
    registry.register_op(_op_type, shape_fn=lambda op: [TensorShape([op.inputs[1].shape[0].value
                                                                     if op.inputs[1].shape.ndims == 1 else None])])
registry.no_gradient("SparseDenseCwiseAdd")  # TF registers none (LookupError)


def _sparse_dense_cwise_mul_or_div_grad(op, grad, is_mul):
    """TF's _SparseDenseCwiseMulOrDivGrad: dx from the dense values gathered at the entries
    (through the broadcast); dy the per-entry products scattered back into y's shape."""
    array_ops, math_ops = _array(), _math()
    from .sparse_ops import sparse_add
    x_indices, x_values, x_shape, y = op.inputs
    y_shape = math_ops.cast(array_ops.shape(y), _dtypes.int64)
    num_added_dims = array_ops.expand_dims(array_ops.size(x_shape) - array_ops.size(y_shape), 0)
    augmented_y_shape = array_ops.concat([array_ops.ones(num_added_dims, _dtypes.int64), y_shape], 0)
    scaling = x_shape // augmented_y_shape
    scaled_indices = x_indices // scaling
    scaled_indices = array_ops.slice(scaled_indices, array_ops.concat([[0], num_added_dims], 0), [-1, -1])
    dense_vals = array_ops.gather_nd(y, scaled_indices)
    if is_mul:
        dx = grad * dense_vals
        dy_val = grad * x_values
    else:
        dx = grad / dense_vals
        dy_val = grad * (-x_values / math_ops.square(dense_vals))
    dy = sparse_add(array_ops.zeros_like(y), SparseTensor(scaled_indices, dy_val, y_shape))
    return [None, dx, None, dy]


registry.register_gradient("SparseDenseCwiseMul")(lambda op, grad: _sparse_dense_cwise_mul_or_div_grad(op, grad, True))
registry.register_gradient("SparseDenseCwiseDiv")(lambda op, grad: _sparse_dense_cwise_mul_or_div_grad(op, grad, False))


def _sparse_dense_cwise(op_type, sp_indices, sp_values, sp_shape, dense, name):
    t = sp_values.dtype.base_dtype
    return apply_op(op_type, [sp_indices, sp_values, sp_shape, dense], [t], name, attrs={"T": t})


# Python 3 true division casts integer operands to float first, as TF's _sparse_dense_truediv.
_TRUEDIV_TABLE = {_dtypes.uint8: _dtypes.float32, _dtypes.int8: _dtypes.float32, _dtypes.uint16: _dtypes.float32,
                  _dtypes.int16: _dtypes.float32, _dtypes.int32: _dtypes.float64, _dtypes.int64: _dtypes.float64}


def _sparse_dense_truediv(sp_indices, sp_values, sp_shape, y, name):
    math_ops = _math()
    with name_scope(name, "truediv", [sp_indices, sp_values, sp_shape, y]) as name:
        sp_values = convert_to_tensor(sp_values, name="sp_values")
        y = convert_to_tensor(y, name="y")
        x_dtype, y_dtype = sp_values.dtype.base_dtype, y.dtype.base_dtype
        if x_dtype != y_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x_dtype!r} != {y_dtype!r}.")
        dtype = _TRUEDIV_TABLE.get(x_dtype)
        if dtype is not None:
            sp_values, y = math_ops.cast(sp_values, dtype), math_ops.cast(y, dtype)
        return _sparse_dense_cwise("SparseDenseCwiseDiv", sp_indices, sp_values, sp_shape, y, name)


def _sparse_binary_operator(op_name, func):
    """SparseTensor.__<op_name>__(dense), as TF's math_ops installs it: the result keeps the
    input's indices and dense shape; its values come from one op named `op_name`."""
    def binary_op_wrapper_sparse(sp_x, y):
        with name_scope(None, op_name, [sp_x, y]) as name:
            y = convert_to_tensor(y, dtype=sp_x.dtype.base_dtype, name="y")
            return SparseTensor(sp_x.indices, func(sp_x.indices, sp_x.values, sp_x.dense_shape, y, name),
                                sp_x.dense_shape)
    binary_op_wrapper_sparse.__name__ = f"__{op_name}__"
    return binary_op_wrapper_sparse


SparseTensor.__mul__ = _sparse_binary_operator(
    "mul", lambda i, v, s, y, name: _sparse_dense_cwise("SparseDenseCwiseMul", i, v, s, y, name))
SparseTensor.__div__ = _sparse_binary_operator(
    "div", lambda i, v, s, y, name: _sparse_dense_cwise("SparseDenseCwiseDiv", i, v, s, y, name))
SparseTensor.__truediv__ = _sparse_binary_operator("truediv", _sparse_dense_truediv)
