"""Image ops (`tf.image`): resizing (bilinear, nearest neighbor, area — TF1's legacy pixel
mapping by default, `half_pixel_centers` on request), flips, transposes and rotations, crops and
pads, dtype conversion with TF's scaling, brightness/contrast, grayscale, and standardization.

Images are [height, width, channels] or batches [batch, height, width, channels], like TF. The
resize ops have their own kernels (and gradients for bilinear and nearest neighbor); the rest are
built from array and math ops as TF builds them, so they are differentiable where those are.
Crops and pads live in image_crop_ops, colour ops in image_color_ops, measures in image_quality_ops, boxes in image_box_ops,
codecs in image_codec_ops.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op, check_allowed, make_bool
from ..framework.tensor_shape import TensorShape

__all__ = ["ResizeMethod", "resize_images", "resize", "resize_bilinear", "resize_nearest_neighbor",
           "resize_bicubic",
           "resize_area", "flip_left_right", "flip_up_down", "transpose_image", "transpose", "rot90",
           "random_flip_left_right", "random_flip_up_down",
           "per_image_standardization", "convert_image_dtype", "adjust_brightness", "adjust_contrast",
           "rgb_to_grayscale", "grayscale_to_rgb"]


def _array():
    from . import array_ops
    return array_ops


def _math():
    from . import math_ops
    return math_ops


class ResizeMethod:
    """TF1's resize methods (compat.v1 values)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


# -- resize ops ------------------------------------------------------------------------------

def _resize_shape(op):
    images, size = op._inputs[0]._shape, op._inputs[1]._shape
    if images.ndims is not None and images.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {images.ndims}")
    if size.ndims is not None and size.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {size.ndims}")
    if size.ndims == 1 and size.dims[0].value not in (None, 2):
        raise ValueError(f"Dimension must be 2 but is {size.dims[0].value}")
    dims = images.as_list() if images.ndims is not None else [None] * 4
    v = constant_value(op._inputs[1])
    hw = [int(d) for d in np.asarray(v).reshape(-1)] if v is not None else [None, None]
    # As TF's MakeShapeFromShapeTensor: -1 in a constant size is an unknown dimension (the kernel
    # rejects it at run time); other negatives are build-time ValueErrors.
    hw = [None if d == -1 else d for d in hw]
    return [TensorShape([dims[0], hw[0], hw[1], dims[3]])]


def _grad_shape(op):
    """ResizeBilinearGrad: the original image's shape; ResizeNearestNeighborGrad: grads with
    the spatial size given by input 1."""
    if op.type in ("ResizeBilinearGrad", "ResizeBicubicGrad"):
        return [op._inputs[1]._shape]
    return _resize_shape(op)


for _t in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeArea", "ResizeBicubic"):
    registry.register_op(_t, shape_fn=_resize_shape)
for _t in ("ResizeBilinearGrad", "ResizeNearestNeighborGrad", "ResizeBicubicGrad"):
    registry.register_op(_t, shape_fn=_grad_shape)
    registry.no_gradient(_t)


@registry.register_gradient("ResizeBilinear")
def _resize_bilinear_grad(op, grad):
    x = op.inputs[0]
    if not x.dtype.base_dtype.is_floating:
        return [None, None]
    g = apply_op("ResizeBilinearGrad", [grad, x], [x.dtype.base_dtype], "ResizeBilinearGrad",
                 attrs={"T": x.dtype.base_dtype, "align_corners": op._get_attr("align_corners"),
                        "half_pixel_centers": op._get_attr("half_pixel_centers")})
    return [g, None]


@registry.register_gradient("ResizeBicubic")
def _resize_bicubic_grad(op, grad):
    x = op.inputs[0]
    if x.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
        return [None, None]
    g = apply_op("ResizeBicubicGrad", [grad, x], [x.dtype.base_dtype], "ResizeBicubicGrad",
                 attrs={"T": x.dtype.base_dtype, "align_corners": op._get_attr("align_corners"),
                        "half_pixel_centers": op._get_attr("half_pixel_centers")})
    return [g, None]


@registry.register_gradient("ResizeNearestNeighbor")
def _resize_nearest_grad(op, grad):
    x = op.inputs[0]
    shape = x.shape
    if shape.ndims == 4 and shape.dims[1].value is not None and shape.dims[2].value is not None:
        size = convert_to_tensor(np.array(shape.as_list()[1:3], np.int32))
    else:
        size = _array().shape(x)[1:3]
    g = apply_op("ResizeNearestNeighborGrad", [grad, size], [grad.dtype.base_dtype],
                 "ResizeNearestNeighborGrad",
                 attrs={"T": grad.dtype.base_dtype, "align_corners": op._get_attr("align_corners"),
                        "half_pixel_centers": op._get_attr("half_pixel_centers")})
    return [g, None]


def _size_tensor(size):
    size = convert_to_tensor(size, name="size", dtype=None if isinstance(size, Tensor) else _dtypes.int32)
    if size.dtype.base_dtype != _dtypes.int32:
        raise TypeError(f"Value passed to parameter 'size' has DataType {size.dtype.base_dtype.name} not in "
                        f"list of allowed values: int32")
    return size


# The resize ops' type lists as TF's op builder prints them (ResizeBilinear's names bfloat16 twice).
_RESIZE_TYPES = {False: ["int8", "uint8", "int16", "uint16", "int32", "int64", "float16", "float32", "float64",
                         "bfloat16"],
                 True: ["int8", "uint8", "int16", "uint16", "int32", "int64", "bfloat16", "float16", "float32",
                        "float64", "bfloat16"]}


def _resize_op(op_type, images, size, align_corners, half_pixel_centers, name):
    align_corners = make_bool(align_corners, "align_corners")
    half_pixel_centers = make_bool(half_pixel_centers, "half_pixel_centers")
    if not (isinstance(images, Tensor) and isinstance(size, Tensor)):
        # TF's op wrapper converts non-tensor inputs inside the op's name scope ("ResizeBilinear/size")
        with name_scope(name, op_type, [images, size]) as scope:
            images = convert_to_tensor(images, name="images")
            size = _size_tensor(size)
            return _resize_op(op_type, images, size, align_corners, half_pixel_centers, scope)
    images = convert_to_tensor(images, name="images")
    size = _size_tensor(size)
    check_allowed("images", images.dtype, _RESIZE_TYPES[op_type == "ResizeBilinear"])
    t = images.dtype.base_dtype
    out = t if op_type == "ResizeNearestNeighbor" else _dtypes.float32
    attrs = {"T": t, "align_corners": bool(align_corners)}
    if op_type != "ResizeArea":
        attrs["half_pixel_centers"] = bool(half_pixel_centers)
    return apply_op(op_type, [images, size], [out], name or op_type, attrs=attrs)


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Bilinear resize of 4-D `images` to `size` = [new_height, new_width]; float32 output."""
    return _resize_op("ResizeBilinear", images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Nearest-neighbor resize of 4-D `images` to `size`; keeps the dtype."""
    return _resize_op("ResizeNearestNeighbor", images, size, align_corners, half_pixel_centers, name)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Bicubic resize of 4-D `images` to `size` (TF's cubic convolution: a = -0.75 with clamped
    borders, or Keys' a = -0.5 with renormalized borders when half_pixel_centers); float32."""
    return _resize_op("ResizeBicubic", images, size, align_corners, half_pixel_centers, name)


def resize_area(images, size, align_corners=False, name=None):
    """Area (box-average) resize of 4-D `images` to `size`; float32 output."""
    return _resize_op("ResizeArea", images, size, align_corners, False, name)


_METHODS = {ResizeMethod.BILINEAR: "ResizeBilinear", ResizeMethod.NEAREST_NEIGHBOR: "ResizeNearestNeighbor",
            ResizeMethod.AREA: "ResizeArea", ResizeMethod.BICUBIC: "ResizeBicubic",
            "bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
            "area": "ResizeArea", "bicubic": "ResizeBicubic"}


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
    """TF1's `tf.image.resize_images` / `tf.image.resize`: 3-D or 4-D `images` to `size` by
    `method` (BILINEAR, NEAREST_NEIGHBOR, BICUBIC, AREA). Bilinear, bicubic and area give
    float32, nearest neighbor keeps the dtype; resizing to the same static size returns `images`."""
    with name_scope(name, "resize", [images, size]):
        images = convert_to_tensor(images, name="images")
        if images.shape.ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = images.shape.ndims == 4
        if images.shape.ndims == 3:
            images = _array().expand_dims(images, 0)
        elif images.shape.ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.shape.as_list()
        try:
            size = _size_tensor(size)
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.shape.is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        static_size = constant_value(size)
        if preserve_aspect_ratio:
            # TF's graph: the scale min(size / [height, width]) in float32, the sides rounded.
            array_ops, math_ops = _array(), _math()
            dyn = None if height is not None and width is not None else array_ops.unstack(array_ops.shape(images), 4)
            cur_h = height if height is not None else dyn[1]
            cur_w = width if width is not None else dyn[2]
            f32 = _dtypes.float32
            scale = math_ops.minimum(math_ops.cast(size[0], f32) / math_ops.cast(cur_h, f32),
                                     math_ops.cast(size[1], f32) / math_ops.cast(cur_w, f32))
            new_h = math_ops.cast(math_ops.round(scale * math_ops.cast(cur_h, f32)), _dtypes.int32)
            new_w = math_ops.cast(math_ops.round(scale * math_ops.cast(cur_w, f32)), _dtypes.int32)
            size = convert_to_tensor([new_h, new_w], _dtypes.int32, name="size")
        size_v = constant_value(size)
        if size_v is not None and [int(size_v[0]), int(size_v[1])] == [height, width]:
            return images if is_batch else _array().squeeze(images, axis=[0])
        if method not in _METHODS:  # TF's resize_fn checks the method only when it resizes
            raise ValueError("Resize method is not implemented: {}".format(method))
        out = _resize_op(_METHODS[method], images, size, align_corners, False, None)
        if preserve_aspect_ratio and static_size is not None and height is not None and width is not None:
            # TF's shape inference evaluates the size subgraph; the same float32 arithmetic here
            hw = np.array([height, width], np.float32)
            new = np.round(np.min(static_size.astype(np.float32) / hw) * hw).astype(np.int64)
            out.set_shape([None, int(new[0]), int(new[1]), None])
        return out if is_batch else _array().squeeze(out, axis=[0])


resize = resize_images


# -- flips, transposes, rotations ------------------------------------------------------------

def _image(image, name="image"):
    image = convert_to_tensor(image, name=name)
    nd = image.shape.ndims
    if nd is not None and nd < 3:
        raise ValueError(f"'{name}' (shape {image.shape}) must be at least three-dimensional.")
    return image


def _check_at_least_3d(image):
    """TF's _CheckAtLeast3DImage(require_static=False): a zero inner dimension known now is a
    ValueError; inner dims not all known become two run-time asserts."""
    from . import check_ops
    s = image.shape
    if s.ndims is not None and s.ndims < 3:
        raise ValueError(f"'image' (shape {s}) must be at least three-dimensional.")
    inner = s[-3:] if s.ndims is not None else s
    if inner.ndims is not None and any(d.value == 0 for d in inner.dims):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {s}")
    if inner.is_fully_defined():
        return []
    array_ops = _array()
    return [check_ops.assert_positive(array_ops.shape(image)[-3:], ["inner 3 dims of 'image.shape' must be > 0."]),
            check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                           message="'image' must be at least three-dimensional.")]


def _assert_3d(image):
    """TF's _AssertAtLeast3DImage: `image` through an Identity ("control_dependency"), created
    even when the rank is checked statically, after the checks of _check_at_least_3d."""
    from .control_flow_ops import with_dependencies
    return with_dependencies(_check_at_least_3d(image), image)


def _by_rank(image, f3, f4, sep=" "):
    """f3() for a 3-D image, f4() for a batch; for an unknown rank TF's cond on the rank. `sep`:
    TF's flips have no space between the shape and "must" in their rank error."""
    nd = image.shape.ndims
    if nd == 3:
        return f3()
    if nd == 4:
        return f4()
    if nd is None:
        from . import control_flow_ops
        return control_flow_ops.cond(_math().equal(_array().rank(image), 3), f3, f4)
    raise ValueError(f"'image' (shape {image.shape}){sep}must have either 3 or 4 dimensions.")


def _flip(image, axis, scope):
    with name_scope(None, scope, [image]):
        image = _assert_3d(_image(image))
        return _by_rank(image, lambda: _array().reverse(image, [axis]),
                        lambda: _array().reverse(image, [axis + 1]), sep="")


def flip_left_right(image):
    """Reverses the width axis of one image or a batch."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    """Reverses the height axis of one image or a batch."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, axis, seed, scope):
    from . import control_flow_ops, random_ops
    array_ops, math_ops = _array(), _math()
    with name_scope(None, scope, [image]) as sc:
        image = _assert_3d(_image(image))

        def f3():
            uniform = random_ops.random_uniform([], 0, 1.0, seed=seed)
            mirror = math_ops.less(uniform, 0.5)
            return control_flow_ops.cond(mirror, lambda: array_ops.reverse(image, [axis]),
                                         lambda: image, name=sc)

        def f4():
            batch = array_ops.shape(image)[0]
            uniform = random_ops.random_uniform(array_ops.stack([batch, 1, 1, 1]), 0, 1.0, seed=seed)
            flips = math_ops.cast(math_ops.round(uniform), image.dtype)
            flipped = array_ops.reverse(image, [axis + 1])
            return flips * flipped + (1 - flips) * image
        return _by_rank(image, f3, f4)


def random_flip_left_right(image, seed=None):
    """Flips one image (probability 1/2), or each image of a batch independently, left to right."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """Flips one image (probability 1/2), or each image of a batch independently, upside down."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def transpose_image(image, name=None):
    """Swaps height and width."""
    with name_scope(name, "transpose", [image]):
        image = _assert_3d(_image(image))
        return _by_rank(image, lambda: _array().transpose(image, [1, 0, 2], name="transpose"),
                        lambda: _array().transpose(image, [0, 2, 1, 3], name="transpose"))


transpose = transpose_image


def _rot90_by_case(image, k, scope, h):
    """TF's _rot90_3D/_rot90_4D: a `case` over k in {1, 2, 3} (default: the image itself)."""
    from . import control_flow_ops
    array_ops, math_ops = _array(), _math()
    nd = h + 3
    perm = list(range(nd))
    perm[h], perm[h + 1] = h + 1, h
    cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(array_ops.reverse(image, [h + 1]), perm)),
             (math_ops.equal(k, 2), lambda: array_ops.reverse(image, [h, h + 1])),
             (math_ops.equal(k, 3), lambda: array_ops.reverse(array_ops.transpose(image, perm), [h + 1]))]
    result = control_flow_ops.case(cases, default=lambda: image, exclusive=True, name=scope)
    dims = image.shape.as_list() if image.shape.ndims is not None else [None] * nd
    result.set_shape([None, None, dims[2]] if nd == 3 else [dims[0], None, None, dims[3]])
    return result


def _rot90_static(image, k):
    array_ops = _array()
    h = image.shape.ndims - 3
    perm = list(range(h + 3))
    perm[h], perm[h + 1] = h + 1, h
    if k == 0:
        return array_ops.identity(image)
    if k == 1:
        return array_ops.reverse(array_ops.transpose(image, perm), [h])
    if k == 2:
        return array_ops.reverse(image, [h, h + 1])
    return array_ops.transpose(array_ops.reverse(image, [h]), perm)


def rot90(image, k=1, name=None):
    """Rotates by k * 90 degrees counter-clockwise; `k` may be a tensor (TF's `case` over k % 4,
    so the rotated height and width are unknown statically)."""
    array_ops, math_ops = _array(), _math()
    with name_scope(name, "rot90", [image, k]) as scope:
        image = _assert_3d(_image(image))
        kv = constant_value(k) if isinstance(k, Tensor) else k
        if isinstance(k, Tensor):
            convert_to_tensor(k, dtype=_dtypes.int32, name="k")  # TF's ValueError for an int64 k
        if kv is not None and not isinstance(k, Tensor):
            convert_to_tensor(k, dtype=_dtypes.int32)  # TF's TypeError for a non-int k
        if kv is not None and np.ndim(kv) == 0 and image.shape.ndims in (3, 4):
            # A k known now: the rotation itself. (TF builds its case even so, which leaves the
            # rotated height and width unknown; the cond's second-order gradient cannot yet take
            # the untaken branches' shapes, so a known k keeps the exact ops and static shape.)
            return _rot90_static(image, int(kv) % 4)
        k = convert_to_tensor(k, dtype=_dtypes.int32, name="k")
        k.shape.assert_has_rank(0)
        k = math_ops.mod(k, 4, name="mod")
        nd = image.shape.ndims
        if nd is None:
            from . import control_flow_ops
            return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3),
                                         lambda: _rot90_by_case(image, k, scope, 0),
                                         lambda: _rot90_by_case(image, k, scope, 1))
        if nd not in (3, 4):
            raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
        return _rot90_by_case(image, k, scope, nd - 3)


# -- dtypes, brightness, contrast, color -----------------------------------------------------

def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts between image dtypes with TF's scaling: floats are in [0, 1], integers in
    [0, MAX]; int -> int shifts by the bit-width difference, int -> float multiplies by 1/MAX,
    float -> int multiplies by MAX + 0.5 and truncates (clipping first when `saturate`)."""
    array_ops, math_ops = _array(), _math()
    image = convert_to_tensor(image, name="image")
    dtype = _dtypes.as_dtype(dtype).base_dtype
    src = image.dtype.base_dtype
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not src.is_floating and not src.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if src == dtype:
        return array_ops.identity(image, name=name)
    with name_scope(name, "convert_image", [image]) as scope:
        if src.is_integer and dtype.is_integer:
            scale_in, scale_out = src.max, dtype.max
            if scale_in > scale_out:
                scale = (scale_in + 1) // (scale_out + 1)
                scaled = math_ops.floordiv(image, scale)
                if saturate:
                    return math_ops.saturate_cast(scaled, dtype, name=scope)
                return math_ops.cast(scaled, dtype, name=scope)
            if saturate:
                cast = math_ops.saturate_cast(image, dtype)
            else:
                cast = math_ops.cast(image, dtype)
            scale = (scale_out + 1) // (scale_in + 1)
            return math_ops.multiply(cast, scale, name=scope)
        if src.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=scope)
        if src.is_integer:
            cast = math_ops.cast(image, dtype)
            scale = 1.0 / src.max
            return math_ops.multiply(cast, scale, name=scope)
        scale = dtype.max + 0.5
        scaled = math_ops.multiply(image, scale)
        if saturate:
            return math_ops.saturate_cast(scaled, dtype, name=scope)
        return math_ops.cast(scaled, dtype, name=scope)


def _to_float(image):
    if image.dtype.base_dtype in (_dtypes.float16, _dtypes.float32):
        return image
    return convert_image_dtype(image, _dtypes.float32)


def adjust_brightness(image, delta):
    """image + delta, computed in floating point on the [0, 1] scale and converted back
    (saturating) to the image's dtype."""
    with name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = convert_to_tensor(image, name="image")
        orig = image.dtype.base_dtype
        flt = _to_float(image)
        adjusted = _math().add(flt, _math().cast(delta, flt.dtype), name=name)
        return convert_image_dtype(adjusted, orig, saturate=True)


def _adjust_contrast_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {s.ndims}")
    f = op._inputs[1]._shape
    if f.ndims is not None and f.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {f.ndims}")
    return [s]


registry.register_op("AdjustContrastv2", shape_fn=_adjust_contrast_shape)


def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean, the mean taken per image and channel over height and
    width, as TF's one AdjustContrastv2 op (float16/float32; other dtypes go through float32 and
    back, saturating). Like TF's, it has no gradient."""
    with name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = convert_to_tensor(images, name="images")
        orig = images.dtype.base_dtype
        flt = _to_float(images)
        factor = convert_to_tensor(contrast_factor, dtype=_dtypes.float32, name="contrast_factor")
        adjusted = apply_op("AdjustContrastv2", [flt, factor], [flt.dtype.base_dtype], name,
                            attrs={"T": flt.dtype.base_dtype})
        return convert_image_dtype(adjusted, orig, saturate=True)


def per_image_standardization(image):
    """(x - mean) / max(stddev, 1 / sqrt(N)) per image, N its number of elements; float32."""
    array_ops, math_ops = _array(), _math()
    with name_scope(None, "per_image_standardization", [image]) as scope:
        image = _assert_3d(_image(image))
        image = math_ops.cast(image, _dtypes.float32)
        num_pixels = math_ops.reduce_prod(array_ops.shape(image)[-3:])
        mean = math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        from .math_extra_ops import reduce_std as _reduce_std
        stddev = _reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, _dtypes.float32))
        adjusted = math_ops.maximum(stddev, min_stddev)
        image = image - mean
        return math_ops.divide(image, adjusted, name=scope)


def rgb_to_grayscale(images, name=None):
    """0.2989 R + 0.5870 G + 0.1140 B (TF's weights), keeping a last axis of size 1 and the dtype."""
    math_ops = _math()
    with name_scope(name, "rgb_to_grayscale", [images]) as scope:
        images = convert_to_tensor(images, name="images")
        orig = images.dtype.base_dtype
        flt = convert_image_dtype(images, _dtypes.float32)
        # TF contracts the channels with tensordot (a MatMul), then restores the axis
        gray = math_ops.tensordot(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
        gray = _array().expand_dims(gray, -1)
        return convert_image_dtype(gray, orig, name=scope)


def _check_grayscale(image):
    """TF's _CheckGrayscaleImage(require_static=False): static errors when the shape is fully
    known, else two run-time asserts."""
    from . import check_ops
    shape = image.shape
    try:
        s = shape.with_rank(2) if shape.ndims is None else shape.with_rank_at_least(2)
    except ValueError:
        raise ValueError(f"A grayscale image (shape {shape}) must be at least two-dimensional.") from None
    if s.is_fully_defined():
        if s.dims[-1].value != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return []
    array_ops = _array()
    return [check_ops.assert_equal(array_ops.shape(image)[-1], 1,
                                   message="Last dimension of a grayscale image should be size 1."),
            check_ops.assert_greater_equal(array_ops.rank(image), 2,
                                           message="A grayscale image must be at least two-dimensional.")]


def grayscale_to_rgb(images, name=None):
    """Repeats the single channel three times (TF's graph: a Tile by [1, ..., 1, 3] built from
    the rank, after the grayscale checks)."""
    from .control_flow_ops import with_dependencies
    array_ops = _array()
    with name_scope(name, "grayscale_to_rgb", [images]) as scope:
        images = convert_to_tensor(images, name="images")
        images = with_dependencies(_check_grayscale(images), images)
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        multiples = array_ops.concat([array_ops.ones(rank_1, dtype=_dtypes.int32), array_ops.expand_dims(3, 0)], 0)
        rgb = array_ops.tile(images, multiples, name=scope)
        rgb.set_shape(images.shape[:-1].concatenate([3]))
        return rgb