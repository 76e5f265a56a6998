"""Colour ops of `tf.image`: HSV conversions (RGBToHSV / HSVToRGB kernels), hue and saturation
(AdjustHue / AdjustSaturation kernels, as TF1 runs them), gamma, the YIQ / YUV conversions (a
tensordot with TF's 3x3 matrices), and the random_* adjustments, which draw one scalar from
`random_uniform` with the op's seed (so TF's Philox stream) and call the adjust_* function.

    >>> tf.image.adjust_saturation(rgb, 0.5)   # halves S in HSV space, back to RGB
"""


import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from .image_ops import convert_image_dtype, adjust_brightness, adjust_contrast

__all__ = ["rgb_to_hsv", "hsv_to_rgb", "adjust_hue", "adjust_saturation", "adjust_gamma",
           "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "random_brightness",
           "random_contrast", "random_hue", "random_saturation"]

_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


def _rgb_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None:
        if s.ndims < 1:
            raise ValueError(f"Shape must be at least rank 1 but is rank {s.ndims}")
        last = s.dims[-1].value
        if last is not None and last != 3:
            raise ValueError(f"Dimension must be 3 but is {last}")
        return [TensorShape(s.as_list()[:-1] + [3])]   # (TF's ColorspaceShapeFn sets the last dim)
    return [s]


def _adjust_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {s.ndims}")
    d = op._inputs[1]._shape
    if d.ndims is not None and d.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {d.ndims}")
    return [s]


registry.register_op("RGBToHSV", shape_fn=_rgb_shape)
registry.register_op("HSVToRGB", shape_fn=_rgb_shape)
registry.register_op("AdjustHue", shape_fn=_adjust_shape)
registry.register_op("AdjustSaturation", shape_fn=_adjust_shape)
registry.no_gradient("HSVToRGB")  # TF registers none either
# AdjustHue and AdjustSaturation have no gradient in TF: tf.gradients raises LookupError.


def _float_images(images, ops_name):
    images = convert_to_tensor(images, name="images")
    t = images.dtype.base_dtype
    if t not in _FLOATS:
        raise TypeError(f"Value passed to parameter 'images' has DataType {t.name} not in list of allowed "
                        f"values: float16, bfloat16, float32, float64")
    return images


def _op_input(images):
    """A non-tensor input as TF's op builder converts it for a type attr that defaults to float:
    in its own dtype when the op takes it, else as float32 (NumPy integers, Python ints)."""
    natural = images.dtype if isinstance(images, (np.ndarray, np.generic)) else None
    if natural is not None and natural in (np.float16, np.float32, np.float64):
        return convert_to_tensor(images, name="images")
    if natural is None and not _all_ints(images):
        return convert_to_tensor(images, name="images")
    return convert_to_tensor(np.asarray(images).astype(np.float32), name="images")


def _all_ints(v):
    a = np.asarray(v)
    return a.dtype.kind in "iub"


def rgb_to_hsv(images, name=None):
    """RGB in [0, 1] to HSV in [0, 1] along the last axis (size 3); hue 0 is red, 1/3 green,
    2/3 blue. Differentiable (TF's piecewise gradient)."""
    if not isinstance(images, Tensor):
        # TF converts a non-tensor input inside the op's name scope ("RGBToHSV/images")
        with name_scope(name, "RGBToHSV", [images]) as scope:
            return rgb_to_hsv(_op_input(images), name=scope)
    images = _float_images(images, "RGBToHSV")
    return apply_op("RGBToHSV", [images], [images.dtype.base_dtype], name or "RGBToHSV",
                    attrs={"T": images.dtype.base_dtype})


def hsv_to_rgb(images, name=None):
    """HSV in [0, 1] to RGB along the last axis (size 3)."""
    if not isinstance(images, Tensor):
        # TF converts a non-tensor input inside the op's name scope ("HSVToRGB/images")
        with name_scope(name, "HSVToRGB", [images]) as scope:
            return hsv_to_rgb(_op_input(images), name=scope)
    images = _float_images(images, "HSVToRGB")
    return apply_op("HSVToRGB", [images], [images.dtype.base_dtype], name or "HSVToRGB",
                    attrs={"T": images.dtype.base_dtype})


def _flt(image):
    image = convert_to_tensor(image, name="image")
    orig = image.dtype.base_dtype
    flt = image if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(image, _dtypes.float32)
    return flt, orig


def _scalar_f32(v, name):
    return convert_to_tensor(v, dtype=_dtypes.float32, name=name)


def adjust_hue(image, delta, name=None):
    """Rotates the hue of RGB `image` by `delta` (a fraction of the colour wheel, in [-1, 1]),
    in float32 (AdjustHue), converted back to the image's dtype."""
    with name_scope(name, "adjust_hue", [image]):
        flt, orig = _flt(image)
        with name_scope(None, "AdjustHue") as scope:   # TF's op wrapper converts a Python delta here
            delta = _scalar_f32(delta, "delta")
        out = apply_op("AdjustHue", [flt, delta], [flt.dtype.base_dtype], scope,
                       attrs={"T": flt.dtype.base_dtype})
        return convert_image_dtype(out, orig)


def adjust_saturation(image, saturation_factor, name=None):
    """Multiplies the HSV saturation of RGB `image` by `saturation_factor` (clipped to [0, 1])
    (AdjustSaturation), converted back to the image's dtype."""
    with name_scope(name, "adjust_saturation", [image]):
        flt, orig = _flt(image)
        with name_scope(None, "AdjustSaturation") as scope:   # TF's op wrapper converts a Python scale here
            factor = _scalar_f32(saturation_factor, "scale")
        out = apply_op("AdjustSaturation", [flt, factor], [flt.dtype.base_dtype], scope,
                       attrs={"T": flt.dtype.base_dtype})
        return convert_image_dtype(out, orig)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma on the [0, 1] scale, converted back (saturating) to the dtype."""
    from . import math_ops
    with name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = convert_to_tensor(image, name="image")
        orig = image.dtype.base_dtype
        flt = image if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(image, _dtypes.float32)
        if isinstance(gamma, Tensor):
            from . import control_flow_ops, logging_ops
            ok = math_ops.greater_equal(gamma, 0)
            gamma = control_flow_ops.with_dependencies(
                [logging_ops.Assert(ok, ["Gamma should be a non-negative real number."])], gamma)
        elif not gamma >= 0:
            raise ValueError("Gamma should be a non-negative real number.")
        adjusted = gain * flt ** gamma
        return convert_image_dtype(adjusted, orig, saturate=True)


# -- YIQ / YUV: a matrix on the channel axis --------------------------------------------------

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _channel_matmul(images, matrix):
    from . import math_ops
    images = convert_to_tensor(images, name="images")
    # The Python floats in the image's dtype: TF's TypeError for an integer image.
    kernel = convert_to_tensor(matrix, dtype=images.dtype.base_dtype, name="kernel")
    ndims = images.shape.ndims
    return math_ops.tensordot(images, kernel, axes=[[ndims - 1], [0]])


def rgb_to_yiq(images):
    """RGB to YIQ (last axis of size 3)."""
    return _channel_matmul(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """YIQ to RGB (last axis of size 3)."""
    return _channel_matmul(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """RGB to YUV (last axis of size 3)."""
    return _channel_matmul(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """YUV to RGB (last axis of size 3)."""
    return _channel_matmul(images, _YUV_TO_RGB)


# -- random adjustments -------------------------------------------------------------------------

def _uniform(lo, hi, seed):
    from . import random_ops
    return random_ops.random_uniform([], lo, hi, seed=seed)


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness with a delta drawn uniformly from [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform(-max_delta, max_delta, seed))


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast with a factor drawn uniformly from [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, _uniform(lower, upper, seed))


def random_hue(image, max_delta, seed=None):
    """adjust_hue with a delta drawn uniformly from [-max_delta, max_delta), max_delta <= 0.5."""
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, _uniform(-max_delta, max_delta, seed))


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation with a factor drawn uniformly from [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_saturation(image, _uniform(lower, upper, seed))


@registry.register_gradient("RGBToHSV")
def _rgb_to_hsv_grad(op, grad):
    """TF's gradient of RGBToHSV (image_grad.py), term by term: V is the largest channel, S and
    H piecewise by which channel is largest and smallest, reciprocals through div_no_nan."""
    from . import array_ops, math_ops
    x = op.inputs[0]
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    sat, val = op.outputs[0][..., 1], op.outputs[0][..., 2]
    dt = x.dtype.base_dtype

    def c(v):
        return math_ops.cast(v, dt)

    def rec(v):
        return math_ops.div_no_nan(math_ops.cast(1.0, dt), v)

    sq = math_ops.square
    r_big = c((r >= b) & (r >= g))
    g_big = c((g > r) & (g >= b))
    b_big = c((b > r) & (b > g))
    r_small = c((r < b) & (r < g))
    g_small = c((g <= r) & (g < b))
    b_small = c((b <= r) & (b <= g))
    dv_dr, dv_dg, dv_db = r_big, g_big, b_big
    ds_dr = c(r > 0) * math_ops.add(r_big * math_ops.add(g_small * g, b_small * b) * rec(sq(r)),
                                    r_small * -1 * rec(g_big * g + b_big * b))
    ds_dg = c(g > 0) * math_ops.add(g_big * math_ops.add(r_small * r, b_small * b) * rec(sq(g)),
                                    g_small * -1 * rec(r_big * r + b_big * b))
    ds_db = c(b > 0) * math_ops.add(b_big * math_ops.add(g_small * g, r_small * r) * rec(sq(b)),
                                    b_small * -1 * rec(g_big * g + r_big * r))
    dh_dr = (60 * (c(r > 0) * r_big * -1 * (g - b) * rec(sq(sat)) * rec(sq(val)))
             + 60 * (c(g > 0) * g_big * r_small * (b - g) * rec(sq(r - g)))
             + 60 * (c(g > 0) * g_big * b_small * -1 * rec(g - b))
             + 60 * (c(b > 0) * b_big * r_small * (b - g) * rec(sq(b - r)))
             + 60 * (c(b > 0) * b_big * g_small * rec(b - g))) / 360
    dh_dg = (60 * (c(g > 0) * g_big * -1 * (b - r) * rec(sq(sat)) * rec(sq(val)))
             + 60 * (c(r > 0) * r_big * g_small * (r - b) * rec(sq(r - g)))
             + 60 * (c(r > 0) * r_big * b_small * rec(r - b))
             + 60 * (c(b > 0) * b_big * g_small * (r - b) * rec(sq(b - g)))
             + 60 * (c(b > 0) * b_big * r_small * -1 * rec(b - r))) / 360
    dh_db = (60 * (c(b > 0) * b_big * -1 * (r - g) * rec(sq(sat)) * rec(sq(val)))
             + 60 * (c(r > 0) * r_big * b_small * (g - r) * rec(sq(r - b)))
             + 60 * (c(r > 0) * r_big * g_small * -1 * rec(r - g))
             + 60 * (c(g > 0) * g_big * b_small * (g - r) * rec(sq(g - b)))
             + 60 * (c(g > 0) * g_big * r_small * rec(g - r))) / 360
    gv, gs, gh = grad[..., 2], grad[..., 1], grad[..., 0]
    dv = array_ops.stack([gv * dv_dr, gv * dv_dg, gv * dv_db], axis=-1)
    ds = array_ops.stack([gs * ds_dr, gs * ds_dg, gs * ds_db], axis=-1)
    dh = array_ops.stack([gh * dh_dr, gh * dh_dg, gh * dh_db], axis=-1)
    return math_ops.add(math_ops.add(dv, ds), dh)
