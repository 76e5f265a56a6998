"""Image crops and pads (`tf.image`): crop_to_bounding_box, pad_to_bounding_box,
resize_image_with_crop_or_pad, central_crop and random_crop, built from array ops as TF builds
them, with static sizes where they are known and run-time checks where they are not."""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from .image_ops import _array, _assert_3d, _check_at_least_3d, _image, _math

__all__ = ["central_crop", "crop_to_bounding_box", "pad_to_bounding_box",
           "resize_image_with_crop_or_pad", "resize_with_crop_or_pad", "random_crop"]


def _static(v):
    if isinstance(v, Tensor):
        c = constant_value(v)
        return None if c is None else int(c)
    return int(v)


def _dims4(image):
    """(image as 4-D, was it a batch, [batch, height, width, depth] static dims)."""
    nd = image.shape.ndims
    if nd == 3:
        image4 = _array().expand_dims(image, 0)
    elif nd is None:            # TF: treated as one image of unknown size
        image4 = _array().expand_dims(image, 0)
        image4.set_shape([None] * 4)
    elif nd == 4:
        image4 = image
    else:
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    return image4, nd == 4, image4.shape.as_list()


def _dynamic_dims(image4, dims):
    shape = None
    out = []
    for i, d in enumerate(dims):
        if d is None:
            shape = shape if shape is not None else _array().shape(image4)
            d = shape[i]
        out.append(d)
    return out


def _to_4d(image):
    """TF's crop/pad preamble: (image as 4-D, was it a batch); an unknown rank is one image."""
    image_shape = image.shape
    nd = image_shape.ndims
    if nd == 3:
        return _array().expand_dims(image, 0), False
    if nd is None:
        image = _array().expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if nd != 4:
        raise ValueError(f"'image' (shape {image_shape}) must have either 3 or 4 dimensions.")
    return image, True


def _image_dimensions(image, rank):
    """TF's _ImageDimensions: static dims where known, else the unstacked dynamic shape."""
    if image.shape.is_fully_defined():
        return image.shape.as_list()
    array_ops = _array()
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(image.shape.with_rank(rank).as_list(), dynamic)]


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """image[offset_height:offset_height + target_height, offset_width:offset_width + target_width]
    (TF's graph: the checks, a Slice of the 4-D image, the static shape set)."""
    array_ops = _array()
    with name_scope(None, "crop_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _to_4d(image)
        assert_ops = _check_at_least_3d(image)
        batch, height, width, depth = _image_dimensions(image, 4)
        assert_ops += _assert(offset_width >= 0, "offset_width must be >= 0.")
        assert_ops += _assert(offset_height >= 0, "offset_height must be >= 0.")
        assert_ops += _assert(target_width > 0, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, "target_height must be > 0.")
        assert_ops += _assert(width >= (target_width + offset_width), "width must be >= target + offset.")
        assert_ops += _assert(height >= (target_height + offset_height), "height must be >= target + offset.")
        image = _with_deps(assert_ops, image)
        cropped = array_ops.slice(
            image, array_ops.stack([0, offset_height, offset_width, 0]),
            array_ops.stack([array_ops.shape(image)[0], target_height, target_width, array_ops.shape(image)[3]]))
        cropped.set_shape([None if isinstance(i, Tensor) else i for i in (batch, target_height, target_width, depth)])
        return cropped if is_batch else array_ops.squeeze(cropped, axis=[0])


def _assert(cond, msg):
    """TF's image_ops `_assert`: a Python bool raises ValueError now; a tensor becomes an Assert."""
    if isinstance(cond, Tensor):
        from .logging_ops import Assert
        return [Assert(cond, [msg])]
    if not cond:
        raise ValueError(msg)
    return []


def _with_deps(asserts, t):
    """TF's with_dependencies: an Identity (`control_dependency`) even with no asserts."""
    from .control_flow_ops import with_dependencies
    return with_dependencies(asserts, t)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zero-pads to [target_height, target_width] with the image's top-left corner at
    (offset_height, offset_width); sizes and offsets may be tensors (checked when run)."""
    array_ops = _array()
    with name_scope(None, "pad_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _to_4d(image)
        batch, height, width, depth = _image_dimensions(image, 4)
        after_w = target_width - offset_width - width
        after_h = target_height - offset_height - height
        assert_ops = _check_at_least_3d(image)
        assert_ops += _assert(offset_height >= 0, "offset_height must be >= 0")
        assert_ops += _assert(offset_width >= 0, "offset_width must be >= 0")
        assert_ops += _assert(after_w >= 0, "width must be <= target - offset")
        assert_ops += _assert(after_h >= 0, "height must be <= target - offset")
        image = _with_deps(assert_ops, image)
        paddings = array_ops.reshape(
            array_ops.stack([0, 0, offset_height, after_h, offset_width, after_w, 0, 0]), [4, 2])
        padded = array_ops.pad(image, paddings)
        padded.set_shape([None if isinstance(i, Tensor) else i for i in (batch, target_height, target_width, depth)])
        return padded if is_batch else array_ops.squeeze(padded, axis=[0])


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Center-crops and/or zero-pads to [target_height, target_width] (TF's offsets: the extra
    row/column of an odd difference goes to the bottom/right); sizes may be dynamic."""
    math_ops = _math()

    def max_(x, y):
        return math_ops.maximum(x, y) if isinstance(x, Tensor) or isinstance(y, Tensor) else max(x, y)

    def min_(x, y):
        return math_ops.minimum(x, y) if isinstance(x, Tensor) or isinstance(y, Tensor) else min(x, y)

    def equal_(x, y):
        return math_ops.equal(x, y) if isinstance(x, Tensor) or isinstance(y, Tensor) else x == y

    with name_scope(None, "resize_image_with_crop_or_pad", [image]):
        # TF checks the rank (3 or 4) before the at-least-3-D checks.
        image = convert_to_tensor(image, name="image")
        image4, is_batch, dims = _dims4(image)
        asserts = (_check_at_least_3d(image4) + _assert(target_width > 0, "target_width must be > 0.") +
                   _assert(target_height > 0, "target_height must be > 0."))
        image4 = _with_deps(asserts, image4)
        if isinstance(target_height, Tensor):
            target_height = _with_deps(asserts, target_height)
        if isinstance(target_width, Tensor):
            target_width = _with_deps(asserts, target_width)
        _, height, width, _ = _image_dimensions(image4, 4)
        width_diff = target_width - width
        offset_crop_width = max_(-width_diff // 2, 0)
        offset_pad_width = max_(width_diff // 2, 0)
        height_diff = target_height - height
        offset_crop_height = max_(-height_diff // 2, 0)
        offset_pad_height = max_(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image4, offset_crop_height, offset_crop_width,
                                       min_(target_height, height), min_(target_width, width))
        resized = pad_to_bounding_box(cropped, offset_pad_height, offset_pad_width,
                                      target_height, target_width)
        _, rh, rw, _ = _image_dimensions(resized, 4)
        checks = (_assert(equal_(rh, target_height), "resized height is not correct.") +
                  _assert(equal_(rw, target_width), "resized width is not correct."))
        resized = _with_deps(checks, resized)
        return resized if is_batch else _array().squeeze(resized, axis=[0])


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of the height and width (TF's rounding); the
    image's height and width and the fraction may be dynamic."""
    array_ops, math_ops = _array(), _math()
    with name_scope(None, "central_crop", [image]):
        image = _image(image)
        frac = constant_value(central_fraction) if isinstance(central_fraction, Tensor) else central_fraction
        if frac is not None:
            if frac <= 0.0 or frac > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if frac == 1.0:
                return image
        else:  # TF's check (an `or`, so it never fails)
            image = _with_deps(_assert(math_ops.logical_or(central_fraction > 0.0, central_fraction <= 1.0),
                                       "central_fraction must be within (0, 1]"), image)
        _assert_3d(image)   # TF builds the check and leaves its Identity unused
        rank = image.shape.ndims
        if rank not in (3, 4):
            raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = "
                             f"{rank}.")
        dims = image.shape.as_list()
        off = rank - 3

        def get_dim(i):  # TF's _get_dim: both dims first, then the starts
            return dims[i] if dims[i] is not None else array_ops.shape(image)[i]

        def start(d, static):
            if static:
                return d, False
            df = math_ops.cast(d, _dtypes.float64)
            return math_ops.cast((df - df * math_ops.cast(central_fraction, _dtypes.float64)) / 2,
                                 _dtypes.int32), True
        h, w = get_dim(off), get_dim(off + 1)
        (hs, dyn_h), (ws, dyn_w) = (start(h, dims[off] is not None and frac is not None),
                                    start(w, dims[off + 1] is not None and frac is not None))
        if not dyn_h:
            hs = int((float(h) - float(h) * frac) / 2)
        if not dyn_w:
            ws = int((float(w) - float(w) * frac) / 2)
        size_h, size_w = h - hs * 2, w - ws * 2
        begin = [hs, ws, 0] if rank == 3 else [0, hs, ws, 0]
        size = [size_h, size_w, -1] if rank == 3 else [-1, size_h, size_w, -1]
        out = array_ops.slice(image, array_ops.stack(begin), array_ops.stack(size))
        static = [None if dyn_h else size_h, None if dyn_w else size_w, dims[-1]]
        out.set_shape(static if rank == 3 else [dims[0]] + static)
        return out


def random_crop(value, size, seed=None, name=None):
    """`tf.image.random_crop` (the same function as `tf.random_crop`)."""
    from . import random_ops
    return random_ops.random_crop(value, size, seed=seed, name=name)
