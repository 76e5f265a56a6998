"""CPU kernels for 3-D convolution and pooling: Conv3D, Conv3DBackpropInputV2,
Conv3DBackpropFilterV2, MaxPool3D, MaxPool3DGrad, MaxPool3DGradGrad, AvgPool3D, AvgPool3DGrad.

The 2-D kernels' recipe (kernels/cpu/conv.py, kernels/cpu/pooling.py) over three spatial dims,
with their helpers (scratch pool, batch chunking, TF's padding geometry, -inf / sum reductions):

* Conv3D is im2col + BLAS: the patches are a strided view of the padded NDHWC input, shape
  (N, OD, OH, OW, KD, KH, KW*C) when the width dilation is 1 (a kernel row's KW*C values are
  contiguous), copied into a pooled scratch matrix a few volumes at a time and multiplied by the
  (KD*KH*KW*C, O) filter while the chunk is in cache. 1x1x1 stride-1 convolutions are one matmul.
* Conv3DBackpropFilterV2 re-gathers the patches chunk by chunk and accumulates cols^T @ dy.
* Conv3DBackpropInputV2 with stride 1 (and enough input channels) is the forward convolution of
  the padded dy with the spatially flipped, channel-transposed filter; otherwise dy @ W^T then
  col2im, one strided slab add per kernel tap (KD*KH*KW of them), chunked by batch.
* Pooling is separable (over depth, then rows, then columns: KD + KH + KW strided-view passes).
  Average pooling divides by the number of real (unpadded) elements, as TF. MaxPool3DGrad follows
  TF's CPU kernel: *every* element within 1e-5 of its window's maximum gets the window's
  gradient (not only the first maximum, as the 2-D MaxPoolGrad does); MaxPool3DGradGrad takes
  each window's first maximum.

NCDHW inputs are transposed to NDHWC and back. SAME pads max((out-1)*stride + (k-1)*dilation + 1
- in, 0), the extra element at the end.
"""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...framework import errors
from ..registry import register_kernel
from .conv import _for_slices, _out_and_pads, _shape_str, accumulate, scratch
from .parallel import matmul
from .pooling import _lowest, _max_of, _select_into

__all__ = ["conv3d_ndhwc", "conv3d_backprop_input_ndhwc", "conv3d_backprop_filter_ndhwc"]


# -- geometry and padding ----------------------------------------------------------------------

def geometry3(spatial, ks, strides, dilations, padding):
    """(outs, pads) for three spatial sizes; padding "SAME", "VALID" or three (lo, hi) pairs."""
    outs, pads = [], []
    for i in range(3):
        if isinstance(padding, str):
            o, lo, hi = _out_and_pads(spatial[i], ks[i], strides[i], dilations[i], padding, None)
        else:
            o, lo, hi = _out_and_pads(spatial[i], ks[i], strides[i], dilations[i], "EXPLICIT",
                                      padding[i])
        outs.append(o)
        pads.append((lo, hi))
    return tuple(outs), tuple(pads)


def _no_padding(pads):
    return not any(lo or hi for lo, hi in pads)


def pad_ndhwc(x, pads, value=0, pool=None):
    """x padded spatially (NDHWC) -> (array, scratch buffer or None); x itself when no padding."""
    if _no_padding(pads):
        return x, None
    n, d, h, w, c = x.shape
    (d0, d1), (h0, h1), (w0, w1) = pads
    shape = (n, d + d0 + d1, h + h0 + h1, w + w0 + w1, c)
    if pool is not None:
        out, buf = pool.acquire(shape, x.dtype)
    else:
        out, buf = np.empty(shape, x.dtype), None
    # Only the border is filled, then the interior: one pass over the data.
    if d0:
        out[:, :d0] = value
    if d1:
        out[:, shape[1] - d1:] = value
    if h0:
        out[:, :, :h0] = value
    if h1:
        out[:, :, shape[2] - h1:] = value
    if w0:
        out[:, :, :, :w0] = value
    if w1:
        out[:, :, :, shape[3] - w1:] = value
    out[:, d0:d0 + d, h0:h0 + h, w0:w0 + w] = x
    return out, buf


def _crop(xp_, spatial, pads):
    if _no_padding(pads):
        return xp_
    (d0, _), (h0, _), (w0, _) = pads
    d, h, w = spatial
    return np.ascontiguousarray(xp_[:, d0:d0 + d, h0:h0 + h, w0:w0 + w])


def _tap_slices(ks, outs, strides, dilations=(1, 1, 1)):
    """Yields ((a, b, c), index) per kernel tap: index picks that tap's strided slab of the padded
    input, (N, OD, OH, OW, C)."""
    for a in range(ks[0]):
        for b in range(ks[1]):
            for c in range(ks[2]):
                sl = tuple(slice(t * dl, t * dl + (o - 1) * s + 1, s)
                           for t, dl, o, s in zip((a, b, c), dilations, outs, strides))
                yield (a, b, c), (slice(None),) + sl


def _im2col_into(cols, xp_, ks, outs, strides, dilations):
    """Fill `cols` (N, OD, OH, OW, KD, KH, KW*C) with the patches of padded, contiguous `xp_`;
    returns the 2-D (N*OD*OH*OW, KD*KH*KW*C) view."""
    n, c = xp_.shape[0], xp_.shape[4]
    kd, kh, kw = ks
    od, oh, ow = outs
    s0, s1, s2, s3, s4 = xp_.strides
    if dilations[2] == 1:
        view = as_strided(xp_, (n, od, oh, ow, kd, kh, kw * c),
                          (s0, s1 * strides[0], s2 * strides[1], s3 * strides[2],
                           s1 * dilations[0], s2 * dilations[1], s4), writeable=False)
        np.copyto(cols, view)
    else:
        view = as_strided(xp_, (n, od, oh, ow, kd, kh, kw, c),
                          (s0, s1 * strides[0], s2 * strides[1], s3 * strides[2],
                           s1 * dilations[0], s2 * dilations[1], s3 * dilations[2], s4),
                          writeable=False)
        np.copyto(cols.reshape(view.shape), view)
    return cols.reshape(n * od * oh * ow, kd * kh * kw * c)


# -- attributes --------------------------------------------------------------------------------

def _spatial(attr, fmt):
    attr = [int(v) for v in attr]
    return tuple(attr[1:4]) if fmt == "NDHWC" else tuple(attr[2:5])


def _others(attr, fmt):
    attr = [int(v) for v in attr]
    return (attr[0], attr[4]) if fmt == "NDHWC" else (attr[0], attr[1])


def _to_ndhwc(x, fmt):
    return x if fmt == "NDHWC" else x.transpose(0, 2, 3, 4, 1)


def _from_ndhwc(y, fmt):
    return y if fmt == "NDHWC" else np.ascontiguousarray(y.transpose(0, 4, 1, 2, 3))


def _conv_attrs(op):
    fmt = op._get_attr("data_format")
    strides, dilations = op._get_attr("strides"), op._get_attr("dilations") or [1] * 5
    return fmt, _spatial(strides, fmt), _spatial(dilations, fmt), op._get_attr("padding"), \
        _others(strides, fmt), _others(dilations, fmt)


def _check_conv_attrs(other_strides, other_dilations, strides_cls=errors.InvalidArgumentError):
    # (TF 2.21 raises InvalidArgumentError for Conv3D and both its backprops.)
    if any(v != 1 for v in other_strides):
        raise strides_cls(
            None, None, "Current implementation does not yet support strides in the batch and "
                        "depth dimensions.")
    if any(v != 1 for v in other_dilations):
        raise errors.InvalidArgumentError(
            None, None, "Current implementation does not yet support dilation rates in the batch and "
                        "depth dimensions.")


def _sizes(v, fmt, what):
    v = [int(d) for d in np.asarray(v).reshape(-1)]
    if len(v) != 5:
        raise errors.InvalidArgumentError(None, None, f"{what} must be a 5-D shape vector, got {len(v)}")
    return v if fmt == "NDHWC" else [v[0], v[2], v[3], v[4], v[1]]


def _check_rank5(*arrays):
    for a in arrays:
        if a.ndim != 5:
            raise errors.InvalidArgumentError(None, None, f"input must be 5-dimensional, got {a.ndim}")


# -- Conv3D ------------------------------------------------------------------------------------

def conv3d_ndhwc(x, w, strides, dilations, padding, pool=scratch):
    """out[n, i, j, k, o] = sum x[n, i*s0 + a*d0 - p0, j*s1 + b*d1 - p1, k*s2 + c*d2 - p2, ci] *
    w[a, b, c, ci, o]; padding "SAME", "VALID" or three (lo, hi) pairs."""
    n, c = x.shape[0], x.shape[4]
    kd, kh, kw, ci, co = w.shape
    if ci == 0 or c % ci:
        raise errors.InvalidArgumentError(
            None, None, f"Input depth must be evenly divisible by filter depth: {c} vs {ci}")
    if c != ci:  # (TF's CPU Conv3D has no grouped convolutions; its words)
        raise errors.InvalidArgumentError(
            None, None, f"Number of channels in filter ({ci}) must match last dimension of input ({c})")
    ks = (kd, kh, kw)
    outs, pads = geometry3(x.shape[1:4], ks, strides, dilations, padding)
    dtype = np.result_type(x, w)
    if min(outs) <= 0 or n == 0:
        return np.zeros((n,) + tuple(max(o, 0) for o in outs) + (co,), dtype)
    w2 = w.reshape(kd * kh * kw * ci, co)
    if ks == (1, 1, 1) and tuple(strides) == (1, 1, 1) and _no_padding(pads):
        return matmul(np.ascontiguousarray(x).reshape(-1, c), w2).reshape((n,) + outs + (co,))
    out = np.empty((n,) + outs + (co,), dtype)
    out2 = out.reshape(-1, co)
    xp_, pbuf = pad_ndhwc(x, pads, pool=pool)
    xp_ = np.ascontiguousarray(xp_)
    rows, k = outs[0] * outs[1] * outs[2], w2.shape[0]

    def run(chunks):
        cols, cbuf = pool.acquire((max(i1 - i0 for i0, i1 in chunks),) + outs + (kd, kh, kw * c),
                                  xp_.dtype)
        for i0, i1 in chunks:
            c2 = _im2col_into(cols[:i1 - i0], xp_[i0:i1], ks, outs, strides, dilations)
            np.matmul(c2, w2, out=out2[i0 * rows:i1 * rows])
        pool.release(cbuf)
    _for_slices(n, n * rows * k * co, rows * k * xp_.itemsize, run)
    if pbuf is not None:
        pool.release(pbuf)
    return out


def _check_backprop_dims3(label, x_shape, w_shape, dy_shape, strides, dilations, padding):
    """TF's Conv3DBackprop{Input,Filter}Op checks (NDHWC shapes), in its order and words: the
    channel checks, then ConvBackpropComputeDimensions'."""
    if x_shape[4] != w_shape[3]:
        raise errors.InvalidArgumentError(
            None, None, f"input and filter_sizes must have the same number of channels. Got {x_shape[4]} for "
                        f"input and {w_shape[3]} for filter_sizes")
    if dy_shape[4] != w_shape[4]:
        raise errors.InvalidArgumentError(
            None, None, f"out_backprop and filter_sizes must have the same number of channels. Got "
                        f"{dy_shape[4]} for out_backprop and {w_shape[4]} for filter_sizes")
    if x_shape[0] != dy_shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"{label}: input and out_backprop must have the same batch size. Input batch: "
                        f"{x_shape[0]}, outbackprop batch: {dy_shape[0]}, batch_dim: 0")
    outs, _ = geometry3(tuple(x_shape[1:4]), tuple(w_shape[:3]), strides, dilations, padding)
    for i in range(3):
        if dy_shape[1 + i] != outs[i]:
            raise errors.InvalidArgumentError(
                None, None, f"{label}: Size of out_backprop doesn't match computed: actual = {dy_shape[1 + i]}, "
                            f"computed = {outs[i]} spatial_dim: {1 + i} input: {x_shape[1 + i]} filter: "
                            f"{w_shape[i]} output: {dy_shape[1 + i]} stride: {strides[i]} dilation: {dilations[i]}")


def conv3d_backprop_filter_ndhwc(x, filter_shape, dy, strides, dilations, padding, pool=scratch):
    n, c = x.shape[0], x.shape[4]
    kd, kh, kw, ci, co = (int(d) for d in filter_shape)
    ks = (kd, kh, kw)
    if dy.ndim == 5:
        _check_backprop_dims3("Conv3DBackpropFilterOp", x.shape, (kd, kh, kw, ci, co), dy.shape, strides,
                              dilations, padding)
    outs, pads = geometry3(x.shape[1:4], ks, strides, dilations, padding)
    if ci != c:
        raise errors.InvalidArgumentError(
            None, None, f"Conv3DBackpropFilterV2: input depth {c} does not match filter's in_depth {ci}")
    if dy.shape != (n,) + outs + (co,):
        raise errors.InvalidArgumentError(
            None, None, f"Conv3DBackpropFilterV2: out_backprop has shape {_shape_str(dy.shape)}, "
                        f"expected {_shape_str((n,) + outs + (co,))}")
    dtype = np.result_type(x, dy)
    rows = outs[0] * outs[1] * outs[2]
    if n * rows == 0:
        return np.zeros((kd, kh, kw, ci, co), dtype)
    dy2 = np.ascontiguousarray(dy).reshape(-1, co)
    # (No out= here: NumPy's matmul with out= and a transposed operand can miss BLAS.)
    if ks == (1, 1, 1) and tuple(strides) == (1, 1, 1) and _no_padding(pads):
        return matmul(np.ascontiguousarray(x).reshape(-1, c).T, dy2).reshape(kd, kh, kw, ci, co)
    xp_, pbuf = pad_ndhwc(x, pads, pool=pool)
    xp_ = np.ascontiguousarray(xp_)
    k = kd * kh * kw * c

    def run(chunks):
        cols, cbuf = pool.acquire((max(i1 - i0 for i0, i1 in chunks),) + outs + (kd, kh, kw * c),
                                  xp_.dtype)
        dw = accumulate(_im2col_into(cols[:i1 - i0], xp_[i0:i1], ks, outs, strides, dilations).T
                        @ dy2[i0 * rows:i1 * rows] for i0, i1 in chunks)
        pool.release(cbuf)
        return dw
    dw = accumulate(_for_slices(n, n * rows * k * co, rows * k * xp_.itemsize, run))
    if pbuf is not None:
        pool.release(pbuf)
    return dw.reshape(kd, kh, kw, ci, co)


def conv3d_backprop_input_ndhwc(input_shape, w, dy, strides, dilations, padding, pool=scratch):
    n, d, h, wd, c = (int(v) for v in input_shape)
    kd, kh, kw, ci, co = w.shape
    ks = (kd, kh, kw)
    if dy.ndim == 5:
        _check_backprop_dims3("Conv3DBackpropInputOp", (n, d, h, wd, c), w.shape, dy.shape, strides, dilations,
                              padding)
    if ci != c:
        raise errors.InvalidArgumentError(
            None, None, f"Conv3DBackpropInputV2: input depth {c} does not match filter's in_depth {ci}")
    outs, pads = geometry3((d, h, wd), ks, strides, dilations, padding)
    if dy.shape != (n,) + outs + (co,):
        raise errors.InvalidArgumentError(
            None, None, f"Conv3DBackpropInputV2: out_backprop has shape {_shape_str(dy.shape)}, "
                        f"expected {_shape_str((n,) + outs + (co,))}")
    dtype = np.result_type(w, dy)
    rows = outs[0] * outs[1] * outs[2]
    dy2 = np.ascontiguousarray(dy).reshape(-1, co)
    w2 = w.reshape(kd * kh * kw * ci, co)
    if ks == (1, 1, 1) and tuple(strides) == (1, 1, 1) and _no_padding(pads):
        return matmul(dy2, w2.T).reshape(n, d, h, wd, c)
    if n * rows and tuple(strides) == (1, 1, 1) and ci >= 16:
        return _backprop_input_stride1(w, dy, dilations, pads, pool)
    padded_shape = (n, d + sum(pads[0]), h + sum(pads[1]), wd + sum(pads[2]), c)
    if _no_padding(pads):
        dxp, pbuf = np.zeros(padded_shape, dtype), None
    else:
        dxp, pbuf = pool.acquire(padded_shape, dtype)
        dxp.fill(0)
    if n * rows:
        k = kd * kh * kw * ci
        w2t = np.ascontiguousarray(w2.T)

        def run(chunks):
            dcols, cbuf = pool.acquire((max(i1 - i0 for i0, i1 in chunks) * rows, k), dtype)
            for i0, i1 in chunks:
                part = dcols[:(i1 - i0) * rows]
                np.matmul(dy2[i0 * rows:i1 * rows], w2t, out=part)
                part = part.reshape((i1 - i0,) + outs + (kd, kh, kw, ci))
                chunk = dxp[i0:i1]
                for (a, b, cc), sl in _tap_slices(ks, outs, strides, dilations):
                    chunk[sl] += part[:, :, :, :, a, b, cc, :]
            pool.release(cbuf)
        _for_slices(n, n * rows * k * co, rows * k * dxp.itemsize, run)
    if pbuf is None:
        return dxp
    out = _crop(dxp, (d, h, wd), pads)
    pool.release(pbuf)
    return out


def _backprop_input_stride1(w, dy, dilations, pads, pool):
    """The input gradient of a stride-1 convolution is the convolution of dy, padded by the
    kernel's extent less the forward padding, with the filter flipped and its channels swapped."""
    ext = [(k - 1) * dl + 1 for k, dl in zip(w.shape[:3], dilations)]
    conv_pads, crop = [], []
    for e, (lo, hi) in zip(ext, pads):
        p_lo, p_hi = e - 1 - lo, e - 1 - hi
        # Forward padding wider than the kernel's extent gives outputs that see no input: crop.
        crop.append((max(-p_lo, 0), max(-p_hi, 0)))
        conv_pads.append((max(p_lo, 0), max(p_hi, 0)))
    dy = dy[(slice(None),) + tuple(slice(lo, dy.shape[i + 1] - hi) for i, (lo, hi) in enumerate(crop))]
    wf = np.ascontiguousarray(w[::-1, ::-1, ::-1].transpose(0, 1, 2, 4, 3))
    return conv3d_ndhwc(dy, wf, (1, 1, 1), dilations, tuple(conv_pads), pool)


@register_kernel("Conv3D")
def _conv3d(op, ctx):
    fmt, strides, dilations, padding, other_s, other_d = _conv_attrs(op)

    def conv3d(x, w):
        _check_conv_attrs(other_s, other_d)
        _check_rank5(x, w)
        return _from_ndhwc(conv3d_ndhwc(_to_ndhwc(x, fmt), w, strides, dilations, padding), fmt)
    return conv3d


@register_kernel("Conv3DBackpropInputV2")
def _conv3d_backprop_input(op, ctx):
    fmt, strides, dilations, padding, other_s, other_d = _conv_attrs(op)

    def conv3d_backprop_input(input_sizes, w, dy):
        _check_conv_attrs(other_s, other_d)
        _check_rank5(w, dy)
        shape = _sizes(input_sizes, fmt, "input_sizes")
        return _from_ndhwc(conv3d_backprop_input_ndhwc(shape, w, _to_ndhwc(dy, fmt), strides,
                                                       dilations, padding), fmt)
    return conv3d_backprop_input


@register_kernel("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter(op, ctx):
    fmt, strides, dilations, padding, other_s, other_d = _conv_attrs(op)

    def conv3d_backprop_filter(x, filter_sizes, dy):
        _check_conv_attrs(other_s, other_d)
        _check_rank5(x, dy)
        fs = [int(v) for v in np.asarray(filter_sizes).reshape(-1)]
        if len(fs) != 5:
            raise errors.InvalidArgumentError(None, None, "filter_sizes must be a 5-D shape vector")
        return conv3d_backprop_filter_ndhwc(_to_ndhwc(x, fmt), fs, _to_ndhwc(dy, fmt), strides,
                                            dilations, padding)
    return conv3d_backprop_filter


# -- pooling -----------------------------------------------------------------------------------

def _pool_attrs(op):
    fmt = op._get_attr("data_format")
    k, s = op._get_attr("ksize"), op._get_attr("strides")
    return fmt, _spatial(k, fmt), _spatial(s, fmt), op._get_attr("padding"), _others(k, fmt) + _others(s, fmt)


def _pool_geometry(spatial, ks, ss, padding, others):
    kn, kc, sn, sc = others
    if kn != 1 or sn != 1:
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension.")
    if kc != 1 or sc != 1:
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the depth dimension.")
    outs, pads = geometry3(spatial, ks, ss, (1, 1, 1), padding)
    for o, size, k, s in zip(outs, spatial, ks, ss):
        if o <= 0:
            raise errors.InvalidArgumentError(
                None, None, f"Computed output size would be negative: {o} [input_size: {size}, "
                            f"effective_filter_size: {k}, stride: {s}]")
    return outs, pads


def _separable(reduce, xp_, ks, ss, outs):
    """reduce (_max_of) over the window along depth, then rows, then columns."""
    y, fresh = xp_, False
    for axis in range(3):
        lead = (slice(None),) * (axis + 1)
        y = reduce([y[lead + (slice(t, t + (outs[axis] - 1) * ss[axis] + 1, ss[axis]),)]
                    for t in range(ks[axis])], copy=False)
        fresh = fresh or ks[axis] > 1
    # (A 1x1x1 window leaves a view of the input: copy it, kernels never alias their inputs.)
    return y if fresh else y.copy()


def _window_counts(spatial, ks, ss, outs, pads, dtype):
    """Number of real (unpadded) elements of each window: (OD, OH, OW, 1)."""
    def counts(size, k, s, o, lo):
        start = np.arange(o) * s - lo
        return np.minimum(start + k, size) - np.maximum(start, 0)
    cd, ch, cw = (counts(spatial[i], ks[i], ss[i], outs[i], pads[i][0]) for i in range(3))
    return (cd[:, None, None, None] * ch[None, :, None, None] * cw[None, None, :, None]).astype(dtype)


def max_pool3d_ndhwc(x, ks, ss, padding, others=(1, 1, 1, 1)):
    outs, pads = _pool_geometry(x.shape[1:4], ks, ss, padding, others)
    xp_, _ = pad_ndhwc(x, pads, value=_lowest(x.dtype))
    return _separable(_max_of, xp_, ks, ss, outs)


def avg_pool3d_ndhwc(x, ks, ss, padding, others=(1, 1, 1, 1)):
    outs, pads = _pool_geometry(x.shape[1:4], ks, ss, padding, others)
    xp_, _ = pad_ndhwc(x, pads, value=0)
    # TF's order (Eigen's mean reducer): 0 + the taps one by one, row-major, / the count of
    # in-volume taps (padding adds +0.0, a no-op on a sum that starts at +0.0).
    out = None
    for _, sl in _tap_slices(ks, outs, ss):
        if out is None:
            out = np.add(x.dtype.type(0), xp_[sl])
        else:
            out += xp_[sl]
    out /= _window_counts(x.shape[1:4], ks, ss, outs, pads, x.dtype)
    return out


@register_kernel("MaxPool3D")
def _max_pool3d(op, ctx):
    fmt, ks, ss, padding, others = _pool_attrs(op)

    def max_pool3d(x):
        _check_rank5(x)
        return _from_ndhwc(max_pool3d_ndhwc(_to_ndhwc(x, fmt), ks, ss, padding, others), fmt)
    return max_pool3d


@register_kernel("AvgPool3D")
def _avg_pool3d(op, ctx):
    fmt, ks, ss, padding, others = _pool_attrs(op)

    def avg_pool3d(x):
        _check_rank5(x)
        return _from_ndhwc(avg_pool3d_ndhwc(_to_ndhwc(x, fmt), ks, ss, padding, others), fmt)
    return avg_pool3d


def _check_grad_shape(what, g, want):
    if tuple(g.shape) != tuple(want):
        raise errors.InvalidArgumentError(
            None, None, f"{what}: gradient has shape {_shape_str(g.shape)}, expected {_shape_str(want)}")


@register_kernel("MaxPool3DGrad")
def _max_pool3d_grad(op, ctx):
    fmt, ks, ss, padding, others = _pool_attrs(op)

    def max_pool3d_grad(x, y, g):
        _check_rank5(x, y, g)
        x, y, g = _to_ndhwc(x, fmt), _to_ndhwc(y, fmt), _to_ndhwc(g, fmt)
        outs, pads = _pool_geometry(x.shape[1:4], ks, ss, padding, others)
        _check_grad_shape("MaxPool3DGrad", g, x.shape[:1] + outs + x.shape[4:])
        xp_, _ = pad_ndhwc(x, pads, value=_lowest(x.dtype))
        dxp = np.zeros(xp_.shape, g.dtype)
        m = np.empty(g.shape, bool)
        diff = np.empty(y.shape, np.result_type(x, y))
        tmp = np.empty(g.shape, g.dtype)
        for _, sl in _tap_slices(ks, outs, ss):
            # TF's CPU kernel: |x - max| < 1e-5 selects (ties and near-ties all get the gradient).
            np.subtract(xp_[sl], y, out=diff)
            np.less(np.abs(diff, out=diff), 1e-5, out=m)
            _select_into(tmp, g, m)     # (g * m would put NaN beside an inf gradient)
            dxp[sl] += tmp
        return _from_ndhwc(_crop(dxp, x.shape[1:4], pads), fmt)
    return max_pool3d_grad


@register_kernel("MaxPool3DGradGrad")
def _max_pool3d_grad_grad(op, ctx):
    fmt, ks, ss, padding, others = _pool_attrs(op)

    def max_pool3d_grad_grad(x, y, gg):
        _check_rank5(x, y, gg)
        x, y, gg = _to_ndhwc(x, fmt), _to_ndhwc(y, fmt), _to_ndhwc(gg, fmt)
        outs, pads = _pool_geometry(x.shape[1:4], ks, ss, padding, others)
        _check_grad_shape("MaxPool3DGradGrad", gg, x.shape)
        xp_, _ = pad_ndhwc(x, pads, value=_lowest(x.dtype))
        gp, _ = pad_ndhwc(gg, pads, value=0)
        out = np.zeros(y.shape, gg.dtype)
        found = np.zeros(y.shape, bool)
        m = np.empty(y.shape, bool)
        for _, sl in _tap_slices(ks, outs, ss):
            # Each window's first maximum in (depth, row, column) order.
            np.equal(xp_[sl], y, out=m)
            m &= ~found
            np.copyto(out, gp[sl], where=m)
            found |= m
        return _from_ndhwc(out, fmt)
    return max_pool3d_grad_grad


@register_kernel("AvgPool3DGrad")
def _avg_pool3d_grad(op, ctx):
    fmt, ks, ss, padding, others = _pool_attrs(op)

    def avg_pool3d_grad(shape, g):
        _check_rank5(g)
        n, d, h, w, c = _sizes(shape, fmt, "orig_input_shape")
        g = _to_ndhwc(g, fmt)
        outs, pads = _pool_geometry((d, h, w), ks, ss, padding, others)
        _check_grad_shape("AvgPool3DGrad", g, (n,) + outs + (c,))
        # TF's kernel: g times the window's 1 / count (a double rounded to the dtype), added into
        # zeros output by output, columns outermost, then rows, then planes (measured against TF
        # 2.21): per input element, the taps in the reverse of that order.
        gs = g * (1.0 / _window_counts((d, h, w), ks, ss, outs, pads, np.float64)).astype(g.dtype)
        dxp = np.zeros((n, d + sum(pads[0]), h + sum(pads[1]), w + sum(pads[2]), c), g.dtype)
        taps = sorted(_tap_slices(ks, outs, ss), key=lambda t: (-t[0][2], -t[0][1], -t[0][0]))
        for _, sl in taps:
            dxp[sl] += gs
        return _from_ndhwc(_crop(dxp, (d, h, w), pads), fmt)
    return avg_pool3d_grad
