"""CPU kernels for normalization: LRN and LRNGrad, FusedBatchNormV3 and FusedBatchNormGradV3;
TopKV2 and InTopKV2.

LRN's channel-window sums are 2*depth_radius shifted adds along the channel axis (vectorized
over everything else). Fused batch norm works on (rows, channels) views of NHWC (NCHW is
transposed) and accumulates its statistics in float32 or better.
"""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

__all__ = []


def _window_sum(a, r):
    """s[..., c] = sum_{|k - c| <= r} a[..., k] (channels are the last axis)."""
    s = a.copy()
    c = a.shape[-1]
    for k in range(1, min(r, c - 1) + 1):
        s[..., k:] += a[..., :-k]
        s[..., :-k] += a[..., k:]
    return s


def _lrn_attrs(op):
    return (int(op._get_attr("depth_radius")), float(op._get_attr("bias")),
            float(op._get_attr("alpha")), float(op._get_attr("beta")))


def _pow_neg(n, beta):
    """n ** -beta, with the common exponents done without a general pow."""
    if beta == 0.75:
        r = np.sqrt(n)
        r *= np.sqrt(r)
        return np.reciprocal(r, out=r)
    if beta == 0.5:
        r = np.sqrt(n)
        return np.reciprocal(r, out=r)
    return np.power(n, -beta)


@register_kernel("LRN")
def _lrn(op, ctx):
    r, bias, alpha, beta = _lrn_attrs(op)

    def lrn(x):
        if x.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "input must be 4-dimensional")
        t = x.dtype.type
        n = _window_sum(x * x, r)
        n *= t(alpha)
        n += t(bias)
        scale = _pow_neg(n, beta)
        scale *= x
        return scale
    return lrn


@register_kernel("LRNGrad")
def _lrn_grad(op, ctx):
    r, bias, alpha, beta = _lrn_attrs(op)

    def lrn_grad(g, x, y):
        # y = x * N^-beta, N = bias + alpha * window(x^2):
        # dx = g * N^-beta - 2 alpha beta x * window(g * y / N)
        t = x.dtype.type
        n = _window_sum(x * x, r)
        n *= t(alpha)
        n += t(bias)
        u = g * y
        u /= n
        dx = _window_sum(u, r)
        dx *= x
        dx *= t(-2.0 * alpha * beta)
        p = _pow_neg(n, beta)
        p *= g
        dx += p
        return dx
    return lrn_grad


# -- fused batch norm --------------------------------------------------------------------------

def _rows(x, fmt):
    """(x as a C-contiguous (rows, C) array, function mapping a (rows, C) result back)."""
    if fmt == "NHWC" or x.ndim == 2:
        shape = x.shape
        return np.ascontiguousarray(x).reshape(-1, x.shape[-1]), lambda r: r.reshape(shape)
    xt = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    tshape = xt.shape
    return xt.reshape(-1, x.shape[1]), lambda r: np.ascontiguousarray(np.moveaxis(r.reshape(tshape), -1, 1))


@register_kernel("FusedBatchNormV3")
def _fused_batch_norm(op, ctx):
    eps = float(op._get_attr("epsilon"))
    fmt = op._get_attr("data_format")
    training = bool(op._get_attr("is_training"))
    factor = float(op._get_attr("exponential_avg_factor"))

    def fused_batch_norm(x, scale, offset, mean, var):
        x2, back = _rows(x, fmt)
        m, c = x2.shape
        if scale.shape != (c,) or offset.shape != (c,):
            raise errors.InvalidArgumentError(
                None, None, f"scale must have the same number of elements as the channels of x, got "
                            f"{scale.size} and {c}")
        u = scale.dtype
        t = u.type
        xu = x2.astype(u, copy=False)
        if training:
            # Statistics as sum / n (TF 2.21's oneDNN kernel's digits; its Eigen kernel would
            # multiply by a rounded 1 / n), then x_centered * (rsqrt(var + eps) * scale)
            bm = xu.mean(axis=0, dtype=u)
            centered = xu - bm
            bv = np.einsum("ij,ij->j", centered, centered) / t(max(m, 1))
            y = centered * (t(1.0) / np.sqrt(bv + t(eps)) * scale)
            y += offset
            adjust = t(m / (m - 1)) if m > 1 else t(0)
            if factor != 1.0 and mean.size:
                bm_out = t(1 - factor) * mean + t(factor) * bm
                bv_out = t(1 - factor) * var + (t(factor) * adjust) * bv
            else:
                bm_out, bv_out = bm, bv * adjust
            # reserve_space_1/2 are the batch mean and the biased batch variance
            return back(y.astype(x2.dtype, copy=False)), bm_out, bv_out, bm, bv, np.zeros(0, u)
        if mean.shape != (c,) or var.shape != (c,):
            raise errors.InvalidArgumentError(
                None, None, f"When is_training=false, mean and variance must have {c} elements, got "
                            f"{mean.size} and {var.size}")
        y = xu - mean
        y *= t(1.0) / np.sqrt(var + t(eps)) * scale
        y += offset
        return back(y.astype(x2.dtype, copy=False)), mean.copy(), var.copy(), mean.copy(), var.copy(), \
            np.zeros(0, u)
    return fused_batch_norm


@register_kernel("FusedBatchNormGradV3")
def _fused_batch_norm_grad(op, ctx):
    fmt = op._get_attr("data_format")
    training = bool(op._get_attr("is_training"))
    eps = float(op._get_attr("epsilon"))

    def fused_batch_norm_grad(dy, x, scale, mean, var, _reserved):
        # reserve_space_1/2 (mean, var) are the batch statistics when training, the population
        # ones otherwise; the formulas are TF's CPU functors (FusedBatchNormGrad / FreezeGrad).
        dy2, back = _rows(dy, fmt)
        x2, _ = _rows(x, fmt)
        u = scale.dtype
        t = u.type
        m = x2.shape[0]
        dyu = dy2.astype(u, copy=False)
        centered = x2.astype(u) - mean
        coef0 = t(1.0) / np.sqrt(var + t(eps))
        doffset = dyu.sum(axis=0)
        if training:
            dscale = (dyu * (centered * coef0)).sum(axis=0)
            dyc = dyu - doffset * (t(1.0) / t(max(m, 1)))
            ycm = (dyu * centered).sum(axis=0) / t(max(m, 1))
            centered *= coef0 * coef0 * ycm
            np.subtract(dyc, centered, out=dyc)
            dyc *= scale * coef0
            dx = dyc
        else:
            dscale = (dyu * centered).sum(axis=0) * coef0
            dx = dyu * (coef0 * scale)
        return back(dx.astype(x2.dtype, copy=False)), dscale, doffset, np.zeros(0, u), np.zeros(0, u)
    return fused_batch_norm_grad


# -- top_k / in_top_k ---------------------------------------------------------------------------

@register_kernel("TopKV2")
def _top_k(op, ctx):
    want_sorted = bool(op._get_attr("sorted"))
    index_dtype = op._attrs["index_type"].as_numpy_dtype if "index_type" in op._attrs else np.int32

    def top_k(x, k):
        if np.ndim(k) != 0:
            dims = ",".join(map(str, np.shape(k)))
            raise errors.InvalidArgumentError(None, None, f"k must be scalar, got shape [{dims}]")
        k = int(k)
        if x.ndim < 1:
            raise errors.InvalidArgumentError(None, None, "input must be >= 1-D, got shape []")
        n = x.shape[-1]
        if k < 0:
            raise errors.InvalidArgumentError(None, None, f"Need k >= 0, got {k}")
        if n < k:
            raise errors.InvalidArgumentError(None, None, f"input must have at least k columns. Had "
                                                          f"{n}, needed {k}")
        # Stable descending order: ties keep the lower index first, as TF does.
        # ~x reverses integer order exactly (float64 loses large int64/uint64 values)
        neg = np.invert(x) if x.dtype.kind in "ui" else -x
        if k < n // 4 and k > 0:
            part = np.argpartition(neg, k - 1, axis=-1)[..., :k]
            cand = np.take_along_axis(neg, part, axis=-1)
            # Ties at the k-th value may be resolved by argpartition arbitrarily: fall back then.
            kth = cand.max(axis=-1, keepdims=True)
            if np.any((neg == kth).sum(axis=-1) != (cand == kth).sum(axis=-1)):
                idx = np.argsort(neg, axis=-1, kind="stable")[..., :k]
            else:
                order = np.lexsort((part, cand), axis=-1)
                idx = np.take_along_axis(part, order, axis=-1)
        else:
            idx = np.argsort(neg, axis=-1, kind="stable")[..., :k]
        if not want_sorted and 1 < k < n:
            idx = _unsorted_top_k(neg, k)
        vals = np.take_along_axis(x, idx, axis=-1)
        return vals, idx.astype(index_dtype)
    return top_k


# TF's CPU TopKV2 with sorted=False (k neither 1 nor the row length) returns its gtl::TopN
# survivors in the order of that bounded heap: the first k + 1 columns made a heap (libstdc++'s
# std::make_heap), its worst popped; then each column better than the heap's worst replaces it
# (pop_heap, overwrite the last slot, push_heap). The heap below holds each column's rank in the
# stable descending order (lower is better), so the worst is the max and TF's comparator is `<`.

def _sift_up(h, hole, top, value):
    parent = (hole - 1) // 2
    while hole > top and h[parent] < value:
        h[hole] = h[parent]
        hole, parent = parent, (parent - 1) // 2
    h[hole] = value


def _adjust_heap(h, hole, n, value):
    top = child = hole
    while child < (n - 1) // 2:
        child = 2 * child + 2
        if h[child] < h[child - 1]:
            child -= 1
        h[hole] = h[child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * child + 1
        h[hole] = h[child]
        hole = child
    _sift_up(h, hole, top, value)


def _pop_heap(h, n):
    value, h[n - 1] = h[n - 1], h[0]
    _adjust_heap(h, 0, n - 1, value)


def _unsorted_top_k(neg, k):
    order = np.argsort(neg, axis=-1, kind="stable")
    rows = order.reshape(-1, order.shape[-1])
    out = np.empty((rows.shape[0], k), dtype=rows.dtype)
    for i, row in enumerate(rows):
        rank = np.empty_like(row)
        rank[row] = np.arange(row.size)
        h = rank[:k + 1].tolist()
        for p in range((k - 1) // 2, -1, -1):  # make_heap
            _adjust_heap(h, p, k + 1, h[p])
        _pop_heap(h, k + 1)
        h.pop()
        for r in rank[k + 1:].tolist():
            if r < h[0]:
                _pop_heap(h, k)
                h[k - 1] = r
                _sift_up(h, k - 1, 0, r)
        out[i] = row[h]
    return out.reshape(order.shape[:-1] + (k,))


@register_kernel("InTopKV2")
def _in_top_k(op, ctx):
    def in_top_k(predictions, targets, k):
        k = int(k)
        if predictions.ndim != 2:
            raise errors.InvalidArgumentError(None, None, "predictions must be 2-dimensional")
        n, c = predictions.shape
        if targets.shape != (n,):
            raise errors.InvalidArgumentError(
                None, None, f"First dimension of predictions {n} must match length of targets "
                            f"{targets.size}")
        t = targets.astype(np.int64)
        valid = (t >= 0) & (t < c)
        tc = np.where(valid, t, 0)
        tp = predictions[np.arange(n), tc]
        # TF's kernel "cannot say" (False) when the target's or any other prediction in the row
        # is not finite
        valid &= np.isfinite(tp) & np.isfinite(predictions).all(axis=1)
        greater = (predictions > tp[:, None]).sum(axis=1)
        return valid & (greater < k)
    return in_top_k
