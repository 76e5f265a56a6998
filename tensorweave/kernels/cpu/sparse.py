"""CPU kernels for sparse ops: SparseToDense and the sparse segment reductions (and their
gradients)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _dims(v):
    return "[" + ",".join(str(int(d)) for d in np.asarray(v).reshape(-1)) + "]"


@register_kernel("SparseToDense")
def _sparse_to_dense(op, ctx):
    validate = op._get_attr("validate_indices")

    def sparse_to_dense(indices, output_shape, values, default_value):
        indices = np.asarray(indices)
        shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
        if indices.ndim > 2:
            raise _invalid(f"sparse_indices should be a scalar, vector, or matrix, got shape "
                           f"{_dims(indices.shape)}")
        idx = indices.reshape(-1, 1) if indices.ndim < 2 else indices
        if len(shape) == 0 and idx.shape[1] == 1 and indices.ndim < 2:
            idx = idx.reshape(-1, 0) if idx.size == 0 else idx
        n = idx.shape[0]
        if idx.shape[1] != len(shape):
            raise _invalid(f"sparse_indices.shape[1] ({idx.shape[1]}) must equal output_shape.size "
                           f"({len(shape)})")
        values = np.asarray(values)
        if values.ndim not in (0,) and values.shape != (n,):
            raise _invalid(f"sparse_values has incorrect shape {_dims(values.shape)}, should be [] or [{n}]")
        default_value = np.asarray(default_value)
        if default_value.ndim != 0:
            raise _invalid("default_value should be a scalar.")
        out = np.full(shape, default_value, dtype=values.dtype)
        if n == 0:
            return out
        bad = (idx < 0) | (idx >= np.array(shape, dtype=np.int64))
        if bad.any():
            k = int(np.nonzero(bad.any(axis=1))[0][0])
            raise _invalid(f"indices[{k}] = {_dims(idx[k])} is out of bounds: need 0 <= index < {_dims(shape)}")
        if validate and n > 1:
            flat = np.ravel_multi_index(tuple(idx.T), shape) if shape else np.zeros(n, np.int64)
            d = np.diff(flat)
            if (d <= 0).any():
                k = int(np.nonzero(d <= 0)[0][0]) + 1
                what = "repeated" if d[k - 1] == 0 else "out of order. Many sparse ops require sorted indices."
                raise _invalid(f"indices[{k}] = {_dims(idx[k])} is {what}")
        out[tuple(idx.T)] = values
        return out
    return sparse_to_dense


def _segment_setup(data, indices, segment_ids):
    data = np.asarray(data)
    indices = np.asarray(indices).reshape(-1)
    seg = np.asarray(segment_ids).reshape(-1)
    if indices.shape[0] != seg.shape[0]:
        raise _invalid("segment_ids and indices should have same size.")
    if seg.size and (seg[0] < 0 or (np.diff(seg) < 0).any()):
        raise _invalid("segment ids are not increasing")
    rows = data.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        k = int(np.nonzero((indices < 0) | (indices >= rows))[0][0])
        raise _invalid(f"Bad: indices[{k}] == {int(indices[k])} out of range [0, {rows})")
    n_out = int(seg[-1]) + 1 if seg.size else 0
    return data, indices, seg, n_out


def _segment_sum(data, indices, seg, n_out):
    out = np.zeros((n_out,) + data.shape[1:], dtype=data.dtype)
    np.add.at(out, seg, data[indices])
    return out


def _counts(seg, n):
    return np.bincount(seg, minlength=n)[:n]


_SCALE = {"sum": None, "mean": lambda c: c, "sqrtn": np.sqrt}


def _make_sparse_segment(kind):
    scale_fn = _SCALE[kind]

    def factory(op, ctx):
        def sparse_segment(data, indices, segment_ids, num_segments=None):
            data, indices, seg, n_out = _segment_setup(data, indices, segment_ids)
            if num_segments is not None:
                n = int(num_segments)
                if n_out > n:
                    raise _invalid(f"segment ids must be < num_segments, got {n_out - 1} >= {n}")
                n_out = n
            out = _segment_sum(data, indices, seg, n_out)
            if scale_fn is not None and n_out:
                c = np.maximum(_counts(seg, n_out), 1).astype(data.dtype)
                if kind == "mean":
                    out /= c.reshape((-1,) + (1,) * (data.ndim - 1))
                else:  # TF multiplies by 1/sqrt(n)
                    out *= (1 / np.sqrt(c)).astype(data.dtype).reshape((-1,) + (1,) * (data.ndim - 1))
            return out
        return sparse_segment
    return factory


register_kernel("SparseSegmentSum")(_make_sparse_segment("sum"))
register_kernel("SparseSegmentMean")(_make_sparse_segment("mean"))
register_kernel("SparseSegmentSqrtN")(_make_sparse_segment("sqrtn"))
register_kernel("SparseSegmentSumWithNumSegments")(_make_sparse_segment("sum"))
register_kernel("SparseSegmentMeanWithNumSegments")(_make_sparse_segment("mean"))
register_kernel("SparseSegmentSqrtNWithNumSegments")(_make_sparse_segment("sqrtn"))


def _make_segment_grad(kind):
    scale_fn = _SCALE[kind]

    def factory(op, ctx):
        def sparse_segment_grad(grad, indices, segment_ids, output_dim0):
            grad = np.asarray(grad)
            indices = np.asarray(indices).reshape(-1)
            seg = np.asarray(segment_ids).reshape(-1)
            n0 = int(output_dim0)
            out = np.zeros((n0,) + grad.shape[1:], dtype=grad.dtype)
            if not seg.size:
                return out
            if indices.min() < 0 or indices.max() >= n0:
                raise _invalid(f"Index {int(indices.max())} out of range [0, {n0}).")
            if seg.max() >= grad.shape[0]:
                raise _invalid(f"Segment id {int(seg.max())} out of range [0, {grad.shape[0]}).")
            c = scale_fn(np.maximum(_counts(seg, grad.shape[0]), 1).astype(grad.dtype))
            rows = grad[seg] / c[seg].reshape((-1,) + (1,) * (grad.ndim - 1))
            np.add.at(out, indices, rows)
            return out
        return sparse_segment_grad
    return factory


register_kernel("SparseSegmentMeanGrad")(_make_segment_grad("mean"))
register_kernel("SparseSegmentSqrtNGrad")(_make_segment_grad("sqrtn"))


# -- SparseTensor arithmetic ----------------------------------------------------------------------

def _to_dense(indices, values, shape, fill=0):
    out = np.full(tuple(int(d) for d in shape), fill, dtype=np.asarray(values).dtype)
    idx = np.asarray(indices, np.int64)
    if idx.size:
        for k, d in enumerate(shape):
            if np.any(idx[:, k] < 0) or np.any(idx[:, k] >= d):
                raise _invalid(f"indices[{int(np.argmax((idx[:, k] < 0) | (idx[:, k] >= d)))}] = "
                               f"{_dims(idx[int(np.argmax((idx[:, k] < 0) | (idx[:, k] >= d)))])} is out of bounds: "
                               f"need 0 <= index < {_dims(shape)}")
        out[tuple(idx.T)] = values
    return out


def _axes(axes, rank):
    a = np.asarray(axes).reshape(-1)
    if a.size == 0:
        return tuple(range(rank))
    for x in a:
        if not -rank <= int(x) < rank:
            raise _invalid(f"Invalid reduction dimension {int(x)}, for input with {rank} dimensions.")
    return tuple(sorted({int(x) % rank for x in a}))


@register_kernel("SparseReduceSum")
def _sparse_reduce_sum(op, ctx):
    keep = op._get_attr("keep_dims")

    def reduce_sum(indices, values, shape, axes):
        dense = _to_dense(indices, values, shape)
        return np.asarray(dense.sum(axis=_axes(axes, len(shape)), keepdims=keep), dtype=dense.dtype)
    return reduce_sum


@register_kernel("SparseReduceMax")
def _sparse_reduce_max(op, ctx):
    keep = op._get_attr("keep_dims")

    def reduce_max(indices, values, shape, axes):
        values = np.asarray(values)
        low = np.finfo(values.dtype).min if values.dtype.kind == "f" else np.iinfo(values.dtype).min
        dense = _to_dense(indices, values, shape, fill=low)
        axes = _axes(axes, len(shape))
        out = dense.max(axis=axes, keepdims=keep)
        # TF zero-fills its output and reduces only the groups that have entries
        present = _to_dense(indices, np.ones(len(values), bool), shape).any(axis=axes, keepdims=keep)
        return np.asarray(np.where(present, out, 0), dtype=values.dtype)
    return reduce_max


def _canonical(indices, values, shape):
    idx = np.asarray(indices, np.int64).reshape(-1, len(shape))
    if len(idx) == 0:
        return idx, np.asarray(values)
    order = np.lexsort(idx.T[::-1])
    return idx[order], np.asarray(values)[order]


@register_kernel("SparseReorder")
def _sparse_reorder(op, ctx):
    def reorder(indices, values, shape):
        return _canonical(indices, values, shape)
    return reorder


def _strictly_ordered(idx):
    """Whether the rows of `idx` are in strictly increasing row-major order."""
    if len(idx) < 2:
        return True
    d = idx[1:] - idx[:-1]
    first = np.argmax(d != 0, axis=1)  # the first differing dimension of each neighbouring pair
    return bool(np.all(d[np.arange(len(d)), first] > 0))


def _merge_walk(ai, av, bi, bv, thresh):
    """TF's SparseAdd merge of operands that are not in canonical order: one walk over both,
    comparing row-major; equal indices are summed (and thresholded), the rest copied as met."""
    out_i, out_v = [], []
    i = j = 0
    while i < len(ai) and j < len(bi):
        a, b = tuple(ai[i]), tuple(bi[j])
        if a < b:
            out_i.append(ai[i]), out_v.append(av[i])
            i += 1
        elif a > b:
            out_i.append(bi[j]), out_v.append(bv[j])
            j += 1
        else:
            s = av[i] + bv[j]
            if thresh <= abs(s):
                out_i.append(ai[i]), out_v.append(s)
            i += 1
            j += 1
    out_i += list(ai[i:]) + list(bi[j:])
    out_v += list(av[i:]) + list(bv[j:])
    rank = ai.shape[1]
    return (np.asarray(out_i, np.int64).reshape(-1, rank), np.asarray(out_v, dtype=np.result_type(av, bv)))


@register_kernel("SparseAdd")
def _sparse_add(op, ctx):
    def sparse_add(ai, av, ashape, bi, bv, bshape, thresh):
        if list(ashape) != list(bshape):
            raise _invalid(f"Operands' shapes do not match: A.shape = {_dims(ashape)} vs. B.shape = "
                           f"{_dims(bshape)}")
        rank = len(ashape)
        idx = np.concatenate([np.asarray(ai, np.int64).reshape(-1, rank), np.asarray(bi, np.int64).reshape(-1, rank)])
        vals = np.concatenate([np.asarray(av), np.asarray(bv)])
        if len(idx) == 0:
            return idx, vals, np.asarray(ashape, np.int64)
        ai, bi = idx[:len(idx) - len(np.asarray(bv))], idx[len(idx) - len(np.asarray(bv)):]
        if not (_strictly_ordered(ai) and _strictly_ordered(bi)):
            return _merge_walk(ai, np.asarray(av), bi, np.asarray(bv), thresh) + (np.asarray(ashape, np.int64),)
        order = np.lexsort(idx.T[::-1])
        idx, vals = idx[order], vals[order]
        uniq, inv = np.unique(idx, axis=0, return_inverse=True)
        sums = np.zeros(len(uniq), vals.dtype)
        np.add.at(sums, inv.reshape(-1), vals)
        # TF thresholds only the entries present in both operands; the others are copied.
        counts = np.bincount(inv.reshape(-1), minlength=len(uniq))
        keep = (counts == 1) | (np.abs(sums) >= thresh)
        return uniq[keep], sums[keep], np.asarray(ashape, np.int64)
    return sparse_add


@register_kernel("SparseAddGrad")
def _sparse_add_grad(op, ctx):
    """The sum's value gradients routed back to the entries of A and B (0 where an entry was
    dropped by the threshold)."""
    def sparse_add_grad(grad, a_indices, b_indices, sum_indices):
        grad = np.asarray(grad)
        where = {tuple(ix): k for k, ix in enumerate(np.asarray(sum_indices).tolist())}

        def route(indices):
            pos = [where.get(tuple(ix), -1) for ix in np.asarray(indices).tolist()]
            out = np.zeros((len(pos),), grad.dtype)
            for j, k in enumerate(pos):
                if k >= 0:
                    out[j] = grad[k]
            return out
        return route(a_indices), route(b_indices)
    return sparse_add_grad


@register_kernel("SparseTensorDenseAdd")
def _sparse_dense_add(op, ctx):
    def add(ai, av, ashape, b):
        out = np.array(b, copy=True)
        if list(out.shape) != [int(d) for d in ashape]:
            raise _invalid(f"Dimensions of operands do not match: shape(a) = {_dims(ashape)}, shape(b) = "
                           f"{_dims(out.shape)}")
        idx = np.asarray(ai, np.int64)
        if idx.size:
            np.add.at(out, tuple(idx.T), np.asarray(av, out.dtype))
        return out
    return add


@register_kernel("SparseConcat")
def _sparse_concat(op, ctx):
    n = op._get_attr("N")
    axis = op._get_attr("concat_dim")

    def concat(*args):
        inds, vals, shapes = args[:n], args[n:2 * n], [np.asarray(s, np.int64) for s in args[2 * n:]]
        rank = len(shapes[0])
        ax = axis % rank
        # TF's SparseConcatOp checks rank, then each non-concat dimension, per input in order
        for pos, s in enumerate(shapes[1:], 1):
            if len(s) != rank:
                raise _invalid(f"Ranks of all input tensors must match: expected {rank} but got {len(s)} "
                               f"at position {pos}")
            for d in range(rank):
                if d != ax and s[d] != shapes[0][d]:
                    raise _invalid(f"Input shapes must match: expected {shapes[0][d]} for dimension {d} "
                                   f"but got {s[d]} at position {pos}")
        out_shape = shapes[0].copy()
        out_shape[ax] = sum(int(s[ax]) for s in shapes)
        parts, offset = [], 0
        for i, s in zip(inds, shapes):
            i = np.array(i, np.int64).reshape(-1, rank)
            i[:, ax] += offset
            offset += int(s[ax])
            parts.append(i)
        idx = np.concatenate(parts)
        v = np.concatenate([np.asarray(x) for x in vals])
        idx, v = _canonical(idx, v, out_shape)
        return idx, v, out_shape
    return concat


@register_kernel("SparseReshape")
def _sparse_reshape(op, ctx):
    def reshape(indices, shape, new_shape):
        shape = np.asarray(shape, np.int64)
        new = np.array(new_shape, np.int64)
        total = int(np.prod(shape))
        if (new == -1).sum() > 1:
            raise _invalid("only one output dimension may be -1, not both")
        if (new == -1).any():
            known = int(np.prod(new[new != -1]))
            if known == 0 or total % known:
                raise _invalid(f"Input to reshape is a SparseTensor with {total} dense values, but the requested "
                               f"shape requires a multiple of {known}. input_shape={_dims(shape)} "
                               f"output_shape={_dims(np.where(new == -1, 1, new))}")  # TF holds -1 as 1 here
            new[new == -1] = total // known
        if int(np.prod(new)) != total:
            raise _invalid(f"Input to reshape is a tensor with {total} dense values, but the requested shape has "
                           f"{int(np.prod(new))}. input_shape={_dims(shape)} output_shape={_dims(new)}")
        idx = np.asarray(indices, np.int64).reshape(-1, len(shape))
        flat = np.ravel_multi_index(tuple(idx.T), tuple(shape)) if len(idx) else np.zeros(0, np.int64)
        out = np.stack(np.unravel_index(flat, tuple(new)), axis=1).astype(np.int64) if len(idx) else \
            np.zeros((0, len(new)), np.int64)
        return out, new
    return reshape


@register_kernel("SparseTensorDenseMatMul")
def _sparse_dense_matmul(op, ctx):
    adj_a, adj_b = op._get_attr("adjoint_a"), op._get_attr("adjoint_b")

    def matmul(indices, values, shape, b):
        b = np.asarray(b)
        # TF's SparseTensorDenseMatMulOp checks, in this order
        if b.ndim != 2:
            raise _invalid("Tensor 'b' is not a matrix")
        if np.ndim(shape) != 1:
            raise _invalid("Tensor 'a_shape' is not a vector")
        if np.size(shape) != 2:
            raise _invalid("Tensor 'a_shape' must have 2 elements")
        if np.ndim(values) != 1:
            raise _invalid("Tensor 'a_values' is not a vector")
        if np.ndim(indices) != 2:
            raise _invalid("Tensor 'a_indices' is not a matrix")
        if np.shape(indices)[0] != np.size(values):
            raise _invalid("Number of rows of a_indices does not match number of entries in a_values")
        if np.shape(indices)[1] != np.size(shape):
            raise _invalid("Number of columns of a_indices does not match number of entries in a_shape")
        if adj_b:
            b = b.conj().T
        idx = np.asarray(indices, np.int64).reshape(-1, 2)
        rows, cols = (idx[:, 1], idx[:, 0]) if adj_a else (idx[:, 0], idx[:, 1])
        n_rows = int(shape[1] if adj_a else shape[0])
        n_inner = int(shape[0] if adj_a else shape[1])
        if n_inner != b.shape[0]:
            raise _invalid(f"Cannot multiply A and B because inner dimension does not match: {n_inner} vs. "
                           f"{b.shape[0]}.  Did you forget a transpose?  "
                           f"Dimensions of A: [{int(shape[0])}, {int(shape[1])}).  "
                           f"Dimensions of B: {_dims(b.shape)}")
        # TF's functor checks each entry in order, k (the inner index) before m (the row)
        k_col, m_col = (0, 1) if adj_a else (1, 0)
        for e in range(len(idx)):
            if not 0 <= cols[e] < n_inner:
                raise _invalid(f"k ({cols[e]}) from index[{e},{k_col}] out of bounds (>={n_inner})")
            if not 0 <= rows[e] < n_rows:
                raise _invalid(f"m ({rows[e]}) from index[{e},{m_col}] out of bounds (>={n_rows})")
        vals = np.asarray(values)
        if adj_a:
            vals = vals.conj()
        out = np.zeros((n_rows, b.shape[1]), dtype=b.dtype)
        if len(idx):
            np.add.at(out, rows, vals[:, None].astype(b.dtype) * b[cols])
        return out
    return matmul
