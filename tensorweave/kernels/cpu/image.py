"""CPU kernels for the resize ops and their gradients, in TF's arithmetic: a source coordinate
per output row/column (legacy `out * scale`, or `(out + 0.5) * scale - 0.5` with half-pixel
centers; scale = in / out, or (in - 1) / (out - 1) with align_corners), in float32 like TF, then
a gather along height and width. The area resize and both gradients are separable, so they are
two small matrix products (or scatter-adds) per image."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _scale(n_in, n_out, align_corners):
    if align_corners and n_out > 1:
        return np.float32((n_in - 1) / np.float32(n_out - 1))
    return np.float32(n_in / np.float32(n_out))


def _check(images, size, name="input", align=False, half=False):
    if align and half:  # TF's ImageResizerState checks the attrs first
        raise _invalid("If half_pixel_centers is True, align_corners must be False.")
    images = np.asarray(images)
    if images.ndim != 4:
        raise _invalid(f"{name} must be 4-dimensional{images.shape}")
    size = np.asarray(size).reshape(-1)
    if size.shape != (2,):
        raise _invalid(f"shape_t must be 1-dimensional {size.shape}")
    h, w = int(size[0]), int(size[1])
    if h <= 0 or w <= 0:
        raise _invalid("output dimensions must be positive")
    if images.shape[1] <= 0 or images.shape[2] <= 0:
        raise _invalid("input image must be of non-zero size")
    return images, h, w


def _linear_weights(n_in, n_out, align_corners, half_pixel):
    """(lower index, upper index, lerp) per output position, as TF computes them."""
    scale = _scale(n_in, n_out, align_corners)
    i = np.arange(n_out, dtype=np.float32)
    x = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale
    fl = np.floor(x)
    lo = np.maximum(fl.astype(np.int64), 0)
    hi = np.minimum(np.ceil(x).astype(np.int64), n_in - 1)
    return lo, hi, (x - fl).astype(np.float32)


def _nearest_index(n_in, n_out, align_corners, half_pixel):
    scale = _scale(n_in, n_out, align_corners)
    i = np.arange(n_out, dtype=np.float32)
    x = (i + np.float32(0.5)) * scale if half_pixel else i * scale
    idx = np.floor(x + np.float32(0.5)) if align_corners else np.floor(x)  # roundf for x >= 0
    idx = np.minimum(idx.astype(np.int64), n_in - 1)
    return np.maximum(idx, 0)


@register_kernel("ResizeBilinear")
def _resize_bilinear(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_bilinear(images, size):
        images, h, w = _check(images, size, align=align, half=half)
        x = images.astype(np.float32, copy=False)
        y0, y1, dy = _linear_weights(x.shape[1], h, align, half)
        x0, x1, dx = _linear_weights(x.shape[2], w, align, half)
        dx = dx[None, None, :, None]
        top, bottom = x[:, y0], x[:, y1]
        top_left, top_right = top[:, :, x0], top[:, :, x1]
        bottom_left, bottom_right = bottom[:, :, x0], bottom[:, :, x1]
        t = top_left + (top_right - top_left) * dx
        b = bottom_left + (bottom_right - bottom_left) * dx
        return (t + (b - t) * dy[None, :, None, None]).astype(np.float32, copy=False)
    return resize_bilinear


@register_kernel("ResizeBilinearGrad")
def _resize_bilinear_grad(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_bilinear_grad(grads, original):
        # TF's loop: each float32 product grad * y_weight * x_weight, cast to the image's dtype,
        # added to its input pixel in the order (output row, column, corner); np.add.at adds
        # repeated indices in that order.
        g, original = np.asarray(grads, np.float32), np.asarray(original)
        b, ho, wo, c = g.shape
        h, w = original.shape[1:3]
        y0, y1, ly = _linear_weights(h, ho, align, half)
        x0, x1, lx = _linear_weights(w, wo, align, half)
        one = np.float32(1)
        top, bottom = g * (one - ly)[None, :, None, None], g * ly[None, :, None, None]
        ix, lx = (one - lx)[None, None, :, None], lx[None, None, :, None]
        # (a float16 image's gradient is accumulated in float32 and cast once, as TF does)
        acc = np.float32 if original.dtype == np.float16 else original.dtype
        vals = np.stack([top * ix, top * lx, bottom * ix, bottom * lx], axis=3).astype(acc)
        idx = np.stack([y0[:, None] * w + x0[None, :], y0[:, None] * w + x1[None, :],
                        y1[:, None] * w + x0[None, :], y1[:, None] * w + x1[None, :]], axis=-1)
        out = np.zeros((b, h * w, c), acc)
        np.add.at(out, (slice(None), idx.reshape(-1)), vals.reshape(b, -1, c))
        return out.reshape(b, h, w, c).astype(original.dtype, copy=False)
    return resize_bilinear_grad


@register_kernel("ResizeNearestNeighbor")
def _resize_nearest(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_nearest(images, size):
        images, h, w = _check(images, size, align=align, half=half)
        yi = _nearest_index(images.shape[1], h, align, half)
        xi = _nearest_index(images.shape[2], w, align, half)
        return images[:, yi][:, :, xi]
    return resize_nearest


@register_kernel("ResizeNearestNeighborGrad")
def _resize_nearest_grad(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_nearest_grad(grads, size):
        grads = np.asarray(grads)
        size = np.asarray(size).reshape(-1)
        h, w = int(size[0]), int(size[1])
        yi = _nearest_index(h, grads.shape[1], align, half)
        xi = _nearest_index(w, grads.shape[2], align, half)
        out = np.zeros((grads.shape[0], h, w, grads.shape[3]), grads.dtype)
        np.add.at(out, (slice(None), yi[:, None], xi[None, :]), grads)
        return out
    return resize_nearest_grad


def _area_matrix(n_in, n_out, align):
    """A [n_out, n_in]: the overlap of output cell o ([o * s, (o + 1) * s)) with input cell i,
    divided by s (TF's ResizeArea, input indices clamped to the image)."""
    s = float(_scale(n_in, n_out, align))
    m = np.zeros((n_out, n_in), np.float64)
    for o in range(n_out):
        a, b = o * s, (o + 1) * s
        for i in range(int(np.floor(a)), int(np.ceil(b))):
            wgt = min(i + 1, b) - max(i, a)
            m[o, min(i, n_in - 1)] += wgt / s
    return m


def _area_taps(n_in, n_out, scale):
    """Per output position: clamped input indices [n_out, K] and float32 weights [n_out, K] (0
    past the last tap), computed as TF's ResizeArea does in float32 for rows and columns alike:
    a covered cell weighs its overlap with [o * scale, (o + 1) * scale), middle cells 1."""
    o = np.arange(n_out, dtype=np.float32)
    a, b = o * scale, (o + 1) * scale
    start, end = np.floor(a).astype(np.int64), np.ceil(b).astype(np.int64)
    k = int((end - start).max())
    idx = start[:, None] + np.arange(k)[None, :]
    last = (end - 1)[:, None]
    one = np.float32(1)
    i = idx.astype(np.float32)
    w = np.where(i < a[:, None],
                 np.where(i + one > b[:, None], scale, i + one - a[:, None]),
                 np.where(i + one > b[:, None], b[:, None] - i, one)).astype(np.float32)
    w = np.where(idx <= last, w, np.float32(0)).astype(np.float32)
    return np.clip(idx, 0, n_in - 1), w


@register_kernel("ResizeArea")
def _resize_area(op, ctx):
    align = op._get_attr("align_corners")

    def resize_area(images, size):
        images, h, w = _check(images, size)
        x = images.astype(np.float32, copy=False)
        hs, ws = _scale(x.shape[1], h, align), _scale(x.shape[2], w, align)
        yi, yw = _area_taps(x.shape[1], h, hs)
        xi, xw = _area_taps(x.shape[2], w, ws)
        # Sums in TF's float32 order: along x per input row, then rows weighted, then * scale.
        sum_y = x[:, :, xi[:, 0]] * xw[None, None, :, 0, None]
        for k in range(1, xi.shape[1]):
            sum_y = sum_y + x[:, :, xi[:, k]] * xw[None, None, :, k, None]
        out = sum_y[:, yi[:, 0]] * yw[None, :, 0, None, None]
        for k in range(1, yi.shape[1]):
            out = out + sum_y[:, yi[:, k]] * yw[None, :, k, None, None]
        return out * np.float32(1.0 / float(np.float32(hs * ws)))
    return resize_area


# -- bicubic -------------------------------------------------------------------------------------

_TABLE = 1 << 10


def _cubic_table(a):
    """TF's coefficient table: entry i holds the weights of the near and far taps at
    distance i / 1024 (Keys' cubic convolution with parameter a)."""
    x = np.arange(_TABLE + 1, dtype=np.float64) / _TABLE
    near = (((a + 2) * x - (a + 3)) * x * x + 1).astype(np.float32)
    x = x + 1.0
    far = (((a * x - 5 * a) * x + 8 * a) * x - 4 * a).astype(np.float32)
    return near, far


_TABLES = {False: _cubic_table(-0.75), True: _cubic_table(-0.5)}


def _cubic_weights(n_in, n_out, align, half):
    """(indices [n_out, 4], weights [n_out, 4]) per output position: the legacy kernel (a=-0.75)
    clamps taps to the border; half-pixel centers (Keys, a=-0.5) zero taps outside the image
    and renormalize, as TF."""
    scale = _scale(n_in, n_out, align)
    i = np.arange(n_out, dtype=np.float32)
    loc = (i + np.float32(0.5)) * scale - np.float32(0.5) if half else i * scale
    base = np.floor(loc).astype(np.int64)
    delta = (loc - base).astype(np.float32)
    off = np.rint(delta * np.float32(_TABLE)).astype(np.int64)
    near, far = _TABLES[bool(half)]
    w = np.stack([far[off], near[off], near[_TABLE - off], far[_TABLE - off]], axis=1)
    raw = base[:, None] + np.arange(-1, 3)[None, :]
    idx = np.clip(raw, 0, n_in - 1)
    if half:
        w = np.where(idx == raw, w, np.float32(0)).astype(np.float32)
        total = w[:, 0] + w[:, 1] + w[:, 2] + w[:, 3]
        ok = np.abs(total) >= 1000.0 * np.finfo(np.float32).tiny
        inv = np.where(ok, np.float32(1) / np.where(ok, total, np.float32(1)), np.float32(1))
        w = np.where(ok[:, None], w * inv[:, None], w).astype(np.float32)
    return idx, w


@register_kernel("ResizeBicubic")
def _resize_bicubic(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_bicubic(images, size):
        images, h, w = _check(images, size, align=align, half=half)
        x = images.astype(np.float32, copy=False)
        yi, yw = _cubic_weights(x.shape[1], h, align, half)
        xi, xw = _cubic_weights(x.shape[2], w, align, half)
        # Along y for each of the four columns, then along x, summed left to right (TF's
        # cached_value then Compute order).
        col = x[:, yi[:, 0]] * yw[None, :, 0, None, None]
        for j in range(1, 4):
            col = col + x[:, yi[:, j]] * yw[None, :, j, None, None]
        out = col[:, :, xi[:, 0]] * xw[None, None, :, 0, None]
        for k in range(1, 4):
            out = out + col[:, :, xi[:, k]] * xw[None, None, :, k, None]
        return out
    return resize_bicubic


@register_kernel("ResizeBicubicGrad")
def _resize_bicubic_grad(op, ctx):
    align, half = op._get_attr("align_corners"), op._get_attr("half_pixel_centers")

    def resize_bicubic_grad(grads, original):
        # TF's loop: grad (in the image's dtype; float for half) * y_weight * x_weight, cast to
        # the image's dtype, added in the order (row, column, y tap, x tap).
        grads, original = np.asarray(grads), np.asarray(original)
        dt = original.dtype
        ct = np.float64 if dt == np.float64 else np.float32
        b, ho, wo, c = grads.shape
        h, w = original.shape[1:3]
        yi, yw = _cubic_weights(h, ho, align, half)
        xi, xw = _cubic_weights(w, wo, align, half)
        g = grads.astype(dt).astype(ct)
        vals = ((g[:, :, :, None, None, :] * yw.astype(ct)[None, :, None, :, None, None])
                * xw.astype(ct)[None, None, :, None, :, None]).astype(dt)
        idx = yi[:, None, :, None] * w + xi[None, :, None, :]
        out = np.zeros((b, h * w, c), dt)
        np.add.at(out, (slice(None), idx.reshape(-1)), vals.reshape(b, -1, c))
        return out.reshape(b, h, w, c)
    return resize_bicubic_grad
