"""CPU kernels for the colour ops, vectorized forms of TF's per-pixel loops in TF's float
arithmetic: RGBToHSV / HSVToRGB (colorspace_op.h), AdjustSaturation (HSV round trip with its own
hsv_to_rgb by hue sextant) and AdjustHue (the hue as a sextant index plus a ratio between the
channels' min and max, shifted by 6 * delta and wrapped into [0, 6))."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _check_rgb(x, name="input"):
    x = np.asarray(x)
    if x.ndim < 1 or x.shape[-1] != 3:
        raise errors.InvalidArgumentError(None, None, f"input must have 3 channels but input only has "
                                          f"{x.shape[-1] if x.ndim else 0} channels.")
    return x


def rgb_to_hsv(r, g, b):
    v = np.maximum(r, np.maximum(g, b))
    rng = v - np.minimum(r, np.minimum(g, b))
    one = v.dtype.type(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / np.where(v > 0, v, one), 0).astype(v.dtype)
        norm = (one / rng) * (one / v.dtype.type(6))    # TF: range.inverse() * (T(1) / T(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + v.dtype.type(2.0 / 6.0),
                              norm * (r - g) + v.dtype.type(4.0 / 6.0)))
    h = np.where(rng > 0, h, 0).astype(v.dtype)
    h = np.where(h < 0, h + one, h)
    return h, s, v


@register_kernel("RGBToHSV")
def _rgb_to_hsv(op, ctx):
    def rgb_to_hsv_kernel(images):
        x = _check_rgb(images)
        h, s, v = rgb_to_hsv(x[..., 0], x[..., 1], x[..., 2])
        return np.stack([h, s, v], axis=-1)
    return rgb_to_hsv_kernel


@register_kernel("HSVToRGB")
def _hsv_to_rgb(op, ctx):
    def hsv_to_rgb_kernel(images):
        x = _check_rgb(images)
        t = x.dtype.type
        h, s, v = x[..., 0], x[..., 1], x[..., 2]
        dh = h * t(6)
        dr = np.clip(np.abs(dh - t(3)) - t(1), 0, 1)
        dg = np.clip(-np.abs(dh - t(2)) + t(2), 0, 1)
        db = np.clip(-np.abs(dh - t(4)) + t(2), 0, 1)
        oms = t(1) - s
        return np.stack([(oms + s * dr) * v, (oms + s * dg) * v, (oms + s * db) * v], axis=-1).astype(x.dtype)
    return hsv_to_rgb_kernel


def _float_only(op, images):
    """TF 2.21 registers the adjust kernels on CPU for float32 only."""
    if images.dtype != np.float32:
        raise errors.InvalidArgumentError(
            None, None, f"No OpKernel was registered to support Op '{op.type}' used by "
            f"{{{{node {op.name}}}}} with these attrs: [T=DT_{op._get_attr('T').name.upper()}]")


def _check_adjust(op, images, scalar, what):
    images = np.asarray(images)
    _float_only(op, images)
    if images.ndim < 3:
        raise errors.InvalidArgumentError(None, None, f"input must be at least 3-D, got shape{list(images.shape)}")
    if np.ndim(scalar) != 0:
        raise errors.InvalidArgumentError(None, None, f"{what} must be scalar: {list(np.shape(scalar))}")
    if images.shape[-1] != 3:
        raise errors.InvalidArgumentError(None, None, f"input must have 3 channels but instead has "
                                          f"{images.shape[-1]} channels.")
    return images


def _saturation_rgb_to_hsv(r, g, b):
    """adjust_saturation_op.cc's own rgb_to_hsv: as RGBToHSV's, but the 2/6 and 4/6 hue offsets
    are doubles, so those sums round once from double to float."""
    v = np.maximum(r, np.maximum(g, b))
    rng = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / np.where(v > 0, v, np.float32(1)), np.float32(0)).astype(np.float32)
        norm = np.float32(1) / (np.float32(6) * rng)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, ((norm * (b - r)).astype(np.float64) + 2.0 / 6.0).astype(np.float32),
                              ((norm * (r - g)).astype(np.float64) + 4.0 / 6.0).astype(np.float32)))
    h = np.where(rng > 0, h, np.float32(0)).astype(np.float32)
    h = np.where(h < 0, h + np.float32(1), h)
    return h, s, v


@register_kernel("AdjustSaturation")
def _adjust_saturation(op, ctx):
    def adjust_saturation(images, scale):
        images = _check_adjust(op, images, scale, "scale")
        x = images.astype(np.float32)
        h, s, v = _saturation_rgb_to_hsv(x[..., 0], x[..., 1], x[..., 2])
        s = np.minimum(np.float32(1), np.maximum(np.float32(0), s * np.float32(scale)))
        c = s * v
        m = v - c
        dh = h * np.float32(6)
        cat = dh.astype(np.int32)  # truncation toward zero, as static_cast<int>
        fm = np.mod(dh, np.float32(2)).astype(np.float32)  # TF's loops bring dh >= 0 into [0, 2)
        xx = c * (np.float32(1) - np.abs(fm - np.float32(1)))
        z = np.zeros_like(c)
        rr = np.select([cat == 0, cat == 1, cat == 2, cat == 3, cat == 4, cat == 5], [c, xx, z, z, xx, c], z)
        gg = np.select([cat == 0, cat == 1, cat == 2, cat == 3, cat == 4, cat == 5], [xx, c, c, xx, z, z], z)
        bb = np.select([cat == 0, cat == 1, cat == 2, cat == 3, cat == 4, cat == 5], [z, z, xx, c, c, xx], z)
        return np.stack([rr + m, gg + m, bb + m], axis=-1).astype(images.dtype)
    return adjust_saturation


@register_kernel("AdjustHue")
def _adjust_hue(op, ctx):
    def adjust_hue(images, delta):
        images = _check_adjust(op, images, delta, "delta")
        x = images.astype(np.float32)
        r, g, b = x[..., 0], x[..., 1], x[..., 2]
        rg = r < g
        # (category, max, mid, min) by the ordering of the channels, as rgb_to_hv
        conds = [rg & (b < r), rg & (b > g), rg, ~rg & (b < g), ~rg & (b > r), ~rg]
        cat = np.select(conds, [1, 3, 2, 0, 4, 5]).astype(np.int32)
        vmax = np.select(conds, [g, b, g, r, b, r])
        vmid = np.select(conds, [r, g, b, g, r, b])
        vmin = np.select(conds, [b, r, r, b, g, g])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (vmid - vmin) / (vmax - vmin)
        inc = (cat & 1) == 0
        h = cat.astype(np.float32) + np.where(inc, ratio, np.float32(1) - ratio)
        h = np.where(vmax == vmin, np.float32(0), h).astype(np.float32)
        h = h + np.float32(delta) * np.float32(3) * np.float32(2)
        h = np.where(h < 0, h + np.float32(6) * np.ceil(-h / np.float32(6)), h).astype(np.float32)
        h = np.where(h < 0, h + np.float32(6), h)
        h = np.where(h >= 6, h - np.float32(6) * np.floor(h / np.float32(6)), h).astype(np.float32)
        h = np.where(h >= 6, h - np.float32(6), h)
        cat = h.astype(np.int32)
        ratio = h - cat.astype(np.float32)
        ratio = np.where((cat & 1) == 0, ratio, np.float32(1) - ratio)
        vmid = vmin + ratio * (vmax - vmin)
        sel = [cat == 0, cat == 1, cat == 2, cat == 3, cat == 4]
        rr = np.select(sel, [vmax, vmid, vmin, vmin, vmid], vmax)
        gg = np.select(sel, [vmid, vmax, vmax, vmid, vmin], vmin)
        bb = np.select(sel, [vmin, vmin, vmid, vmax, vmax], vmid)
        return np.stack([rr, gg, bb], axis=-1).astype(images.dtype)
    return adjust_hue


@register_kernel("AdjustContrastv2")
def _adjust_contrast_v2(op, ctx):
    def adjust_contrast_v2(images, contrast_factor):
        images = np.asarray(images)
        _float_only(op, images)
        if images.ndim < 3:
            raise errors.InvalidArgumentError(None, None, f"input must be at least 3-D, got shape"
                                              f"{list(images.shape)}")
        if np.ndim(contrast_factor) != 0:
            raise errors.InvalidArgumentError(None, None, f"contrast_factor must be scalar: "
                                              f"{list(np.shape(contrast_factor))}")
        h, w, c = images.shape[-3:]
        x = images.astype(np.float32).reshape(-1, h * w, c)
        if x.size == 0:
            return images.copy()
        # TF's ReduceMeanAcrossImage: fold the pixels in halves (left + right) until one remains.
        size = h * w
        right = size // 2
        left = size - right
        acc = np.empty_like(x)
        acc[:, :right] = x[:, left:left + right] + x[:, :right]
        if left > right:
            acc[:, right] = x[:, right]
        size = left
        while size > 1:
            right = size // 2
            left = size - right
            acc[:, :right] += acc[:, left:left + right]
            size = left
        mean = acc[:, :1] * (np.float32(1.0) / np.float32(h * w))
        f = np.float32(contrast_factor)
        out = mean + f * (x - mean)  # TF's p += factor * (q - p), p the broadcast mean
        return out.reshape(images.shape).astype(images.dtype)
    return adjust_contrast_v2
