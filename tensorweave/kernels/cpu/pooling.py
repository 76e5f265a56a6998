"""CPU kernels for pooling: MaxPool, AvgPool, their gradients (MaxPoolGrad, MaxPoolGradGrad,
AvgPoolGrad), MaxPoolWithArgmax and MaxPoolGradWithArgmax.

Every kernel is a loop over the KH*KW window taps (a handful), each tap one strided slab of the
padded input, so no Python loop touches pixels or batch elements. Max pooling pads with -inf
(padding never wins) and gives a window's gradient to its *first* maximum in row-major order,
like TF's CPU kernels; average pooling divides by the number of real (unpadded) elements.

Max and average pooling are separable (over the window rows, then over its columns). The max-pool gradient
stores the first tap of each stride phase into a zeroed result (masked copies) and adds only the
later, overlapping ones, so non-overlapping windows (ksize == strides, LeNet's 2x2 pools) need no
read-modify-write pass at all. In float32 on AVX-512, MaxPool and that tiled gradient are one
machine-code pass each (max_pool.c, same order and bits, NaN and signed zeros included).
"""

import ctypes

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import machine_code
from .conv import conv_geometry, pad_nhwc
from .parallel import batch_slices, parallel_map

__all__ = []


def _lowest(dtype):
    dtype = np.dtype(dtype)
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _pool_attrs(op):
    fmt = op._get_attr("data_format")
    k, s = list(op._get_attr("ksize")), list(op._get_attr("strides"))
    if fmt == "NHWC":
        ks, ss, other = (k[1], k[2]), (s[1], s[2]), (k[0], k[3], s[0], s[3])
    else:
        ks, ss, other = (k[2], k[3]), (s[2], s[3]), (k[0], k[1], s[0], s[1])
    if any(v != 1 for v in other):
        raise errors.UnimplementedError(
            None, None, "Pooling is not yet supported on the batch nor depth dimensions.")
    explicit = None
    padding = op._get_attr("padding")
    if padding == "EXPLICIT":
        ex = list(op._get_attr("explicit_paddings"))
        pairs = [(ex[2 * i], ex[2 * i + 1]) for i in range(4)]
        explicit = (pairs[1], pairs[2]) if fmt == "NHWC" else (pairs[2], pairs[3])
    return fmt, ks, ss, padding, explicit


def _nhwc(x, fmt):
    return x if fmt == "NHWC" else x.transpose(0, 2, 3, 1)


def _back(y, fmt):
    return y if fmt == "NHWC" else np.ascontiguousarray(y.transpose(0, 3, 1, 2))


def _taps(ks, ss, oh, ow):
    for a in range(ks[0]):
        for b in range(ks[1]):
            yield a, b, (slice(None), slice(a, a + (oh - 1) * ss[0] + 1, ss[0]),
                         slice(b, b + (ow - 1) * ss[1] + 1, ss[1]))


def _geometry(x_shape, ks, ss, padding, explicit):
    n, h, w, c = x_shape
    oh, ow, ph, pw = conv_geometry(h, w, ks[0], ks[1], ss, (1, 1), padding, explicit)
    if oh <= 0 or ow <= 0:
        raise errors.InvalidArgumentError(
            None, None, f"Computed output size would be negative: {oh} [input_size: {h}, "
                        f"effective_filter_size: {ks[0]}, stride: {ss[0]}]")
    return oh, ow, ph, pw


def _max_of(views, copy=True, out=None):
    """Elementwise max of equally shaped views (into `out`, else a new array; the lone view
    itself when there is only one and copy is False)."""
    if len(views) == 1:
        if out is not None:
            np.copyto(out, views[0])
            return out
        return views[0].copy() if copy else views[0]
    out = np.maximum(views[0], views[1], out=out)
    for v in views[2:]:
        np.maximum(out, v, out=out)
    return out


def _separable_max_pool_into(out, x, ks, ss, oh, ow, ph, pw):
    """out = the max pool of x: the max over the window's rows first (whole padded rows, long
    contiguous runs), then over its columns: KH + KW passes instead of KH * KW short-run ones.
    In float32 on AVX-512, one machine-code pass in the same order (max_pool.c)."""
    xp_, _ = pad_nhwc(x, ph, pw, value=_lowest(x.dtype))
    kernel = _kernel("max_pool") if x.dtype == out.dtype == np.float32 else None
    if kernel is not None and out.flags.c_contiguous:
        xp_ = np.ascontiguousarray(xp_)
        n, h, w, c = xp_.shape
        if out.size:
            kernel(xp_.ctypes.data, out.ctypes.data, n, h, w, c, oh, ow, ks[0], ks[1], ss[0], ss[1])
        return
    rows = _max_of([xp_[:, a:a + (oh - 1) * ss[0] + 1:ss[0]] for a in range(ks[0])], copy=False)
    _max_of([rows[:, :, b:b + (ow - 1) * ss[1] + 1:ss[1]] for b in range(ks[1])], out=out)


def max_pool_nhwc(x, ks, ss, padding, explicit=None, with_tap=False):
    oh, ow, ph, pw = _geometry(x.shape, ks, ss, padding, explicit)
    if not with_tap:
        out = np.empty((x.shape[0], oh, ow, x.shape[3]), x.dtype)
        # Windows never straddle images: in a splitting step each worker pools a batch slice.
        parallel_map(lambda s: _separable_max_pool_into(out[s[0]:s[1]], x[s[0]:s[1]], ks, ss, oh, ow,
                                                         ph, pw),
                     batch_slices(x.shape[0], x.size * ks[0]))
        return out
    xp_, _ = pad_nhwc(x, ph, pw, value=_lowest(x.dtype))
    out = None
    best = None
    for a, b, sl in _taps(ks, ss, oh, ow):
        tap = xp_[sl]
        if out is None:
            out = tap.copy()
            best = np.zeros(out.shape, np.int32)
            continue
        better = tap > out
        best[better] = a * ks[1] + b
        np.maximum(out, tap, out=out)
    return out, best, ph, pw


def _first_max_masks(xp_, y, ks, ss, oh, ow):
    """Yields (a, b, slices, mask) per tap in row-major order: mask marks the outputs whose
    window has its *first* maximum at that tap (TF's tie rule). The mask is reused."""
    m = np.empty(y.shape, bool)
    remaining = None            # outputs whose maximum has not been found yet
    last = ks[0] * ks[1] - 1
    for a, b, sl in _taps(ks, ss, oh, ow):
        np.equal(xp_[sl], y, out=m)
        if remaining is None:
            remaining = np.logical_not(m)
        else:
            m &= remaining
            if a * ks[1] + b != last:
                remaining ^= m  # m is a subset of remaining
        yield a, b, sl, m


def _zero_unwritten(dxp, ks, ss, oh, ow):
    """Zeroes the elements of dxp that the first tap of each stride phase does not cover.

    Tap (a, b) writes the slab dxp[:, a::s0, b::s1][:, :OH, :OW]; taps with a < s0 and b < s1
    are the first (in row-major order) of their phase (a mod s0, b mod s1) and so can *store*
    their contribution instead of adding it to zeros, the later taps of the phase add. When
    windows do not overlap (ksize == strides) every tap is first: no adds, no zero fill."""
    s0, s1 = ss
    for ra in range(s0):
        for rb in range(s1):
            v = dxp[:, ra::s0, rb::s1]
            if ra < ks[0] and rb < ks[1]:
                v[:, oh:] = 0
                v[:, :oh, ow:] = 0
            else:
                v[...] = 0


def _crop(dxp, h, w, ph, pw):
    if not (ph[0] or ph[1] or pw[0] or pw[1]):
        return dxp
    return np.ascontiguousarray(dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w])


@register_kernel("MaxPool")
def _max_pool(op, ctx):
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def max_pool(x):
        if x.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "input must be 4-dimensional")
        return _back(max_pool_nhwc(_nhwc(x, fmt), ks, ss, padding, explicit), fmt)
    return max_pool


_INT_OF = {2: np.int16, 4: np.int32, 8: np.int64}


def _select_into(out, values, m):
    """out = values where m, else +0.0 (not values * m, which gives -0.0 or NaN off the mask):
    the bits of values ANDed with all-ones where m, 10x faster than a masked copy or np.where
    into a strided slab."""
    it = _INT_OF.get(values.dtype.itemsize) if values.dtype.kind == "f" else None
    if it is None:
        out[...] = np.where(m, values, values.dtype.type(0))
        return
    ones = np.subtract(it(0), m, dtype=it)       # -1: all bits set
    np.bitwise_and(values.view(it), ones, out=out.view(it))


def _max_pool_grad_into(out, x, y, g, ks, ss, padding, explicit, store=False):
    """out (NHWC, x's shape) = the gradient of max pooling x into y, given y's gradient g: zeros,
    plus g[o] at the first maximum of each window o, as TF's kernel adds into a zeroed output
    (so -0.0 becomes 0.0 and nothing but the maximum sees an inf or NaN of g). With `store`
    (non-overlapping windows only) g[o] is stored as it is instead. The first tap of each stride
    phase stores g or +0.0 over its whole slab, so only what no such tap covers is zeroed."""
    n, h, w, c = x.shape
    oh, ow, ph, pw = _geometry(x.shape, ks, ss, padding, explicit)
    if tuple(ks) == tuple(ss) and not (ph[0] or ph[1] or pw[0] or pw[1]) and \
            g.dtype.itemsize in _INT_OF and g.dtype.kind == "f":
        _tiled_max_pool_grad_into(out, x, y, g if store else g + g.dtype.type(0), ks)
        return
    xp_, _ = pad_nhwc(x, ph, pw, value=_lowest(x.dtype))
    padded = xp_ is not x
    dxp = np.empty(xp_.shape, g.dtype) if padded else out
    _zero_unwritten(dxp, ks, ss, oh, ow)
    # The first tap of each stride phase sees zeros: 0 + g is a store of g + 0 (-0.0 -> 0.0).
    first = g if store else g + g.dtype.type(0)
    tmp = None
    for a, b, sl, m in _first_max_masks(xp_, y, ks, ss, oh, ow):
        if a < ss[0] and b < ss[1]:
            _select_into(dxp[sl], first, m)
        else:
            if tmp is None:
                tmp = np.empty(g.shape, g.dtype)
            _select_into(tmp, g, m)
            dxp[sl] += tmp
    if padded:
        out[...] = dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]


def _map_max_pool():
    from . import _max_pool_code as generated
    P, I = ctypes.c_void_p, ctypes.c_int64
    page, fns = machine_code.load(generated, {
        "max_pool": ctypes.CFUNCTYPE(None, P, P, *[I] * 10),
        "max_pool_grad_tiled": ctypes.CFUNCTYPE(None, P, P, P, P, *[I] * 8)})
    fns["_page"] = page             # (the mapping lives as long as the functions)
    return fns


# max_pool.c's float32 kernels, or {}: no AVX-512F, not x86-64 Linux, or TENSORWEAVE_DIRECT_CONV=0
# (the one switch of conv.py's and pooling.py's machine code)
_native = machine_code.Loader(_map_max_pool, {"avx512f"}, "TENSORWEAVE_DIRECT_CONV")


def _kernel(name):
    return _native().get(name)


def _tiled_max_pool_grad_into(out, x, y, g, ks):
    """_max_pool_grad_into for windows that tile x (ksize == strides, no padding; rows and
    columns past the last window get zeros): every tap stores, so out = g at the first maximum
    of each window, +0.0 elsewhere. In float32 on AVX-512 one machine-code pass does it
    (max_pool_grad.c, 4x faster). Otherwise the taps are a transposed 6-D view of x, so each pass
    is one NumPy call over all taps (2x faster than a pass per tap): the masks of all taps at
    once, the first-maximum rule by a running OR over taps, and one bitwise AND that writes every
    tap (25% faster than a pass per tap for LeNet's pools)."""
    n, h, w, c = x.shape
    kh, kw = ks
    oh, ow = y.shape[1], y.shape[2]
    th, tw = oh * kh, ow * kw
    kernel = _kernel("max_pool_grad_tiled") if x.dtype == y.dtype == g.dtype == out.dtype == np.float32 \
        else None
    if kernel is not None and out.flags.c_contiguous:
        x, y, g = (np.ascontiguousarray(a) for a in (x, y, g))
        if n * oh * ow * c:
            kernel(x.ctypes.data, y.ctypes.data, g.ctypes.data, out.ctypes.data,
                   n, h, w, c, oh, ow, kh, kw)
        if th < h:
            out[:, th:] = 0
        if tw < w:
            out[:, :th, tw:] = 0
        return

    def taps(a):            # (KH, KW, N, OH, OW, C) view of the windows' elements
        return a[:, :th, :tw].reshape(n, oh, kh, ow, kw, c).transpose(2, 4, 0, 1, 3, 5)
    taps_first = np.empty((kh, kw) + y.shape, bool)
    np.equal(taps(x), y, out=taps_first)
    eq = taps_first.reshape(kh * kw, -1)
    if kh * kw > 1:
        seen = eq[0].copy()             # windows whose maximum an earlier tap holds
        for t in range(1, kh * kw):
            hit = eq[t] > seen          # eq and not seen: this tap is the first maximum
            if t + 1 < kh * kw:
                seen |= eq[t]
            eq[t] = hit
    it = _INT_OF[g.dtype.itemsize]
    # int8 -1 (all bits) at first maxima, widened by the AND's cast: a quarter of the memory
    # traffic of a full-width mask.
    ones = np.negative(taps_first.view(np.int8))
    np.bitwise_and(g.view(it), ones, out=taps(out.view(it)))
    if th < h:
        out[:, th:] = 0
    if tw < w:
        out[:, :th, tw:] = 0


def _pool_grad(x, y, g, ks, ss, padding, explicit, store=False):
    out = np.empty(x.shape, g.dtype)
    # Windows never straddle images: in a splitting step each worker takes a slice of the
    # batch (the mask passes are compute-bound enough to scale).
    parallel_map(lambda s: _max_pool_grad_into(out[s[0]:s[1]], x[s[0]:s[1]], y[s[0]:s[1]],
                                               g[s[0]:s[1]], ks, ss, padding, explicit, store),
                 batch_slices(x.shape[0], x.size * 4))
    return out


@register_kernel("MaxPoolGrad")
def _max_pool_grad(op, ctx):
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def max_pool_grad(x, y, g):
        x, y, g = _nhwc(x, fmt), _nhwc(y, fmt), _nhwc(g, fmt)
        _geometry(x.shape, ks, ss, padding, explicit)      # (its errors before any work)
        return _back(_pool_grad(x, y, g, ks, ss, padding, explicit), fmt)
    return max_pool_grad


@register_kernel("_MaxPoolGradReluGrad")
def _max_pool_grad_relu_grad(op, ctx):
    """ReluGrad(MaxPoolGrad(r, p, g), r) for r = Relu(...) and p = MaxPool(r) with windows that
    do not overlap (runtime/fusion.py): a window's maximum holds r == p[o], so the ReLU mask there
    is p[o] > 0 and ((0 + g) * mask) is computed on the pooled gradient, then stored; elsewhere
    0 * mask is 0. The same bits as the two kernels, one full-size pass fewer."""
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def max_pool_grad_relu_grad(r, p, g):
        r, p, g = _nhwc(r, fmt), _nhwc(p, fmt), _nhwc(g, fmt)
        _geometry(r.shape, ks, ss, padding, explicit)
        h = g + g.dtype.type(0)
        mask = np.empty(p.shape, g.dtype)
        np.greater(p, 0, out=mask)
        h *= mask
        return _back(_pool_grad(r, p, h, ks, ss, padding, explicit, store=True), fmt)
    return max_pool_grad_relu_grad


@register_kernel("MaxPoolGradGrad")
def _max_pool_grad_grad(op, ctx):
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def max_pool_grad_grad(x, y, gg):
        x, y, gg = _nhwc(x, fmt), _nhwc(y, fmt), _nhwc(gg, fmt)
        oh, ow, ph, pw = _geometry(x.shape, ks, ss, padding, explicit)
        xp_, _ = pad_nhwc(x, ph, pw, value=_lowest(x.dtype))
        gp, _ = pad_nhwc(gg, ph, pw, value=0)
        out = np.zeros(y.shape, gg.dtype)
        for _, _, sl, m in _first_max_masks(xp_, y, ks, ss, oh, ow):
            np.copyto(out, gp[sl], where=m)
        return _back(out, fmt)
    return max_pool_grad_grad


def _window_counts(h, w, ks, ss, oh, ow, ph, pw, dtype):
    def counts(size, k, s, o, lo):
        start = np.arange(o) * s - lo
        return (np.minimum(start + k, size) - np.maximum(start, 0)).astype(dtype)
    return counts(h, ks[0], ss[0], oh, ph[0])[:, None, None] * counts(w, ks[1], ss[1], ow, pw[0])[None, :, None]


@register_kernel("AvgPool")
def _avg_pool(op, ctx):
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def avg_pool(x):
        if x.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "input must be 4-dimensional")
        x = _nhwc(x, fmt)
        n, h, w, c = x.shape
        oh, ow, ph, pw = _geometry(x.shape, ks, ss, padding, explicit)
        xp_, _ = pad_nhwc(x, ph, pw, value=0)
        # TF's order (Eigen's mean reducer over the window): 0 + the taps one by one, row-major,
        # then / the count of in-image taps. (Padding adds +0.0: no change, as the sum starts at
        # +0.0 it is never -0.0.)
        out = None
        for _, _, sl in _taps(ks, ss, oh, ow):
            if out is None:
                out = np.add(x.dtype.type(0), xp_[sl])
            else:
                out += xp_[sl]
        out /= _window_counts(h, w, ks, ss, oh, ow, ph, pw, x.dtype)
        return _back(out, fmt)
    return avg_pool


@register_kernel("AvgPoolGrad")
def _avg_pool_grad(op, ctx):
    fmt, ks, ss, padding, explicit = _pool_attrs(op)

    def avg_pool_grad(shape, g):
        shape = [int(d) for d in np.asarray(shape).reshape(-1)]
        if fmt != "NHWC":
            shape = [shape[0], shape[2], shape[3], shape[1]]
        g = _nhwc(g, fmt)
        n, h, w, c = shape
        oh, ow, ph, pw = _geometry(shape, ks, ss, padding, explicit)
        if g.shape != (n, oh, ow, c):
            raise errors.InvalidArgumentError(None, None, "AvgPoolGrad: gradient has the wrong shape")
        # TF's kernel: g times the window's 1 / count (a double rounded to the dtype), added
        # into zeros output by output in row-major order: for any input element that is the
        # taps in reverse row-major order. (Adding into zeros turns a -0.0 gradient into +0.0.)
        counts = _window_counts(h, w, ks, ss, oh, ow, ph, pw, np.float64)
        gs = g * (1.0 / counts).astype(g.dtype)
        dxp = np.zeros((n, h + ph[0] + ph[1], w + pw[0] + pw[1], c), g.dtype)
        for _, _, sl in reversed(list(_taps(ks, ss, oh, ow))):
            dxp[sl] += gs
        return _back(_crop(dxp, h, w, ph, pw), fmt)
    return avg_pool_grad


@register_kernel("MaxPoolWithArgmax")
def _max_pool_with_argmax(op, ctx):
    _, ks, ss, padding, explicit = _pool_attrs(op)
    with_batch = bool(op._get_attr("include_batch_in_index"))
    targ = op._get_attr("Targmax").as_numpy_dtype

    def max_pool_with_argmax(x):
        n, h, w, c = x.shape
        out, best, ph, pw = max_pool_nhwc(x, ks, ss, padding, explicit, with_tap=True)
        oh, ow = out.shape[1:3]
        a, b = np.divmod(best, ks[1])
        yy = (np.arange(oh) * ss[0] - ph[0])[None, :, None, None] + a
        xx = (np.arange(ow) * ss[1] - pw[0])[None, None, :, None] + b
        idx = (yy.astype(np.int64) * w + xx) * c + np.arange(c)
        if with_batch:
            idx = idx + (np.arange(n, dtype=np.int64) * (h * w * c))[:, None, None, None]
        return out, idx.astype(targ)
    return max_pool_with_argmax


@register_kernel("MaxPoolGradWithArgmax")
def _max_pool_grad_with_argmax(op, ctx):
    with_batch = bool(op._get_attr("include_batch_in_index"))

    def max_pool_grad_with_argmax(x, g, argmax):
        n = x.shape[0]
        per = x.size // n if n else 0
        idx = argmax.astype(np.int64)
        if not with_batch:
            idx = idx + (np.arange(n, dtype=np.int64) * per).reshape((n,) + (1,) * (idx.ndim - 1))
        if idx.size and (idx.min() < 0 or idx.max() >= x.size):
            raise errors.InvalidArgumentError(None, None, "Invalid argmax index")
        dx = np.bincount(idx.reshape(-1), weights=g.reshape(-1), minlength=x.size)
        return dx.astype(g.dtype).reshape(x.shape)
    return max_pool_grad_with_argmax


# -- fractional pooling (Graham, "Fractional Max-Pooling") -------------------------------------
#
# The pooling sequences come from the op's Philox stream exactly as TF's GeneratePoolingSequence
# draws them (rows first, then columns), so seeded programs get TF's regions. The pooling itself
# loops over the offsets inside a region (a handful) for all output cells at once, adding in TF's
# row-major order so float sums round as TF's do.

def _pooling_sequence(stream, n_in, n_out, pseudo_random):
    from .random import _words, uint64_to_double
    if pseudo_random:
        alpha = n_in / n_out
        k = n_in // n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        w = _words(stream, stream.reserve(1), 2)  # ReserveSamples32(2): one block, RandDouble
        u = float(uint64_to_double(w[0:1], w[1:2])[0]) * max_u
        cum = [1] + [int(np.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
        diff = [cum[i + 1] - cum[i] for i in range(n_out)]
    else:
        k, spots = divmod(n_in, n_out)
        diff = [k + 1] * spots + [k] * (n_out - spots)
        w = _words(stream, stream.reserve(-(-n_out // 4)), n_out).tolist()
        for i in range(n_out - 1):  # TF's RandomShuffle: i swaps with i + sample % (n - i)
            j = i + w[i] % (n_out - i)
            diff[i], diff[j] = diff[j], diff[i]
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _regions(seq, n_in, overlapping):
    """Per output cell: (start, length) along one axis, ends clipped to the input."""
    seq = np.asarray(seq, np.int64)
    start = seq[:-1]
    end = np.minimum(seq[1:] if overlapping else seq[1:] - 1, n_in - 1)
    return start, end - start + 1


def _fractional_walk(x, rows, cols, overlapping):
    """Yields (valid mask [oh, ow], row index [oh, 1], col index [1, ow]) per region offset, in
    TF's order (row offsets outer, column offsets inner)."""
    (rs, rl), (cs, cl) = _regions(rows, x.shape[1], overlapping), _regions(cols, x.shape[2], overlapping)
    for dh in range(int(rl.max(initial=0))):
        for dw in range(int(cl.max(initial=0))):
            valid = (dh < rl)[:, None] & (dw < cl)[None, :]
            r = np.minimum(rs + dh, x.shape[1] - 1)[:, None]
            c = np.minimum(cs + dw, x.shape[2] - 1)[None, :]
            yield valid, r, c


def _check_sequences(x, rows, cols):
    if x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "tensor_in must be 4-dimensional")
    for seq, n in ((rows, x.shape[1]), (cols, x.shape[2])):
        if seq.size < 2 or seq[0] < 0 or seq[-1] > n or np.any(np.diff(seq) < 0):
            raise errors.InvalidArgumentError(None, None, "Pooling sequence is not valid for the input.")


def _fractional_setup(op, ctx):
    from .random import _stream
    stream = _stream(op, ctx)
    ratio = list(op._get_attr("pooling_ratio"))
    pseudo, overlapping = op._get_attr("pseudo_random"), op._get_attr("overlapping")
    deterministic = op._get_attr("deterministic")
    if not deterministic and (op._get_attr("seed") or op._get_attr("seed2")):
        raise errors.InvalidArgumentError(None, None, "Both seed and seed2 should be 0 if deterministic is false.")
    # TF's kernel (one per op and session) keeps a deterministic op's first regions: so do we, in
    # the session's resources, which every plan running this op shares
    cache = ctx.resources.lookup_or_create("fractional_pool", op.name, dict)

    def sequences(x):
        if x.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "tensor_in must be 4-dimensional")
        out = [int(np.floor(d / r)) for d, r in zip(x.shape, ratio)]
        if any(o <= 0 for o in out):
            raise errors.InvalidArgumentError(None, None, "Output size must be positive; the pooling ratio is "
                                                          "larger than the input.")
        if deterministic and "seq" in cache:  # TF keeps the first regions of a deterministic op
            return out, cache["seq"]
        seq = (_pooling_sequence(stream, x.shape[1], out[1], pseudo),
               _pooling_sequence(stream, x.shape[2], out[2], pseudo))
        if deterministic:
            cache["seq"] = seq
        return out, seq
    return sequences, overlapping


@register_kernel("FractionalMaxPool")
def _fractional_max_pool(op, ctx):
    sequences, overlapping = _fractional_setup(op, ctx)

    def fractional_max_pool(x):
        x = np.asarray(x)
        out, (rows, cols) = sequences(x)
        y = np.full((x.shape[0], out[1], out[2], x.shape[3]), _lowest(x.dtype), x.dtype)
        for valid, r, c in _fractional_walk(x, rows, cols, overlapping):
            y = np.where(valid[None, :, :, None], np.maximum(y, x[:, r, c, :]), y)
        return y, rows, cols
    return fractional_max_pool


@register_kernel("FractionalMaxPoolGrad")
def _fractional_max_pool_grad(op, ctx):
    overlapping = op._get_attr("overlapping")

    def fractional_max_pool_grad(x, y, g, rows, cols):
        x, g = np.asarray(x), np.asarray(g)
        rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
        _check_sequences(x, rows, cols)
        n, c_ = x.shape[0], x.shape[3]
        best = np.full(g.shape, _lowest(x.dtype), x.dtype)
        arg_r = np.full(g.shape, -1, np.int64)
        arg_c = np.full(g.shape, -1, np.int64)
        for valid, r, c in _fractional_walk(x, rows, cols, overlapping):
            v = x[:, r, c, :]
            take = valid[None, :, :, None] & ((best < v) | (arg_r < 0))  # the first maximum wins
            best = np.where(take, v, best)
            arg_r = np.where(take, np.broadcast_to(r[None, :, :, None], take.shape), arg_r)
            arg_c = np.where(take, np.broadcast_to(c[None, :, :, None], take.shape), arg_c)
        dx = np.zeros(x.shape, g.dtype)
        b = np.broadcast_to(np.arange(n)[:, None, None, None], g.shape)
        d = np.broadcast_to(np.arange(c_)[None, None, None, :], g.shape)
        np.add.at(dx, (b, arg_r, arg_c, d), g)
        return dx
    return fractional_max_pool_grad


@register_kernel("FractionalAvgPool")
def _fractional_avg_pool(op, ctx):
    sequences, overlapping = _fractional_setup(op, ctx)

    def fractional_avg_pool(x):
        x = np.asarray(x)
        out, (rows, cols) = sequences(x)
        acc = np.zeros((x.shape[0], out[1], out[2], x.shape[3]), x.dtype)
        count = np.zeros((out[1], out[2]), np.int64)
        for valid, r, c in _fractional_walk(x, rows, cols, overlapping):
            acc = np.where(valid[None, :, :, None], acc + x[:, r, c, :], acc)
            count += valid
        if x.dtype.kind == "f":
            y = (acc / count[None, :, :, None].astype(x.dtype)).astype(x.dtype)
        else:
            y = (acc // count[None, :, :, None]).astype(x.dtype)
        return y, rows, cols
    return fractional_avg_pool


@register_kernel("FractionalAvgPoolGrad")
def _fractional_avg_pool_grad(op, ctx):
    overlapping = op._get_attr("overlapping")

    def fractional_avg_pool_grad(shape, g, rows, cols):
        shape = [int(d) for d in np.asarray(shape).reshape(-1)]
        g = np.asarray(g)
        rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
        if len(shape) != 4:
            raise errors.InvalidArgumentError(None, None, "Original input tensor must be 4-dimensional.")
        dx = np.zeros(shape, np.float64)  # TF accumulates in double
        rs, rl = _regions(rows, shape[1], overlapping)
        cs, cl = _regions(cols, shape[2], overlapping)
        share = g.astype(np.float64) / (rl[:, None] * cl[None, :])[None, :, :, None]
        for i in range(rs.size):
            for j in range(cs.size):
                dx[:, rs[i]:rs[i] + rl[i], cs[j]:cs[j] + cl[j], :] += share[:, i:i + 1, j:j + 1, :]
        return dx.astype(g.dtype)
    return fractional_avg_pool_grad
