"""Box drawing and sampling ops of `tf.image`: draw_bounding_boxes (TF's colour table and line
rules), sample_distorted_bounding_box (SampleDistortedBoundingBoxV2, seeded results equal TF's:
the kernel replays TF's Philox draws) and extract_glimpse (TF1's ExtractGlimpse: centered,
normalized, uniform or Gaussian noise outside the image).

    >>> begin, size, bbox = tf.image.sample_distorted_bounding_box(
    ...     tf.shape(image), bounding_boxes=boxes, seed=1, seed2=2, min_object_covered=0.5)
    >>> crop = tf.slice(image, begin, size)
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape

__all__ = ["draw_bounding_boxes", "sample_distorted_bounding_box", "extract_glimpse"]


def _rank(t, n, what=None):   # (`what`: the input, for the reader; TF's text does not name it)
    s = t._shape
    if s.ndims is not None and s.ndims != n:
        raise ValueError(f"Shape must be rank {n} but is rank {s.ndims}")


def _draw_shape(op):
    """TF's DrawBoundingBoxes shape function: images [b, h, w, c], boxes [b, n, 4]."""
    _rank(op._inputs[0], 4)
    images = op._inputs[0]._shape
    if images.ndims == 4 and images.dims[3].value not in (None, 1, 3, 4):
        raise ValueError("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    _rank(op._inputs[1], 3)
    boxes = op._inputs[1]._shape
    if boxes.ndims == 3 and boxes.dims[2].value not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {boxes.dims[2].value}")
    return [op._inputs[0]._shape]


registry.register_op("DrawBoundingBoxes", shape_fn=_draw_shape)
registry.register_op("DrawBoundingBoxesV2", shape_fn=_draw_shape)
def _sample_box_shape(op):
    """TF's shape function: image_size [3], bounding_boxes [batch, N, 4]."""
    size, boxes = op._inputs[0]._shape, op._inputs[1]._shape
    _rank(op._inputs[0], 1)
    _rank(op._inputs[1], 3)
    if size.ndims == 1 and size.dims[0].value not in (None, 3):
        raise ValueError(f"Dimension must be 3 but is {size.dims[0].value}")
    if boxes.ndims == 3 and boxes.dims[2].value not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {boxes.dims[2].value}")
    return [TensorShape([3]), TensorShape([3]), TensorShape([1, 1, 4])]


registry.register_op("SampleDistortedBoundingBox", stateful=True, shape_fn=_sample_box_shape)
registry.register_op("SampleDistortedBoundingBoxV2", stateful=True, shape_fn=_sample_box_shape)


def _glimpse_shape(op):
    s = op._inputs[0]._shape
    _rank(op._inputs[0], 4, "input")
    v = constant_value(op._inputs[1])
    hw = [int(x) for x in v.reshape(-1)] if v is not None else [None, None]
    b, c = (s.dims[0].value, s.dims[3].value) if s.ndims == 4 else (None, None)
    return [TensorShape([b, hw[0], hw[1], c])]


registry.register_op("ExtractGlimpse", stateful=True, shape_fn=_glimpse_shape)
for _t in ("DrawBoundingBoxes", "DrawBoundingBoxesV2", "SampleDistortedBoundingBox",
           "SampleDistortedBoundingBoxV2", "ExtractGlimpse"):
    registry.no_gradient(_t)


def _check_draw_type(images):
    t = images.dtype.base_dtype
    if t not in (_dtypes.float32, _dtypes.float16):
        raise TypeError(f"Value passed to parameter 'images' has DataType {t.name} not in list of allowed "
                        f"values: float32, float16")


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """Draws one-pixel box outlines on float images [batch, height, width, 1/3/4]; boxes
    [batch, num_boxes, 4] as normalized [y_min, x_min, y_max, x_max] scaled by (size - 1) and
    truncated. Box i takes colour i % len(table) of TF's 10-colour table (or `colors`, rows of
    RGBA); gray images get white boxes. Inverted or fully outside boxes are skipped."""
    if not all(isinstance(v, Tensor) for v in (images, boxes) + ((colors,) if colors is not None else ())):
        # TF converts non-tensor inputs inside the op's name scope ("DrawBoundingBoxes/boxes")
        with name_scope(name, "DrawBoundingBoxes" if colors is None else "DrawBoundingBoxesV2",
                        [images, boxes, colors]) as scope:
            images = convert_to_tensor(images, name="images")
            _check_draw_type(images)
            boxes = convert_to_tensor(boxes, name="boxes", dtype=_dtypes.float32)
            if colors is not None:
                colors = convert_to_tensor(colors, name="colors", dtype=_dtypes.float32)
            return draw_bounding_boxes(images, boxes, name=scope, colors=colors)
    _check_draw_type(images)
    t = images.dtype.base_dtype
    if colors is None:
        return apply_op("DrawBoundingBoxes", [images, boxes], [t], name or "DrawBoundingBoxes", attrs={"T": t})
    colors = convert_to_tensor(colors, name="colors", dtype=_dtypes.float32)
    return apply_op("DrawBoundingBoxesV2", [images, boxes, colors], [t], name or "DrawBoundingBoxesV2",
                    attrs={"T": t})


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes) of a random crop of an image of `image_size` [height, width,
    channels] covering at least min_object_covered of one of `bounding_boxes` [batch, N, 4]
    (normalized [y_min, x_min, y_max, x_max]) with aspect ratio and relative area in the given
    ranges; after max_attempts failures the whole image. TF1's signature: seed and seed2 go to
    the op as given, so a seeded op draws TF's numbers (TF's SampleDistortedBoundingBoxV2)."""
    with name_scope(name, "sample_distorted_bounding_box"):
        image_size = convert_to_tensor(image_size, name="image_size")
        if image_size.dtype.base_dtype not in (_dtypes.uint8, _dtypes.int8, _dtypes.int16, _dtypes.int32,
                                               _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'image_size' has DataType "
                            f"{image_size.dtype.base_dtype.name} not in list of allowed values")
        bounding_boxes = convert_to_tensor(bounding_boxes, name="bounding_boxes", dtype=_dtypes.float32)
        moc = convert_to_tensor(min_object_covered, name="min_object_covered", dtype=_dtypes.float32)
        t = image_size.dtype.base_dtype
        attrs = {"T": t, "seed": int(seed or 0), "seed2": int(seed2 or 0),
                 "aspect_ratio_range": [float(v) for v in (aspect_ratio_range or [0.75, 1.33])],
                 "area_range": [float(v) for v in (area_range or [0.05, 1.0])],
                 "max_attempts": int(max_attempts or 100),
                 "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes or False)}
        for k in ("aspect_ratio_range", "area_range"):
            if len(attrs[k]) != 2:
                raise ValueError(f"Attr '{k}' must have 2 elements")
        return tuple(apply_op("SampleDistortedBoundingBoxV2", [image_size, bounding_boxes, moc], [t, t, _dtypes.float32],
                              "SampleDistortedBoundingBoxV2", attrs=attrs))


def extract_glimpse(input, size, offsets, centered=True, normalized=True, uniform_noise=True,  # noqa: A002
                    name=None):
    """Glimpses [batch, size[0], size[1], channels] of float input [batch, height, width,
    channels] at `offsets` [batch, 2] = (y, x): normalized offsets are scaled to pixels (by
    size / 2 around the centre when centered, else by size from the top-left); the window's
    top-left corner is the truncated position minus half the glimpse. Pixels outside the image
    are noise: uniform in each channel's [min, max] (uniform_noise) or Gaussian with each
    channel's mean and deviation; TF draws them from Eigen's generator, so only their
    distribution matches TF, not their values."""
    input = convert_to_tensor(input, name="input", dtype=_dtypes.float32)
    size = convert_to_tensor(size, name="size", dtype=_dtypes.int32)
    offsets = convert_to_tensor(offsets, name="offsets", dtype=_dtypes.float32)
    return apply_op("ExtractGlimpse", [input, size, offsets], [_dtypes.float32], name or "ExtractGlimpse",
                    attrs={"centered": bool(centered), "normalized": bool(normalized),
                           "uniform_noise": bool(uniform_noise), "noise": "uniform"})
