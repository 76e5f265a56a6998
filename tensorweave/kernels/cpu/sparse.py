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
    validate = op.get_attr("validate_indices")

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
                what = "repeated" if d[k - 1] == 0 else "out of order"
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
        def sparse_segment(data, indices, segment_ids):
            data, indices, seg, n_out = _segment_setup(data, indices, segment_ids)
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
