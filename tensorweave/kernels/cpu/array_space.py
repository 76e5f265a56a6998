"""CPU kernels for ExtractVolumePatches and its gradient (ops/array_space_ops.py)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _geometry(shape, ksizes, strides, padding):
    from ...ops.array_space_ops import volume_patch_geometry
    out, before, after = [], [], []
    for i in range(3):
        n, b = volume_patch_geometry(shape[1 + i], ksizes[1 + i], strides[1 + i], padding)
        out.append(n)
        before.append(b)
        # enough after-padding for every window of the output
        after.append(max((n - 1) * strides[1 + i] + ksizes[1 + i] - shape[1 + i] - b, 0) if n else 0)
    return out, before, after


def _check(x, ksizes, strides):
    if x.ndim != 5:
        raise errors.InvalidArgumentError(None, None, f"input must be 5-dimensional{list(x.shape)}")
    if ksizes[0] != 1 or ksizes[4] != 1:
        raise errors.UnimplementedError(None, None, "Only support ksizes across space.")
    if strides[0] != 1 or strides[4] != 1:
        raise errors.UnimplementedError(None, None, "Only support strides across space.")


def _windows(shape, ksizes, strides, padding):
    """For each kernel offset (kp, kr, kc): the padded-input slices its patch entries read."""
    out, before, after = _geometry(shape, ksizes, strides, padding)
    k, s = ksizes[1:4], strides[1:4]
    for kp in range(k[0]):
        for kr in range(k[1]):
            for kc in range(k[2]):
                yield (kp, kr, kc), tuple(slice(o, o + s[i] * (out[i] - 1) + 1, s[i])
                                          for i, o in enumerate((kp, kr, kc))), out, before, after


@register_kernel("ExtractVolumePatches")
def _extract_volume_patches(op, ctx):
    ksizes, strides = op._get_attr("ksizes"), op._get_attr("strides")
    padding = op._get_attr("padding")
    padding = padding.decode() if isinstance(padding, bytes) else padding

    def extract_volume_patches(x):
        x = np.asarray(x)
        _check(x, ksizes, strides)
        b, c = x.shape[0], x.shape[4]
        out, before, after = _geometry(x.shape, ksizes, strides, padding)
        k = ksizes[1:4]
        res = np.zeros([b] + out + [k[0], k[1], k[2], c], x.dtype)
        if min(out) > 0 and res.size:
            xp = np.pad(x, [(0, 0)] + list(zip(before, after)) + [(0, 0)])
            for (kp, kr, kc), sl, *_ in _windows(x.shape, ksizes, strides, padding):
                res[:, :, :, :, kp, kr, kc, :] = xp[(slice(None),) + sl + (slice(None),)]
        return res.reshape([b] + out + [k[0] * k[1] * k[2] * c])
    return extract_volume_patches


@register_kernel("ExtractVolumePatchesGrad")
def _extract_volume_patches_grad(op, ctx):
    ksizes, strides = op._get_attr("ksizes"), op._get_attr("strides")
    padding = op._get_attr("padding")
    padding = padding.decode() if isinstance(padding, bytes) else padding

    def extract_volume_patches_grad(grad, x):
        x, grad = np.asarray(x), np.asarray(grad)
        b, c = x.shape[0], x.shape[4]
        out, before, after = _geometry(x.shape, ksizes, strides, padding)
        k = ksizes[1:4]
        g = grad.reshape([b] + out + [k[0], k[1], k[2], c])
        padded = [x.shape[1 + i] + before[i] + after[i] for i in range(3)]
        acc = np.zeros([b] + padded + [c], grad.dtype)
        if min(out) > 0:
            for (kp, kr, kc), sl, *_ in _windows(x.shape, ksizes, strides, padding):
                acc[(slice(None),) + sl + (slice(None),)] += g[:, :, :, :, kp, kr, kc, :]
        return acc[:, before[0]:before[0] + x.shape[1], before[1]:before[1] + x.shape[2],
                   before[2]:before[2] + x.shape[3], :]
    return extract_volume_patches_grad
