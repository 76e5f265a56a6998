"""More of tf.image: extract_patches (TF2's name for extract_image_patches), resize_image_with_pad,
combined_non_max_suppression (CombinedNonMaxSuppression), non_max_suppression_overlaps
(NonMaxSuppressionWithOverlaps), adjust_jpeg_quality and random_jpeg_quality (an
EncodeJpegVariableQuality + DecodeJpeg round trip through tensorweave's own JPEG codec).
Kernels: kernels/cpu/image_more.py. None of these ops is differentiable in TF but
resize_image_with_pad, whose gradient is its resize's and Pad's."""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape

__all__ = ["extract_patches", "resize_image_with_pad", "combined_non_max_suppression",
           "non_max_suppression_overlaps", "adjust_jpeg_quality", "random_jpeg_quality"]


def _a():
    from . import array_ops
    return array_ops


def _m():
    from . import math_ops
    return math_ops


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Patches [batch, out_rows, out_cols, size_rows * size_cols * depth] of 4-D images (the
    ExtractImagePatches op; see extract_image_patches)."""
    from .image_box_ops import extract_image_patches
    return extract_image_patches(images, ksizes=sizes, strides=strides, rates=rates, padding=padding, name=name)


# -- resize_image_with_pad -----------------------------------------------------------------------

def resize_image_with_pad(image, target_height, target_width, method=0, align_corners=False):
    """Resizes `image` (3-D or 4-D) to fit in [target_height, target_width] keeping its aspect
    ratio, then zero-pads it (centered, the odd row/column at the bottom/right) to exactly that
    size. The result is float (resize_images' dtype)."""
    from .image_ops import resize_images
    a, m = _a(), _m()
    with name_scope(None, "resize_image_with_pad", [image]):
        image = convert_to_tensor(image, name="image")
        nd = image.shape.ndims
        is_batch = True
        if nd == 3 or nd is None:
            is_batch = False
            image = a.expand_dims(image, 0)
            if nd is None:
                image.set_shape([None] * 4)
        elif nd != 4:
            raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
        for v, what in ((target_width, "target_width"), (target_height, "target_height")):
            c = v if not isinstance(v, Tensor) else constant_value(v)
            if c is not None and int(c) <= 0:
                raise ValueError(f"{what} must be > 0.")
        dims = image.shape.as_list()
        dyn = None
        height, width = dims[1], dims[2]
        if height is None or width is None:
            dyn = a.shape(image)
            height = dyn[1] if height is None else height
            width = dyn[2] if width is None else width
        f_height = m.cast(height, dtype=_dtypes.float32)
        f_width = m.cast(width, dtype=_dtypes.float32)
        f_target_height = m.cast(target_height, dtype=_dtypes.float32)
        f_target_width = m.cast(target_width, dtype=_dtypes.float32)
        ratio = m.maximum(f_width / f_target_width, f_height / f_target_height)
        resized_height_float = f_height / ratio
        resized_width_float = f_width / ratio
        resized_height = m.cast(m.floor(resized_height_float), dtype=_dtypes.int32)
        resized_width = m.cast(m.floor(resized_width_float), dtype=_dtypes.int32)
        padding_height = (f_target_height - resized_height_float) / 2
        padding_width = (f_target_width - resized_width_float) / 2
        p_height = m.maximum(0, m.cast(m.floor(padding_height), dtype=_dtypes.int32))
        p_width = m.maximum(0, m.cast(m.floor(padding_width), dtype=_dtypes.int32))
        resized = resize_images(image, a.stack([resized_height, resized_width]), method, align_corners=align_corners)
        with name_scope(None, "pad_to_bounding_box"):
            # TF's pad_to_bounding_box with tensor offsets: paddings from the dynamic shape.
            shape = a.shape(resized)
            after_h = target_height - p_height - shape[1]
            after_w = target_width - p_width - shape[2]
            paddings = a.reshape(a.stack([0, 0, p_height, after_h, p_width, after_w, 0, 0]), [4, 2])
            padded = a.pad(resized, paddings)
            th = target_height if not isinstance(target_height, Tensor) else constant_value(target_height)
            tw = target_width if not isinstance(target_width, Tensor) else constant_value(target_width)
            padded.set_shape([dims[0], None if th is None else int(th), None if tw is None else int(tw), dims[3]])
        if not is_batch:
            padded = a.squeeze(padded, axis=[0])
        return padded


# -- combined and overlap NMS --------------------------------------------------------------------

def _ranks(op, ranks):
    for t, n in zip(op._inputs, ranks):
        if t._shape.ndims is not None and t._shape.ndims != n:
            raise ValueError(f"Shape must be rank {n} but is rank {t._shape.ndims}")


def _dim(shape, i):
    return shape.dims[i].value if shape.ndims is not None else None


def _merge(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return a if a is not None else b


def _scalar_dim(op, i):
    """TF's MakeDimForScalarInput: the constant's value or None."""
    v = constant_value(op._inputs[i])
    if v is None:
        return None
    if int(v) < 0:
        raise ValueError(f"Dimension size, given by scalar input {i}, must be non-negative but is {int(v)}")
    return int(v)


def _combined_shape(op):
    """TF's CombinedNonMaxSuppression shape function, its checks in its order."""
    b, s = op._inputs[0]._shape, op._inputs[1]._shape
    _ranks(op, [4, 3, 0, 0, 0, 0])
    batch = _merge(_dim(b, 0), _dim(s, 0))
    _merge(_dim(b, 1), _dim(s, 1))
    if _dim(b, 3) not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {_dim(b, 3)}")
    q, classes = _dim(b, 2), _dim(s, 2)
    if q is not None and classes is not None and q != 1 and q != classes:
        raise ValueError("third dimension of boxes must be either 1 or equal to the third dimension of scores")
    from ..framework.tensor_shape import note_input_value
    for i in (2, 3):   # (TF's error text lists both constant inputs it evaluated)
        note_input_value(i, constant_value(op._inputs[i]))
    n = _scalar_dim(op, 3)
    if n is not None and n <= 0:
        raise ValueError("max_total_size should be > 0 ")
    per_class = _scalar_dim(op, 2)
    if op._get_attr("pad_per_class"):
        if per_class is not None and per_class <= 0:
            raise ValueError("max_output_size_per_class must be > 0 ")
        n = None if n is None or per_class is None or classes is None else min(n, per_class * classes)
    return [TensorShape([batch, n, 4]), TensorShape([batch, n]), TensorShape([batch, n]), TensorShape([batch])]


registry.register_op("CombinedNonMaxSuppression", shape_fn=_combined_shape)
registry.no_gradient("CombinedNonMaxSuppression")


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """Per-class greedy NMS over a batch: boxes [batch, num_boxes, q, 4] (q = 1 or num_classes),
    scores [batch, num_boxes, num_classes]. Returns (nmsed_boxes [batch, N, 4], nmsed_scores
    [batch, N], nmsed_classes [batch, N], valid_detections [batch]), N = max_total_size (with
    pad_per_class, min(max_total_size, max_output_size_per_class * num_classes)), zero-padded."""
    with name_scope(name, "combined_non_max_suppression"):
        iou = convert_to_tensor(iou_threshold, dtype=_dtypes.float32, name="iou_threshold")
        score = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
        max_total_size = convert_to_tensor(max_total_size)
        with name_scope(None, "CombinedNonMaxSuppression") as scope:   # TF's op wrapper's scope
            boxes = convert_to_tensor(boxes, dtype=_dtypes.float32, name="boxes")
            scores = convert_to_tensor(scores, dtype=_dtypes.float32, name="scores")
            per_class = convert_to_tensor(max_output_size_per_class, dtype=_dtypes.int32,
                                          name="max_output_size_per_class")
            outs = apply_op("CombinedNonMaxSuppression", [boxes, scores, per_class, max_total_size, iou, score],
                            [_dtypes.float32, _dtypes.float32, _dtypes.float32, _dtypes.int32], scope,
                            attrs={"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)})
        return tuple(outs)


def _overlaps_shape(op):
    """TF's shape function: overlaps [n, n], scores [n], the rest scalars."""
    o, s = op._inputs[0]._shape, op._inputs[1]._shape
    _ranks(op, [2, 1, 0, 0, 0])
    _merge(_dim(o, 0), _dim(s, 0))
    _merge(_dim(o, 0), _dim(o, 1))
    return [TensorShape([None])]


registry.register_op("NonMaxSuppressionWithOverlaps", shape_fn=_overlaps_shape)
registry.no_gradient("NonMaxSuppressionWithOverlaps")


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Greedy NMS on a precomputed [n, n] overlap matrix: int32 indices of at most
    max_output_size entries by descending score, dropping any whose overlap with a kept one
    exceeds overlap_threshold, and those scoring at most score_threshold."""
    with name_scope(name, "non_max_suppression_overlaps"):
        thr = convert_to_tensor(overlap_threshold, name="overlap_threshold")
        with name_scope(None, "NonMaxSuppressionWithOverlaps") as scope:   # TF's op wrapper's scope
            overlaps = convert_to_tensor(overlaps, dtype=_dtypes.float32, name="overlaps")
            scores = convert_to_tensor(scores, dtype=_dtypes.float32, name="scores")
            max_out = convert_to_tensor(max_output_size, dtype=_dtypes.int32, name="max_output_size")
            score = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
            return apply_op("NonMaxSuppressionWithOverlaps", [overlaps, scores, max_out, thr, score],
                            [_dtypes.int32], scope)


# -- JPEG quality --------------------------------------------------------------------------------

def _encode_vq_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {s.ndims}")
    return [TensorShape([])]


registry.register_op("EncodeJpegVariableQuality", shape_fn=_encode_vq_shape)
registry.no_gradient("EncodeJpegVariableQuality")


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG encode at `jpeg_quality` (0-100) and decode: JPEG artifacts, in
    the image's own dtype. Images are [height, width, 1 or 3]."""
    from .image_codec_ops import decode_jpeg
    from .image_ops import convert_image_dtype
    with name_scope(name, "adjust_jpeg_quality", [image]):
        image = convert_to_tensor(image, name="image")
        channels = image.shape.as_list()[-1]
        orig_dtype = image.dtype.base_dtype
        image = convert_image_dtype(image, _dtypes.uint8, saturate=True)
        if not isinstance(jpeg_quality, Tensor):
            jpeg_quality = convert_to_tensor(jpeg_quality, dtype=_dtypes.int32)
        encoded = apply_op("EncodeJpegVariableQuality", [image, jpeg_quality], [_dtypes.string],
                           "EncodeJpegVariableQuality")
        decoded = decode_jpeg(encoded, channels=channels, dct_method=dct_method)
        decoded.set_shape([None, None, channels])
        return convert_image_dtype(decoded, orig_dtype, saturate=True)


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality with a quality drawn uniformly from [min_jpeg_quality,
    max_jpeg_quality)."""
    from .random_ops import random_uniform
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=_dtypes.int32)
    return adjust_jpeg_quality(image, quality)

