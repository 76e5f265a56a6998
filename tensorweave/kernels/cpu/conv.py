"""CPU kernels for convolutions: Conv2D and its two backprops, DepthwiseConv2dNative and its two
backprops.

How they are fast (no Python loop over pixels or batch elements):

* In float32 on x86-64 with AVX-512F, Conv2D, the stride-1 Conv2DBackpropInput and
  Conv2DBackpropFilter run machine-code kernels (direct_conv.py): a running FMA per output over
  the filter elements in registers, reading the padded input in place, with the fused bias and
  ReLU applied before the store. That is TF's oneDNN order (its bits, at any size) at about 1.6x
  the speed of the im2col + BLAS path below, which serves every other case and machine.
* Conv2D is im2col + BLAS matmul. The patches are a *strided view* of the (padded) input,
  shape (N, OH, OW, KH, KW*C) when the width dilation is 1 (a kernel row's KW*C values are
  contiguous in NHWC), so the one copy that gathers them has long contiguous inner runs even for
  3-channel images; 1x1 stride-1 convolutions are a plain matmul with no copy at all. The patch
  matrix is built a few images at a time (about 8 MB), each chunk multiplied while it is still in
  cache: 20-35% faster than one batch-sized matrix, and far less scratch memory. Images with at
  most 4 channels (and width stride 1) use a tap-major patch matrix (KH*KW*C, N*OH*OW) instead, copied a whole output
  row per run (2x faster for LeNet's first layer).
* Conv2DBackpropFilter re-gathers the patches chunk by chunk and accumulates cols^T @ dy.
* Conv2DBackpropInput with stride 1 (and enough input channels) is the forward convolution of
  the padded dy with the spatially flipped, channel-transposed filter. Otherwise it is dy @ W^T
  followed by col2im: a loop over the KH*KW kernel taps, each adding one strided slab into the
  padded input gradient (no np.add.at), chunked by batch like the forward pass.
* Scratch (the patch matrix, the padded input) comes from a small pool of reusable buffers, so a
  training step does not page-fault fresh megabytes for every layer.
* In a step that runs convolutions, each kernel splits the batch into one slice per intra-op
  worker (kernels/cpu/parallel.py), each slice chunked and multiplied with single-threaded BLAS
  on its own core; the filter gradient sums the slices' partial sums.

NCHW inputs are transposed to NHWC and back. Padding follows TF: SAME pads
max((out-1)*stride + (k-1)*dilation + 1 - in, 0) split with the extra element at the end;
EXPLICIT takes explicit_paddings (pairs per dimension in data_format order).
"""

import os
import threading

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...framework import errors
from ..registry import register_kernel
from . import direct_conv, onednn_filter_grad
from .parallel import batch_slices, get_intra_op_threads, matmul, parallel_map

__all__ = ["conv_geometry", "scratch", "pad_nhwc", "patches_view"]


# -- scratch buffers ---------------------------------------------------------------------------

class _ScratchPool:
    """A few reusable byte buffers: acquire(shape, dtype) -> array, release(array)."""

    def __init__(self, keep=4):
        self._free = []
        self._keep = keep
        self._lock = threading.Lock()

    def acquire(self, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        with self._lock:
            best = None
            for i, b in enumerate(self._free):
                if b.nbytes >= nbytes and (best is None or b.nbytes < self._free[best].nbytes):
                    best = i
            buf = self._free.pop(best) if best is not None else None
        if buf is None:
            buf = np.empty(max(nbytes, 1), np.uint8)
        return buf[:nbytes].view(dtype).reshape(shape), buf

    def release(self, buf):
        with self._lock:
            self._free.append(buf)
            if len(self._free) > self._keep:
                self._free.sort(key=lambda b: b.nbytes)
                self._free.pop(0)


scratch = _ScratchPool()


# -- geometry ----------------------------------------------------------------------------------

def _out_and_pads(size, k, stride, dilation, padding, explicit):
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2, total - total // 2
    if padding == "VALID":
        out = (size - eff) // stride + 1 if size >= eff else 0
        return out, 0, 0
    lo, hi = explicit
    padded = size + lo + hi
    out = (padded - eff) // stride + 1 if padded >= eff else 0
    return out, lo, hi


def conv_geometry(h, w, kh, kw, strides, dilations, padding, explicit=None):
    """(OH, OW, (top, bottom), (left, right)) for NHWC spatial sizes h, w."""
    ex = explicit or ((0, 0), (0, 0))
    oh, t, b = _out_and_pads(h, kh, strides[0], dilations[0], padding, ex[0])
    ow, l, r = _out_and_pads(w, kw, strides[1], dilations[1], padding, ex[1])
    return oh, ow, (t, b), (l, r)


def pad_nhwc(x, ph, pw, value=0, pool=None):
    """x padded spatially (NHWC); x itself when there is no padding. With `pool`, the padded
    array lives in a scratch buffer: returns (array, buffer or None)."""
    if not (ph[0] or ph[1] or pw[0] or pw[1]):
        return x, None
    n, h, w, c = x.shape
    shape = (n, h + ph[0] + ph[1], w + pw[0] + pw[1], c)
    if pool is not None:
        out, buf = pool.acquire(shape, x.dtype)
    else:
        out, buf = np.empty(shape, x.dtype), None
    # Fill only the border, then the interior (one pass over the data).
    if ph[0]:
        out[:, :ph[0]] = value
    if ph[1]:
        out[:, shape[1] - ph[1]:] = value
    if pw[0]:
        out[:, :, :pw[0]] = value
    if pw[1]:
        out[:, :, shape[2] - pw[1]:] = value
    out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w] = x
    return out, buf


def patches_view(xp_, kh, kw, oh, ow, strides, dilations):
    """A read-only strided view of the patches of padded NHWC `xp_`: (N, OH, OW, KH, KW, C)."""
    n, _, _, c = xp_.shape
    s0, s1, s2, s3 = xp_.strides
    return as_strided(xp_, (n, oh, ow, kh, kw, c),
                      (s0, s1 * strides[0], s2 * strides[1], s1 * dilations[0], s2 * dilations[1], s3),
                      writeable=False)


# The patch matrix is built and multiplied a few images at a time: a chunk this size is big enough
# for an efficient GEMM and small enough to be read back from cache rather than from memory.
# Split across intra-op workers (single-threaded BLAS each), smaller chunks stay in each core's
# own L2 and measured faster.
_CHUNK_BYTES = 8 << 20
_SPLIT_CHUNK_BYTES = 2 << 20


def _batch_chunks(stop, image_bytes, start=0, chunk_bytes=_CHUNK_BYTES):
    """(start, stop) slices of the batch range whose patch matrices take about chunk_bytes each."""
    step = max(1, min(stop - start, chunk_bytes // max(image_bytes, 1)))
    return [(i, min(stop, i + step)) for i in range(start, stop, step)]


def accumulate(parts):
    """The sum of equally shaped arrays, added in place into the first (the filter gradient's
    partial sums over chunks and over workers' slices)."""
    total = None
    for p in parts:
        if total is None:
            total = p
        else:
            total += p
    return total


def _for_slices(n, macs, image_bytes, run, split_chunk_bytes=_SPLIT_CHUNK_BYTES):
    """Runs run(chunks) for each worker's batch slice, chunks being its (start, stop) pieces;
    returns the results in order."""
    slices = batch_slices(n, macs)
    chunk_bytes = _CHUNK_BYTES if len(slices) == 1 else split_chunk_bytes
    return parallel_map(lambda s: run(_batch_chunks(s[1], image_bytes, s[0], chunk_bytes)), slices)


def _im2col_into(cols, xp_, kh, kw, oh, ow, strides, dilations):
    """Fill `cols` (N, OH, OW, KH, KW*C) with the patches of padded `xp_`; returns the 2-D
    (N*OH*OW, KH*KW*C) view of it."""
    n, _, _, c = xp_.shape
    if dilations[1] == 1 and xp_.flags.c_contiguous:
        s0, s1, s2, s3 = xp_.strides
        view = as_strided(xp_, (n, oh, ow, kh, kw * c),
                          (s0, s1 * strides[0], s2 * strides[1], s1 * dilations[0], s3), writeable=False)
        np.copyto(cols, view)
    else:
        np.copyto(cols.reshape(n, oh, ow, kh, kw, c),
                  patches_view(xp_, kh, kw, oh, ow, strides, dilations))
    return cols.reshape(n * oh * ow, kh * kw * c)


def _im2col_tap_major(colsT, xp_, kh, kw, oh, ow, strides, dilations, kw_outer=False):
    """Fill `colsT` (KH, KW, C, N, OH, OW) with the patches of padded `xp_`, tap by tap; returns
    the 2-D (KH*KW*C, N*OH*OW) view. For images with few channels this copies runs of a whole
    output row, where the patch-major layout copies runs of only KW*C values. With `kw_outer`
    the taps are laid out (KW, KH, C) instead (the weights' rows must follow)."""
    n, c = xp_.shape[0], xp_.shape[3]
    for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
        np.copyto(colsT[b, a] if kw_outer else colsT[a, b], xp_[:, rs, cs, :].transpose(3, 0, 1, 2))
    return colsT.reshape(kh * kw * c, n * oh * ow)


def _tap_major(channels, strides):
    # Measured: better for 1-4 channels at width stride 1; at strides 2 and 4 (GoogLeNet's and
    # AlexNet's first layers) the tap copies get sparse and the patch-major layout is as fast or faster.
    return channels <= 4 and strides[1] == 1


def _col2im_add(dxp, dcols, kh, kw, oh, ow, strides, dilations):
    """dxp[n, i*sh + a*dh, j*sw + b*dw, c] += dcols[n, i, j, a, b, c] (loop over kernel taps)."""
    sh, sw = strides
    dh, dw = dilations
    for a in range(kh):
        r0 = a * dh
        for b in range(kw):
            c0 = b * dw
            dxp[:, r0:r0 + (oh - 1) * sh + 1:sh, c0:c0 + (ow - 1) * sw + 1:sw, :] += dcols[:, :, :, a, b, :]


def _no_padding(ph, pw):
    return not (ph[0] or ph[1] or pw[0] or pw[1])


# -- attribute helpers -------------------------------------------------------------------------

def _spatial(attr, fmt):
    attr = list(attr)
    return (attr[1], attr[2]) if fmt == "NHWC" else (attr[2], attr[3])


def _explicit(op, fmt):
    ex = list(op._get_attr("explicit_paddings") or [])
    if op._get_attr("padding") != "EXPLICIT":
        return None
    pairs = [(ex[2 * i], ex[2 * i + 1]) for i in range(4)]
    return (pairs[1], pairs[2]) if fmt == "NHWC" else (pairs[2], pairs[3])


def _attrs(op):
    fmt = op._get_attr("data_format")
    strides = _spatial(op._get_attr("strides"), fmt)
    try:
        dil = op._get_attr("dilations")
    except (KeyError, ValueError):
        dil = None
    dilations = _spatial(dil, fmt) if dil else (1, 1)
    return fmt, strides, dilations, op._get_attr("padding"), _explicit(op, fmt)


_BATCH_DEPTH = "Current implementation does not yet support {} in the batch and depth dimensions."


def _attr_error(op, strides_cls, dilations_cls=None, equal_strides=False, depthwise=False):
    """TF's kernel-construction checks of a 2-D convolution's attrs, as (error class, message)
    or None: strides (and dilations) in the batch and depth dimensions, equal row and column
    strides (depthwise), explicit paddings (nonnegative, none on batch or depth)."""
    fmt = op._get_attr("data_format")
    ci = 3 if fmt == "NHWC" else 1
    s = [int(v) for v in op._get_attr("strides")]
    try:
        d = [int(v) for v in (op._get_attr("dilations") or [1] * 4)]
    except (KeyError, ValueError):
        d = [1] * 4
    if len(s) == 4 and (s[0] != 1 or s[ci] != 1):
        return strides_cls, _BATCH_DEPTH.format("strides")
    if equal_strides and len(s) == 4 and _spatial(s, fmt)[0] != _spatial(s, fmt)[1]:
        return (errors.InvalidArgumentError,
                "Current implementation only supports equal length strides in the row and column dimensions.")
    if len(d) == 4 and (d[0] != 1 or d[ci] != 1):
        if depthwise:
            return (errors.UnimplementedError,
                    f"Current kernel implementation does not support dilations, received [{' '.join(map(str, d))}]")
        if dilations_cls is not None:
            return dilations_cls, _BATCH_DEPTH.format("dilations")
    if op._get_attr("padding") == "EXPLICIT":
        ex = [int(v) for v in op._get_attr("explicit_paddings") or []]
        if any(v < 0 for v in ex):
            return errors.InvalidArgumentError, "All elements of explicit_paddings must be nonnegative"
        if len(ex) == 8 and (ex[0] or ex[1] or ex[2 * ci] or ex[2 * ci + 1]):
            return (errors.InvalidArgumentError,
                    "Nonzero explicit padding in the batch or depth dimensions is not supported")
    return None


def _raise(err):
    if err is not None:
        raise err[0](None, None, err[1])


def _to_nhwc(x, fmt):
    return x if fmt == "NHWC" else x.transpose(0, 2, 3, 1)


def _from_nhwc(y, fmt):
    return y if fmt == "NHWC" else np.ascontiguousarray(y.transpose(0, 3, 1, 2))


def _shape_str(s):
    return "[" + ",".join(str(int(d)) for d in s) + "]"


# -- Conv2D ------------------------------------------------------------------------------------

def conv2d_nhwc(x, w, strides, dilations, padding, explicit, pool=scratch, post=None):
    """The NHWC convolution of x by w; `post(rows)`, when given, updates each block of output
    rows (N*OH*OW, CO) in place right after its GEMM, while it is still in cache (the fused bias
    and activation)."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    if ci == 0 or c % ci:
        raise errors.InvalidArgumentError(
            None, None, f"input depth must be evenly divisible by filter depth: {c} vs {ci}")
    if c != ci:  # grouped: each group of ci input channels makes co // groups outputs
        groups = c // ci
        cog = co // groups
        out = np.concatenate([conv2d_nhwc(x[..., i * ci:(i + 1) * ci], w[..., i * cog:(i + 1) * cog],
                                          strides, dilations, padding, explicit, pool)
                              for i in range(groups)], axis=-1)
        if post is not None:
            post(out.reshape(-1, co))
        return out
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    if oh <= 0 or ow <= 0 or n == 0:
        return np.zeros((n, max(oh, 0), max(ow, 0), co), np.result_type(x, w))
    if x.dtype == w.dtype == np.float32 and direct_conv.available():
        return _direct_conv(x, w, oh, ow, ph, pw, strides, dilations, pool, post)
    w2 = w.reshape(kh * kw * ci, co)
    if kh == kw == 1 and strides == (1, 1) and _no_padding(ph, pw):
        out = matmul(np.ascontiguousarray(x).reshape(-1, c), w2)
        if post is not None:
            post(out)
        return out.reshape(n, oh, ow, co)
    if x.dtype == w.dtype == np.float32 and n * oh * ow * co * w2.shape[0] <= EXACT_MAX_MACS:
        xp_, _ = pad_nhwc(x, ph, pw)
        out = _onednn_order_conv(xp_, w, oh, ow, strides, dilations,
                                 kw_outer=c == 1 and n > 1 and not _no_padding(ph, pw))
        if post is not None:
            post(out.reshape(-1, co))
        return out
    out = np.empty((n, oh, ow, co), np.result_type(x, w))
    xp_, pbuf = pad_nhwc(x, ph, pw, pool=pool)
    xp_ = np.ascontiguousarray(xp_)
    rows, k = oh * ow, w2.shape[0]
    out2 = out.reshape(-1, co)
    tap_major = _tap_major(c, strides)
    # One input channel, a batch and padding: oneDNN (TF) adds the taps column by column
    # (_onednn_order_conv); BLAS's short-K kernels add in k order, so lay k out that way.
    kw_outer = tap_major and c == 1 and n > 1 and not _no_padding(ph, pw)
    if kw_outer:
        w2 = np.ascontiguousarray(w.transpose(1, 0, 2, 3)).reshape(k, co)

    def run(chunks):
        size = max(i1 - i0 for i0, i1 in chunks)
        if tap_major:
            flat, cbuf = pool.acquire((k * size * rows,), xp_.dtype)
            for i0, i1 in chunks:
                shape = (kw, kh) if kw_outer else (kh, kw)
                colsT = flat[:k * (i1 - i0) * rows].reshape(*shape, c, i1 - i0, oh, ow)
                cT = _im2col_tap_major(colsT, xp_[i0:i1], kh, kw, oh, ow, strides, dilations, kw_outer)
                np.matmul(cT.T, w2, out=out2[i0 * rows:i1 * rows])
                if post is not None:
                    post(out2[i0 * rows:i1 * rows])
        else:
            cols, cbuf = pool.acquire((size, oh, ow, kh, kw * c), xp_.dtype)
            for i0, i1 in chunks:
                c2 = _im2col_into(cols[:i1 - i0], xp_[i0:i1], kh, kw, oh, ow, strides, dilations)
                np.matmul(c2, w2, out=out2[i0 * rows:i1 * rows])
                if post is not None:
                    post(out2[i0 * rows:i1 * rows])
        pool.release(cbuf)
    # (Tap-major chunks are copied in long runs and do best big, split or not.)
    _for_slices(n, n * rows * k * co, rows * k * xp_.itemsize, run,
                _CHUNK_BYTES if tap_major else _SPLIT_CHUNK_BYTES)
    if pbuf is not None:
        pool.release(pbuf)
    return out


def _direct_conv(x, w, oh, ow, ph, pw, strides, dilations, pool, post):
    """conv2d_nhwc by the machine-code kernels (direct_conv.py): TF's order, at any size."""
    n, h, wd, c = x.shape
    kh, kw, _, co = w.shape
    # One input channel, a batch and padding: oneDNN takes the filter's columns outermost.
    kw_outer = c == 1 and n > 1 and not _no_padding(ph, pw)
    extra = direct_conv.readable_width(ow, kw, strides[1], dilations[1], co) - (wd + pw[0] + pw[1])
    xp_, pbuf = pad_nhwc(x, ph, (pw[0], pw[1] + max(extra, 0)), pool=pool)
    in_kernel = isinstance(post, _BiasRelu) and post.bias.dtype == np.float32 and \
        post.bias.shape == (co,)
    out = direct_conv.forward(xp_, w, oh, ow, strides, dilations, kw_outer,
                              post.bias if in_kernel else None, in_kernel and post.relu)
    if pbuf is not None:
        pool.release(pbuf)
    if post is not None and not in_kernel:
        post(out.reshape(-1, co))
    return out


# Without the machine-code kernels, small float32 convolutions add their products in the order
# of TF's oneDNN kernel, so printed values match TF's digits: a running fused multiply-add over
# the kernel taps, row by row, column by column, channel by channel (measured on TF 2.21); with
# one input channel, a batch of two or more and real padding, oneDNN's kernel takes the columns
# outermost. The emulation costs a
# float64 pass per tap, so it stops at 2^18 multiply-adds (well under a millisecond); bigger
# convolutions keep BLAS, whose blocked sums round differently in the last bit.
EXACT_MAX_MACS = 1 << 18


def _onednn_order_conv(xp_, w, oh, ow, strides, dilations, kw_outer):
    """The convolution of padded NHWC float32 `xp_` by `w`, each output a running FMA from 0
    over the taps (kh, kw, ci) (kw outermost with `kw_outer`); the product of two float32s is
    exact in float64, so each step rounds once, as the FMA does."""
    kh, kw, ci, co = w.shape
    n = xp_.shape[0]
    acc = np.zeros((n, oh, ow, co), np.float64)
    wd = w.astype(np.float64)
    taps = [(a, b) for b in range(kw) for a in range(kh)] if kw_outer else \
        [(a, b) for a in range(kh) for b in range(kw)]
    sh, sw = strides
    dh, dw = dilations
    for a, b in taps:
        slab = xp_[:, a * dh:a * dh + (oh - 1) * sh + 1:sh, b * dw:b * dw + (ow - 1) * sw + 1:sw, :]
        slab = slab.astype(np.float64)
        for c in range(ci):
            acc += slab[..., c, None] * wd[a, b, c]
            acc = acc.astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


# TF's oneDNN filter gradient of a small float32 convolution: each intra-op thread takes a
# contiguous share of the batch (oneDNN's balance211: the first n % T threads one image more)
# and adds x_patch * dy over its images, rows and columns as one running FMA per filter
# element; the threads' sums are then added in order (measured on TF 2.21 with 2 threads).
_EXACT_FILTER_GRAD_POSITIONS = 2048     # (about 3.5 us each: at most ~7 ms)


def _exact_filter_grad_ok(x, dy, filter_shape, strides, dilations):
    kh, kw, ci, co = filter_shape
    n, oh, ow = dy.shape[:3]
    return (x.dtype == dy.dtype == np.float32 and strides == (1, 1) and dilations == (1, 1)
            and x.shape[3] == ci and n * oh * ow <= _EXACT_FILTER_GRAD_POSITIONS
            and n * oh * ow * kh * kw * ci * co <= EXACT_MAX_MACS)


def _filter_grad_threads(n):
    return max(1, min(n, get_intra_op_threads() or 1, os.cpu_count() or 1))


def _onednn_order_filter_grad(xp_, dy, kh, kw):
    n, oh, ow, co = dy.shape
    total = None
    dy64 = dy.astype(np.float64)
    for t0, t1 in direct_conv.balance211(n, _filter_grad_threads(n)):
        acc = np.zeros((kh, kw, xp_.shape[3], co), np.float64)
        for b in range(t0, t1):
            img = xp_[b].astype(np.float64)
            for i in range(oh):
                for j in range(ow):
                    acc += img[i:i + kh, j:j + kw, :, None] * dy64[b, i, j]
                    acc = acc.astype(np.float32).astype(np.float64)
        total = acc if total is None else (total + acc).astype(np.float32).astype(np.float64)
    return total.astype(np.float32)


@register_kernel("Conv2D")
def _conv2d(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.UnimplementedError, errors.UnimplementedError)

    def conv2d(x, w):
        _raise(err)
        if x.ndim != 4 or w.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "input and filter must be 4-dimensional")
        return _from_nhwc(conv2d_nhwc(_to_nhwc(x, fmt), w, strides, dilations, padding, explicit), fmt)
    return conv2d


class _BiasRelu:
    """The in-place bias add (and ReLU) of a fused convolution, called on blocks of output rows:
    the same elementwise operations, so the same values, as the BiasAdd and Relu kernels it
    replaces. (The machine-code kernels take `bias` and `relu` and do it in registers.)"""

    def __init__(self, bias, relu):
        self.bias, self.relu = bias, relu
        self._zero = bias.dtype.type(0)

    def __call__(self, rows):
        rows += self.bias
        if self.relu:
            np.maximum(self._zero, rows, out=rows)   # (0, x) as the Relu kernel: -0.0 stays -0.0


def _fused_conv2d(relu):
    def factory(op, ctx):
        """Conv2D + BiasAdd (+ Relu) run as one kernel (runtime/fusion.py); `op` stands for the
        Conv2D (its attributes) and the inputs are (x, filter, bias)."""
        _, strides, dilations, padding, explicit = _attrs(op)
        err = _attr_error(op, errors.UnimplementedError, errors.UnimplementedError)

        def fused_conv2d(x, w, b):
            _raise(err)
            if x.ndim != 4 or w.ndim != 4:
                raise errors.InvalidArgumentError(None, None, "input and filter must be 4-dimensional")
            if b.ndim != 1 or b.shape[0] != w.shape[3]:
                y = conv2d_nhwc(x, w, strides, dilations, padding, explicit)
                raise errors.InvalidArgumentError(   # (the BiasAdd kernel's message)
                    None, None, f"Must provide as many biases as the channel dimension of the "
                                f"input tensor: [{','.join(map(str, b.shape))}] vs. {_shape_str(y.shape)}")
            return conv2d_nhwc(x, w, strides, dilations, padding, explicit,
                               post=_BiasRelu(b.astype(np.result_type(x, w), copy=False), relu))
        return fused_conv2d
    return factory


register_kernel("_FusedConv2DBias")(_fused_conv2d(relu=False))
register_kernel("_FusedConv2DBiasRelu")(_fused_conv2d(relu=True))


def conv2d_backprop_filter_nhwc(x, filter_shape, dy, strides, dilations, padding, explicit,
                                pool=scratch):
    n, h, wd, c = x.shape
    kh, kw, ci, co = (int(d) for d in filter_shape)
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    if dy.shape != (n, oh, ow, co):
        raise errors.InvalidArgumentError(
            None, None, f"Conv2DBackpropFilter: out_backprop has shape {_shape_str(dy.shape)}, "
                        f"expected {_shape_str((n, oh, ow, co))}")
    dtype = np.result_type(x, dy)
    if n * oh * ow == 0:
        return np.zeros((kh, kw, ci, co), dtype)
    if x.dtype == dy.dtype == np.float32 and c == ci and direct_conv.available():
        xp_, pbuf = pad_nhwc(x, ph, pw, pool=pool)
        # TF's order (onednn_filter_grad.py); where it is not known, one run per batch slice
        order = onednn_filter_grad.plan(n, h, wd, c, co, kh, kw, oh, ow, strides, dilations, (ph, pw))
        if order is not None and order[0] == "pieces":
            dw = direct_conv.filter_grad_pieces(xp_, dy, kh, kw, strides, dilations, order[1])
        else:
            slices = order[1] if order is not None else direct_conv.balance211(n, _filter_grad_threads(n))
            dw = direct_conv.filter_grad(xp_, dy, kh, kw, strides, dilations, slices)
        if pbuf is not None:
            pool.release(pbuf)
        return dw
    if _exact_filter_grad_ok(x, dy, (kh, kw, ci, co), strides, dilations):
        xp_, _ = pad_nhwc(x, ph, pw)
        return _onednn_order_filter_grad(xp_, dy, kh, kw)
    dy2 = np.ascontiguousarray(dy).reshape(-1, co)
    # (No out= here: NumPy's matmul with out= and a transposed operand can miss BLAS entirely.)
    if kh == kw == 1 and strides == (1, 1) and _no_padding(ph, pw):
        return matmul(np.ascontiguousarray(x).reshape(-1, c).T, dy2).reshape(kh, kw, ci, co)
    xp_, pbuf = pad_nhwc(x, ph, pw, pool=pool)
    xp_ = np.ascontiguousarray(xp_)
    rows, k = oh * ow, kh * kw * c
    tap_major = _tap_major(c, strides)

    def run(chunks):
        size = max(i1 - i0 for i0, i1 in chunks)
        if tap_major:
            cols, cbuf = pool.acquire((k * size * rows,), xp_.dtype)
        else:
            cols, cbuf = pool.acquire((size, oh, ow, kh, kw * c), xp_.dtype)

        def part(i0, i1):
            if tap_major:
                colsT = cols[:k * (i1 - i0) * rows].reshape(kh, kw, c, i1 - i0, oh, ow)
                return _im2col_tap_major(colsT, xp_[i0:i1], kh, kw, oh, ow, strides,
                                         dilations) @ dy2[i0 * rows:i1 * rows]
            c2 = _im2col_into(cols[:i1 - i0], xp_[i0:i1], kh, kw, oh, ow, strides, dilations)
            return c2.T @ dy2[i0 * rows:i1 * rows]
        dw = accumulate(part(i0, i1) for i0, i1 in chunks)
        pool.release(cbuf)
        return dw
    dw = accumulate(_for_slices(n, n * rows * k * co, rows * k * xp_.itemsize, run,
                                _CHUNK_BYTES if tap_major else _SPLIT_CHUNK_BYTES))
    if pbuf is not None:
        pool.release(pbuf)
    return dw.reshape(kh, kw, ci, co)


# With fewer input channels the flipped convolution's GEMM (N = input channels) is too narrow.
_FLIP_MIN_CHANNELS = 16


def conv2d_backprop_input_nhwc(input_shape, w, dy, strides, dilations, padding, explicit,
                               pool=scratch):
    n, h, wd, c = (int(d) for d in input_shape)
    kh, kw, ci, co = w.shape
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    if dy.shape != (n, oh, ow, co):
        raise errors.InvalidArgumentError(
            None, None, f"Conv2DBackpropInput: out_backprop has shape {_shape_str(dy.shape)}, "
                        f"expected {_shape_str((n, oh, ow, co))}")
    dtype = np.result_type(w, dy)
    macs = n * oh * ow * kh * kw * ci * co
    if w.dtype == dy.dtype == np.float32 and c == ci and n * oh * ow and direct_conv.available():
        dx = _onednn_backprop_input((n, h, wd, c), w, dy, strides, dilations, ph, pw)
        if dx is not None:
            return dx
    if w.dtype == dy.dtype == np.float32 and strides == (1, 1) and c == ci and n * oh * ow and \
            (c >= _FLIP_MIN_CHANNELS or macs <= EXACT_MAX_MACS) and direct_conv.available():
        # TF's order (the flipped filter's taps, then its channels) at any size
        return _backprop_input_stride1(w, dy, dilations, ph, pw, pool)
    if w.dtype == dy.dtype == np.float32 and strides == (1, 1) and dilations == (1, 1) and \
            not _no_padding(ph, pw) and c == ci and macs <= EXACT_MAX_MACS:
        # TF's oneDNN order: the flipped filter's taps (kh, kw) then its channels, as a forward
        # convolution of the padded dy (measured with real padding; VALID adds otherwise)
        pads = ((kh - 1 - ph[0], kh - 1 - ph[1]), (kw - 1 - pw[0], kw - 1 - pw[1]))
        if min(min(p) for p in pads) >= 0:
            dyp, _ = pad_nhwc(dy, *pads)
            wf = w[::-1, ::-1].transpose(0, 1, 3, 2)
            return _onednn_order_conv(dyp, wf, h, wd, (1, 1), (1, 1), kw_outer=False)
    dy2 = np.ascontiguousarray(dy).reshape(-1, co)
    w2 = w.reshape(kh * kw * ci, co)
    if kh == kw == 1 and strides == (1, 1) and _no_padding(ph, pw):
        return matmul(dy2, w2.T).reshape(n, h, wd, c)
    if n * oh * ow and strides == (1, 1) and ci >= _FLIP_MIN_CHANNELS:
        return _backprop_input_stride1(w, dy, dilations, ph, pw, pool)
    hp, wp = h + ph[0] + ph[1], wd + pw[0] + pw[1]
    padded = not _no_padding(ph, pw)
    if padded:
        dxp, pbuf = pool.acquire((n, hp, wp, c), dtype)
        dxp.fill(0)
    else:
        dxp, pbuf = np.zeros((n, h, wd, c), dtype), None
    if n * oh * ow:
        rows, k = oh * ow, kh * kw * ci
        w2t = np.ascontiguousarray(w2.T)

        def run(chunks):
            size = max(i1 - i0 for i0, i1 in chunks)
            dcols, cbuf = pool.acquire((size * rows, k), dtype)
            for i0, i1 in chunks:
                part = dcols[:(i1 - i0) * rows]
                np.matmul(dy2[i0 * rows:i1 * rows], w2t, out=part)
                _col2im_add(dxp[i0:i1], part.reshape(i1 - i0, oh, ow, kh, kw, ci), kh, kw, oh, ow,
                            strides, dilations)
            pool.release(cbuf)
        _for_slices(n, n * rows * k * co, rows * k * dxp.itemsize, run)
    if padded:
        out = dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd].copy()
        pool.release(pbuf)
        return out
    return dxp


# oneDNN's strided input gradient adds one row of dx in one block up to about this width (its
# cost model picks narrower blocks beyond, not reproduced); it splits filter rows for 2048
# output channels and narrows blocks from 1536.
_BWD_MAX_WIDTH = 500
_BWD_MAX_CHANNELS = 1024


def _onednn_backprop_input(input_shape, w, dy, strides, dilations, ph, pw):
    """The input gradient in TF's oneDNN order (measured on TF 2.21, AVX-512, bit-equal on
    LeNet-, DCGAN- and ResNet-like shapes), or None where that order is not known (stride-1
    padded convolutions take _backprop_input_stride1). Each dx element adds the valid products
    dy[(ih + pt - kh) / s, (iw + pl - kw) / s, co] * w[kh, kw, ci, co]:

    * stride 1, no padding: one running FMA per filter column kw over (kh descending, co),
      the columns' sums added kw descending;
    * stride s > 1, width not a multiple of s: one running FMA over (kh, kw, co) ascending;
    * stride s > 1, width a multiple of s: one per filter column kw over (kh ascending, co),
      added kw ascending.

    Computed as forward convolutions of dy zero-upsampled by s and padded (the zeros add
    nothing), with the flipped, channel-transposed filter or one of its columns."""
    n, h, wd, c = input_shape
    kh, kw, ci, co = w.shape
    s = strides[0]
    padded = not _no_padding(ph, pw)
    if dilations != (1, 1) or strides[1] != s or co > _BWD_MAX_CHANNELS or (s == 1 and padded):
        return None
    if s > 1 and wd % s == 0 and wd > _BWD_MAX_WIDTH:
        return None
    top, left = kh - 1 - ph[0], kw - 1 - pw[0]
    if top < 0 or left < 0:
        return None
    oh, ow = dy.shape[1], dy.shape[2]
    rows, cols = h + kh - 1, wd + kw - 1
    width = max(cols, kw - 1 + direct_conv.readable_width(wd, 1, 1, 1, ci),
                direct_conv.readable_width(wd, kw, 1, 1, ci))
    v = np.zeros((n, rows, width, co), np.float32)
    fit_h = min(oh, (rows - 1 - top) // s + 1)
    fit_w = min(ow, (cols - 1 - left) // s + 1)
    v[:, top:top + (fit_h - 1) * s + 1:s, left:left + (fit_w - 1) * s + 1:s] = dy[:, :fit_h, :fit_w]
    wf = w[::-1, ::-1].transpose(0, 1, 3, 2)        # wf[a', b'] = w[kh-1-a', kw-1-b'], (co, ci)
    if s > 1 and wd % s:
        return direct_conv.forward(v, wf, h, wd, (1, 1), (1, 1), reverse_taps=True)
    # one sum per filter column: flipped column b' = kw - 1 - b
    columns = range(kw) if s == 1 else range(kw - 1, -1, -1)
    dx = None
    for b_ in columns:
        part = direct_conv.forward(v, wf[:, b_:b_ + 1], h, wd, (1, 1), (1, 1),
                                   reverse_taps=s > 1, first_column=b_)
        dx = part if dx is None else np.add(dx, part, out=dx)
    return dx


def _backprop_input_stride1(w, dy, dilations, ph, pw, pool):
    """The input gradient of a stride-1 convolution is itself a convolution: dy, padded by the
    kernel's extent less the forward padding, with the filter flipped spatially and its channel
    axes swapped. That turns col2im's KH*KW strided adds into one patch gather and a GEMM."""
    kh, kw = w.shape[:2]
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    pads = [eh - 1 - ph[0], eh - 1 - ph[1], ew - 1 - pw[0], ew - 1 - pw[1]]
    # Forward padding wider than the kernel's extent gives output rows that see no input: crop.
    t, b, l, r = (max(-p, 0) for p in pads)
    dy = dy[:, t:dy.shape[1] - b, l:dy.shape[2] - r]
    t, b, l, r = (max(p, 0) for p in pads)
    wf = np.ascontiguousarray(w[::-1, ::-1].transpose(0, 1, 3, 2))
    return conv2d_nhwc(dy, wf, (1, 1), dilations, "EXPLICIT", ((t, b), (l, r)), pool)


def _sizes(v, fmt, what):
    v = np.asarray(v).reshape(-1)
    if v.size != 4:
        raise errors.InvalidArgumentError(None, None, f"{what} must be a 4-D shape vector")
    v = [int(d) for d in v]
    return v if fmt == "NHWC" else [v[0], v[2], v[3], v[1]]


def _check_backprop_dims(label, x_shape, w_shape, dy_shape, strides, dilations, padding,
                         explicit, fmt):
    """TF's ConvBackpropComputeDimensionsV2 checks, in its order and words (then the CPU
    kernel's grouped-convolution check). Shapes are NHWC; the spatial_dim a message names is
    the op's own (NCHW: 2 and 3)."""
    def bad(msg):
        return errors.InvalidArgumentError(None, None, f"{label}: {msg}")
    if len(dy_shape) != 4:
        raise bad("out_backprop must be 4-dimensional")
    n, h, wd, c = x_shape
    kh, kw, ci, co = w_shape
    if n != dy_shape[0]:
        raise bad(f"input and out_backprop must have the same batch size. Input batch: {n}, "
                  f"outbackprop batch: {dy_shape[0]}, batch_dim: 0")
    if ci <= 0:
        raise bad("filter depth must be strictly greated than zero")   # (TF's spelling)
    if c % ci:
        raise bad("input depth must be evenly divisible by filter depth")
    if co != dy_shape[3]:
        raise bad("filter and out_backprop must have the same out_depth")
    first = 1 if fmt == "NHWC" else 2
    ex = explicit or ((0, 0), (0, 0))
    for i, (size, k, got) in enumerate(((h, kh, dy_shape[1]), (wd, kw, dy_shape[2]))):
        s, d = strides[i], dilations[i]
        eff = (k - 1) * d + 1
        if padding == "VALID":
            out = int((size - eff + s) / s)   # C++ division: truncated toward zero
            if out < 0:
                raise errors.InvalidArgumentError(
                    None, None, f"Computed output size would be negative: {out} [input_size: "
                                f"{size}, effective_filter_size: {eff}, stride: {s}]")
        else:
            out = _out_and_pads(size, k, s, d, padding, ex[i])[0]
        if got != out:
            raise bad(f"Size of out_backprop doesn't match computed: actual = {got}, computed = "
                      f"{out} spatial_dim: {first + i} input: {size} filter: {k} output: {got} "
                      f"stride: {s} dilation: {d}")
    if c != ci:
        raise errors.InvalidArgumentError(
            None, None, "Gradients for grouped convolutions are not supported on CPU. Please file "
                        "a feature request if you run into this issue. Computed input depth "
                        f"{c} doesn't match filter input depth {ci}")


@register_kernel("Conv2DBackpropFilter")
def _conv2d_backprop_filter(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.InvalidArgumentError, errors.InvalidArgumentError)

    def conv2d_backprop_filter(x, filter_sizes, dy):
        _raise(err)
        fs = [int(d) for d in np.asarray(filter_sizes).reshape(-1)]
        x, dy = _to_nhwc(x, fmt), _to_nhwc(dy, fmt)
        if x.ndim == 4 and len(fs) == 4:
            _check_backprop_dims("Conv2DCustomBackpropFilter", x.shape, fs, dy.shape, strides,
                                 dilations, padding, explicit, fmt)
        return conv2d_backprop_filter_nhwc(x, fs, dy, strides, dilations, padding, explicit)
    return conv2d_backprop_filter


@register_kernel("Conv2DBackpropInput")
def _conv2d_backprop_input(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.UnimplementedError, errors.UnimplementedError)

    def conv2d_backprop_input(input_sizes, w, dy):
        _raise(err)
        shape = _sizes(input_sizes, fmt, "input_sizes")
        dy = _to_nhwc(dy, fmt)
        if w.ndim == 4:
            _check_backprop_dims("Conv2DCustomBackpropInput", shape, w.shape, dy.shape, strides,
                                 dilations, padding, explicit, fmt)
        return _from_nhwc(conv2d_backprop_input_nhwc(shape, w, dy, strides, dilations, padding,
                                                     explicit), fmt)
    return conv2d_backprop_input


# -- depthwise ---------------------------------------------------------------------------------

def _taps(kh, kw, oh, ow, strides, dilations):
    sh, sw = strides
    dh, dw = dilations
    for a in range(kh):
        for b in range(kw):
            yield a, b, (slice(a * dh, a * dh + (oh - 1) * sh + 1, sh),
                         slice(b * dw, b * dw + (ow - 1) * sw + 1, sw))


# A depthwise tap is one pass over the output (no GEMM is given up), so its exact order is
# affordable for more multiply-adds than a full convolution's
_DEPTHWISE_EXACT_MACS = EXACT_MAX_MACS * 4


def depthwise_nhwc(x, w, strides, dilations, padding, explicit):
    n, h, wd, c = x.shape
    kh, kw, ci, m = w.shape
    if ci != c:
        raise errors.InvalidArgumentError(
            None, None, f"input and filter must have the same depth: {c} vs {ci}")
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    dtype = np.result_type(x, w)
    out = np.zeros((n, max(oh, 0), max(ow, 0), c, m), dtype)
    if out.size == 0:
        return out.reshape(n, max(oh, 0), max(ow, 0), c * m)
    xp_, _ = pad_nhwc(x, ph, pw)
    if dtype == np.float32 and out.size * kh * kw <= _DEPTHWISE_EXACT_MACS:
        # TF's oneDNN kernel: a running FMA over the taps (kh, kw) from 0 (measured on TF 2.21);
        # the product of two float32s is exact in float64, so each step rounds once
        acc = np.zeros(out.shape, np.float64)
        w64 = w.astype(np.float64)
        for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
            acc += xp_[:, rs, cs, :, None] * w64[a, b]
            acc = acc.astype(np.float32).astype(np.float64)
        return acc.astype(np.float32).reshape(n, oh, ow, c * m)
    tmp = np.empty_like(out)
    for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
        np.multiply(xp_[:, rs, cs, :, None], w[a, b], out=tmp)
        out += tmp
    return out.reshape(n, oh, ow, c * m)


def depthwise_backprop_input_nhwc(input_shape, w, dy, strides, dilations, padding, explicit):
    n, h, wd, c = (int(d) for d in input_shape)
    kh, kw, _, m = w.shape
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    dtype = np.result_type(w, dy)
    dxp = np.zeros((n, h + ph[0] + ph[1], wd + pw[0] + pw[1], c), dtype)
    dy5 = dy.reshape(n, oh, ow, c, m)
    if dtype == np.float32 and dy.size * kh * kw <= _DEPTHWISE_EXACT_MACS:
        # TF's oneDNN order: each input's products added by FMA over the taps (kh, kw), the
        # channel multiplier innermost (measured on TF 2.21); float64 then one rounding a step
        acc = np.zeros(dxp.shape, np.float64)
        w64, dy64 = w.astype(np.float64), dy5.astype(np.float64)
        for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
            for j in range(m):
                slab = acc[:, rs, cs, :]
                slab += dy64[..., j] * w64[a, b, :, j]
                acc[:, rs, cs, :] = slab.astype(np.float32)
        dxp = acc.astype(np.float32)
    else:
        for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
            dxp[:, rs, cs, :] += np.einsum("npqcm,cm->npqc", dy5, w[a, b], optimize=True)
    return dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd].copy() if dxp.shape[1:3] != (h, wd) else dxp


def depthwise_backprop_filter_nhwc(x, filter_shape, dy, strides, dilations, padding, explicit):
    n, h, wd, c = x.shape
    kh, kw, _, m = (int(d) for d in filter_shape)
    oh, ow, ph, pw = conv_geometry(h, wd, kh, kw, strides, dilations, padding, explicit)
    dtype = np.result_type(x, dy)
    xp_, _ = pad_nhwc(x, ph, pw)
    dy5 = dy.reshape(n, oh, ow, c, m)
    dw = np.zeros((kh, kw, c, m), dtype)
    for a, b, (rs, cs) in _taps(kh, kw, oh, ow, strides, dilations):
        dw[a, b] = np.einsum("npqc,npqcm->cm", xp_[:, rs, cs, :], dy5, optimize=True)
    return dw


@register_kernel("DepthwiseConv2dNative")
def _depthwise(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.InvalidArgumentError, equal_strides=True, depthwise=True)

    def depthwise_conv2d_native(x, w):
        _raise(err)
        return _from_nhwc(depthwise_nhwc(_to_nhwc(x, fmt), w, strides, dilations, padding, explicit), fmt)
    return depthwise_conv2d_native


@register_kernel("DepthwiseConv2dNativeBackpropInput")
def _depthwise_backprop_input(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.InvalidArgumentError, equal_strides=True)

    def depthwise_backprop_input(input_sizes, w, dy):
        _raise(err)
        shape = _sizes(input_sizes, fmt, "input_sizes")
        return _from_nhwc(depthwise_backprop_input_nhwc(shape, w, _to_nhwc(dy, fmt), strides, dilations,
                                                        padding, explicit), fmt)
    return depthwise_backprop_input


@register_kernel("DepthwiseConv2dNativeBackpropFilter")
def _depthwise_backprop_filter(op, ctx):
    fmt, strides, dilations, padding, explicit = _attrs(op)
    err = _attr_error(op, errors.InvalidArgumentError, equal_strides=True)

    def depthwise_backprop_filter(x, filter_sizes, dy):
        _raise(err)
        fs = [int(d) for d in np.asarray(filter_sizes).reshape(-1)]
        return depthwise_backprop_filter_nhwc(_to_nhwc(x, fmt), fs, _to_nhwc(dy, fmt), strides,
                                              dilations, padding, explicit)
    return depthwise_backprop_filter
