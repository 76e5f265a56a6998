"""CPU kernels for the further SparseTensor ops (slice, fill_empty_rows, softmax, sparse
maximum/minimum, split, sparse-output reductions) and SparseMatMul."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .eigen_math import expf
from .sparse import _strictly_ordered


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _dims(v):
    return "[" + ",".join(str(int(d)) for d in np.asarray(v).reshape(-1)) + "]"


def _idx(indices, rank):
    return np.asarray(indices, np.int64).reshape(-1, rank)


@register_kernel("SparseSlice")
def _sparse_slice(op, ctx):
    def sparse_slice(indices, values, shape, start, size):
        shape = np.asarray(shape, np.int64).reshape(-1)
        start = np.asarray(start, np.int64).reshape(-1)
        size = np.asarray(size, np.int64).reshape(-1)
        rank = len(shape)
        if len(start) != rank:
            raise _invalid(f"Expected start to be a vector of length {rank} but got length {len(start)}")
        if len(size) != rank:
            raise _invalid(f"Expected size to be a vector of length {rank} but got length {len(size)}")
        idx = _idx(indices, rank)
        values = np.asarray(values)
        keep = np.all((idx >= start) & (idx < start + size), axis=1)
        out_shape = np.maximum(np.minimum(start + size, shape) - start, 0).astype(np.int64)
        return idx[keep] - start, values[keep], out_shape
    return sparse_slice


@register_kernel("SparseSliceGrad")
def _sparse_slice_grad(op, ctx):
    def sparse_slice_grad(grad, input_indices, input_start, output_indices):
        grad = np.asarray(grad)
        inp = np.asarray(input_indices, np.int64)
        start = np.asarray(input_start, np.int64).reshape(-1)
        out = np.asarray(output_indices, np.int64).reshape(-1, inp.shape[1] if inp.ndim == 2 else len(start))
        res = np.zeros(inp.shape[0], grad.dtype)
        pos = {tuple(r): k for k, r in enumerate(out + start)}
        for i, r in enumerate(inp):
            k = pos.get(tuple(r))
            if k is not None:
                res[i] = grad[k]
        return res
    return sparse_slice_grad


@register_kernel("SparseFillEmptyRows")
def _sparse_fill_empty_rows(op, ctx):
    def fill_empty_rows(indices, values, dense_shape, default_value):
        dense_shape = np.asarray(dense_shape, np.int64).reshape(-1)
        default_value = np.asarray(default_value)
        if default_value.ndim != 0:
            raise _invalid(f"default_value must be a scalar, saw: {_dims(default_value.shape)}")
        if dense_shape.size == 0:
            raise _invalid("Dense shape cannot be empty.")
        values = np.asarray(values)
        rank = len(dense_shape)
        idx = _idx(indices, rank)
        n_rows = int(dense_shape[0])
        rows = idx[:, 0]
        bad = (rows < 0) | (rows >= n_rows)
        if bad.any():
            i = int(np.argmax(bad))
            raise _invalid(f"indices({i}, 0) is invalid: {int(rows[i])} >= {n_rows}")
        counts = np.bincount(rows, minlength=n_rows)[:n_rows] if n_rows else np.zeros(0, np.int64)
        empty = counts == 0
        per_row = np.where(empty, 1, counts)
        ends = np.cumsum(per_row)
        starts = ends - per_row
        total = int(ends[-1]) if n_rows else 0
        out_idx = np.zeros((total, rank), np.int64)
        out_vals = np.empty(total, values.dtype)
        order = np.argsort(rows, kind="stable")
        rank_in_row = np.empty(len(rows), np.int64)
        if len(rows):
            sorted_rows = rows[order]
            first = np.searchsorted(sorted_rows, sorted_rows, side="left")
            rank_in_row[order] = np.arange(len(rows)) - first
        reverse = (starts[rows] + rank_in_row).astype(np.int64) if len(rows) else np.zeros(0, np.int64)
        out_idx[reverse] = idx
        out_vals[reverse] = values
        er = np.nonzero(empty)[0]
        out_idx[starts[er], 0] = er
        out_vals[starts[er]] = default_value
        return out_idx, out_vals, empty, reverse
    return fill_empty_rows


@register_kernel("SparseFillEmptyRowsGrad")
def _sparse_fill_empty_rows_grad(op, ctx):
    def fill_grad(reverse_index_map, grad_values):
        rev = np.asarray(reverse_index_map, np.int64)
        g = np.asarray(grad_values)
        d_values = g[rev]
        visited = np.zeros(len(g), bool)
        visited[rev] = True
        return d_values, np.asarray(g[~visited].sum(), g.dtype)
    return fill_grad


def _group_ids(keys):
    """Dense ids for the rows of `keys` (int matrix) and the unique rows, row-major sorted."""
    if keys.shape[1] == 0:
        return np.zeros(len(keys), np.int64), np.zeros((1 if len(keys) else 0, 0), np.int64)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    return inv.reshape(-1), uniq


@register_kernel("SparseSoftmax")
def _sparse_softmax(op, ctx):
    def sparse_softmax(indices, values, shape):
        shape = np.asarray(shape, np.int64).reshape(-1)
        if len(shape) < 2:
            raise _invalid("Input should have rank >= 2, but received shape: "  # TF's SummarizeValue
                           + " ".join(str(int(d)) for d in np.asarray(shape).reshape(-1)))
        values = np.asarray(values)
        idx = _idx(indices, len(shape))
        if len(values) != len(idx):
            raise _invalid(f"Expected values to be a vector of length {len(idx)}, got {len(values)}")
        if not len(idx):
            return values.copy()
        gid, uniq = _group_ids(idx[:, :-1])
        # TF's kernel: exp(v - max) (Eigen's exp for float32/half), times 1 / sum, per row
        wide = values.dtype == np.float64
        v = values if wide else values.astype(np.float32)
        mx = np.full(len(uniq), -np.inf, v.dtype)
        np.maximum.at(mx, gid, v)
        e = np.exp(v - mx[gid]) if wide else expf(v - mx[gid])
        s = np.zeros(len(uniq), v.dtype)
        np.add.at(s, gid, e)
        return (e * (v.dtype.type(1) / s)[gid]).astype(values.dtype)
    return sparse_softmax


def _union_walk(ai, av, bi, bv):
    """TF's UnionSparseIndicesAndValues: one row-major comparison walk over both operands; a
    side missing an index contributes 0."""
    out, a_out, b_out = [], [], []
    i = j = 0
    while i < len(ai) and j < len(bi):
        a, b = tuple(ai[i]), tuple(bi[j])
        if a < b:
            out.append(ai[i]), a_out.append(av[i]), b_out.append(0)
            i += 1
        elif a > b:
            out.append(bi[j]), a_out.append(0), b_out.append(bv[j])
            j += 1
        else:
            out.append(ai[i]), a_out.append(av[i]), b_out.append(bv[j])
            i += 1
            j += 1
    for k in range(i, len(ai)):
        out.append(ai[k]), a_out.append(av[k]), b_out.append(0)
    for k in range(j, len(bi)):
        out.append(bi[k]), a_out.append(0), b_out.append(bv[k])
    return (np.asarray(out, np.int64).reshape(-1, ai.shape[1]), np.asarray(a_out, av.dtype),
            np.asarray(b_out, av.dtype))


def _make_sparse_sparse(fn):
    def factory(op, ctx):
        def sparse_sparse(ai, av, ashape, bi, bv, bshape):
            ashape = np.asarray(ashape, np.int64).reshape(-1)
            bshape = np.asarray(bshape, np.int64).reshape(-1)
            # TF's SparseSparseBinaryOpShared: ranks first, then each dimension
            if len(ashape) != len(bshape):
                raise _invalid("Operands do not have the same ranks; got shapes: "
                               f"{' '.join(map(str, ashape))} and {' '.join(map(str, bshape))}")
            for d in range(len(ashape)):
                if ashape[d] != bshape[d]:
                    raise _invalid(f"Operands' shapes do not match: got {ashape[d]} and {bshape[d]} for dimension {d}")
            rank = len(ashape)
            ai, bi = _idx(ai, rank), _idx(bi, rank)
            av, bv = np.asarray(av), np.asarray(bv)
            both = np.concatenate([ai, bi])
            if not len(both):
                return both, av[:0]
            if not (_strictly_ordered(ai) and _strictly_ordered(bi)):
                # TF walks both operands once as given (it assumes row-major order), so
                # out-of-order entries come out where met, not sorted and merged
                idx, a_full, b_full = _union_walk(ai, av, bi, bv)
                return idx, fn(a_full, b_full).astype(av.dtype)
            gid, uniq = _group_ids(both)
            zero = np.zeros(len(uniq), av.dtype)
            a_full, b_full = zero.copy(), zero.copy()
            a_full[gid[:len(ai)]] = av
            b_full[gid[len(ai):]] = bv
            return uniq.astype(np.int64), fn(a_full, b_full).astype(av.dtype)
        return sparse_sparse
    return factory


register_kernel("SparseSparseMaximum")(_make_sparse_sparse(np.maximum))
register_kernel("SparseSparseMinimum")(_make_sparse_sparse(np.minimum))


@register_kernel("SparseSplit")
def _sparse_split(op, ctx):
    n = op._get_attr("num_split")

    def sparse_split(split_dim, indices, values, shape):
        shape = np.asarray(shape, np.int64).reshape(-1)
        rank = len(shape)
        d = int(split_dim)
        if not -rank <= d < rank:
            raise _invalid(f"Input split_dim should be between -{rank} and {rank}, got {d}")
        d %= rank
        dim = int(shape[d])
        if not 1 <= n <= max(dim, 1) or dim == 0 and n > 1:
            raise _invalid(f"Input num_split should be between 1 and the splitting dimension size ({dim}), got {n}")
        idx = _idx(indices, rank)
        values = np.asarray(values)
        size, extra = divmod(dim, n)
        sizes = [size + (1 if i < extra else 0) for i in range(n)]
        bounds = np.concatenate([[0], np.cumsum(sizes)])
        inds, vals, shapes = [], [], []
        for i in range(n):
            keep = (idx[:, d] >= bounds[i]) & (idx[:, d] < bounds[i + 1])
            piece = idx[keep].copy()
            piece[:, d] -= bounds[i]
            inds.append(piece)
            vals.append(values[keep])
            s = shape.copy()
            s[d] = sizes[i]
            shapes.append(s)
        return tuple(inds + vals + shapes)
    return sparse_split


def _make_reduce_sparse(kind):
    def factory(op, ctx):
        keep = op._get_attr("keep_dims")

        def reduce_sparse(indices, values, shape, axes):
            shape = np.asarray(shape, np.int64).reshape(-1)
            rank = len(shape)
            a = np.asarray(axes).reshape(-1)
            for x in a:
                if not -rank <= int(x) < rank:
                    raise _invalid(f"Invalid reduction dimension {int(x)}, for input with {rank} dimensions.")
            red = sorted({int(x) % rank for x in a})
            kept = [i for i in range(rank) if i not in red]
            idx = _idx(indices, rank)
            values = np.asarray(values)
            gid, uniq = _group_ids(idx[:, kept])
            if kind == "sum":
                out = np.zeros(len(uniq), values.dtype)
                np.add.at(out, gid, values)
            else:
                low = np.finfo(values.dtype).min if values.dtype.kind == "f" else np.iinfo(values.dtype).min
                out = np.full(len(uniq), -np.inf if values.dtype.kind == "f" else low, values.dtype)
                np.maximum.at(out, gid, values)
            if keep:
                out_idx = np.zeros((len(uniq), rank), np.int64)
                out_idx[:, kept] = uniq
                out_shape = np.where(np.isin(np.arange(rank), red), 1, shape).astype(np.int64)
            else:
                out_idx = uniq.astype(np.int64)
                out_shape = shape[kept].astype(np.int64)
            return out_idx, out, out_shape
        return reduce_sparse
    return factory


register_kernel("SparseReduceSumSparse")(_make_reduce_sparse("sum"))
register_kernel("SparseReduceMaxSparse")(_make_reduce_sparse("max"))


@register_kernel("SparseMatMul")
def _sparse_matmul(op, ctx):
    ta, tb = op._get_attr("transpose_a"), op._get_attr("transpose_b")

    def sparse_matmul(a, b):
        a = np.asarray(a, np.float32)
        b = np.asarray(b, np.float32)
        a = a.T if ta else a
        b = b.T if tb else b
        if a.shape[1] != b.shape[0]:
            raise _invalid(f"Matrix size-incompatible: In[0]: {_dims(a.shape)}, In[1]: {_dims(b.shape)}")
        return a @ b
    return sparse_matmul


def _make_sparse_dense_cwise(fn):
    """SparseDenseCwise{Mul,Div,Add}: the dense side broadcast to the sparse side (never the other
    way round, as TF's SparseDenseBinaryOpShared), read at each entry."""
    def kernel(op, ctx):
        def sparse_dense_cwise(indices, values, shape, dense):
            shape = np.asarray(shape, np.int64).reshape(-1)
            dense = np.asarray(dense)
            lhs, rhs = list(shape), list(dense.shape)
            ok = len(lhs) >= len(rhs) and all(a >= b and (b == 1 or a == b)
                                              for a, b in zip(reversed(lhs), reversed(rhs)))
            if not ok:
                raise _invalid("SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible "
                               f"shapes: {_dims(lhs)} vs. {_dims(rhs)}")
            idx = _idx(indices, len(shape))
            if idx.size and (np.any(idx < 0) or np.any(idx >= shape)):
                raise _invalid("Provided indices are out-of-bound w.r.t. dense side with broadcasted shape")
            full = np.broadcast_to(dense, tuple(int(d) for d in shape))
            values = np.asarray(values)
            with np.errstate(all="ignore"):
                return np.asarray(fn(values, full[tuple(idx.T)]), values.dtype)
        return sparse_dense_cwise
    return kernel


def _cwise_div(x, y):
    if np.issubdtype(x.dtype, np.integer):
        if np.any(y == 0):
            raise _invalid("Integer division by zero")
        q = np.abs(x) // np.abs(y)  # C++ division truncates toward zero
        return np.where((x < 0) != (y < 0), -q, q)
    return x / y


register_kernel("SparseDenseCwiseMul")(_make_sparse_dense_cwise(np.multiply))
register_kernel("SparseDenseCwiseDiv")(_make_sparse_dense_cwise(_cwise_div))
register_kernel("SparseDenseCwiseAdd")(_make_sparse_dense_cwise(np.add))
