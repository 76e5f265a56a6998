"""Box and patch ops of `tf.image`: non-max suppression (TF1's non_max_suppression builds
NonMaxSuppressionV3; _with_scores V5, _padded V4), crop_and_resize (CropAndResize with its
image and box gradients) and extract_image_patches (also `tf.extract_image_patches`).

    >>> keep = tf.image.non_max_suppression(boxes, scores, max_output_size=10)
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op, check_allowed, make_int, matching_input
from ..framework.tensor_shape import TensorShape

__all__ = ["non_max_suppression", "non_max_suppression_v2", "non_max_suppression_with_scores",
           "non_max_suppression_padded", "crop_and_resize", "extract_image_patches"]


def _check_ranks(shapes, ranks):
    for sh, n in zip(shapes, ranks):
        if sh.ndims is not None and sh.ndims != n:
            raise ValueError(f"Shape must be rank {n} but is rank {sh.ndims}")


def _check_boxes(boxes, per_box):
    """boxes [n, 4] and a [n] vector of the same n (TF's shape-function checks); returns n."""
    nb = boxes.dims[0].value if boxes.ndims == 2 else None
    nv = per_box.dims[0].value if per_box.ndims == 1 else None
    if nb is not None and nv is not None and nb != nv:
        raise ValueError(f"Dimensions must be equal, but are {nb} and {nv}")
    if boxes.ndims == 2 and boxes.dims[1].value not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {boxes.dims[1].value}")
    return nb if nb is not None else nv


def _nms_shape(op):
    # TF's NMSShapeFn: boxes [n, 4], scores [n], the other inputs scalars
    _check_ranks([t._shape for t in op._inputs], [2, 1] + [0] * (len(op._inputs) - 2))
    _check_boxes(op._inputs[0]._shape, op._inputs[1]._shape)
    pad = op.type in ("NonMaxSuppressionV4", "NonMaxSuppressionV5") and op._get_attr("pad_to_max_output_size")
    n = None
    if pad:
        v = constant_value(op._inputs[2])
        n = None if v is None else int(v)
    outs = [TensorShape([n])]
    if op.type == "NonMaxSuppressionV5":
        outs.append(TensorShape([n]))
    if op.type in ("NonMaxSuppressionV4", "NonMaxSuppressionV5"):
        outs.append(TensorShape([]))
    return outs


for _t in ("NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV3", "NonMaxSuppressionV4",
           "NonMaxSuppressionV5"):
    registry.register_op(_t, shape_fn=_nms_shape)
    registry.no_gradient(_t)


def _nms_inputs(boxes, scores, max_output_size):
    """The op's own inputs, converted (inside its name scope, as TF's op wrapper does)."""
    # The op's T defaults to float: TF's op builder converts NumPy boxes of a dtype the op does not
    # take (float64, say) to float32.
    if isinstance(boxes, (np.ndarray, np.generic)) and boxes.dtype not in (np.float16, np.float32):
        boxes = convert_to_tensor(boxes, name="boxes", dtype=_dtypes.float32)
    boxes = convert_to_tensor(boxes, name="boxes")
    check_allowed("boxes", boxes.dtype, ["float16", "float32"])
    scores = convert_to_tensor(scores, name="scores", dtype=boxes.dtype.base_dtype)
    max_out = convert_to_tensor(max_output_size, name="max_output_size", dtype=_dtypes.int32)
    return [boxes, scores, max_out]


def _thresholds(iou_threshold, score_threshold):
    """TF converts the thresholds in the function's scope, before the op: float32 for Python
    floats, whatever the boxes' dtype."""
    return [convert_to_tensor(iou_threshold, name="iou_threshold"),
            convert_to_tensor(score_threshold, name="score_threshold")]


def _check_thresholds(op_type, thr, like, like_arg):
    """TF's op-builder checks of the threshold tensors: V3's own type attr T_threshold (half or
    float, set by iou_threshold), V5's T (the boxes')."""
    names = ["iou_threshold", "score_threshold", "soft_nms_sigma"]
    if like is None:
        check_allowed("iou_threshold", thr[0].dtype, ["float16", "float32"])
        like, like_arg, names, thr = thr[0], "iou_threshold", names[1:], thr[1:]
    for t, n in zip(thr, names):
        matching_input(t, like, n, like_arg, op_type)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """Greedy NMS: indices (int32) of at most max_output_size boxes ([y1, x1, y2, x2], any
    corner order) by descending score, dropping boxes whose IoU with a kept box exceeds
    iou_threshold and boxes scoring at most score_threshold."""
    with name_scope(name, "non_max_suppression"):
        thr = _thresholds(iou_threshold, score_threshold)
        with name_scope(None, "NonMaxSuppressionV3") as scope:
            ins = _nms_inputs(boxes, scores, max_output_size)
            _check_thresholds("NonMaxSuppressionV3", thr, None, None)
            return apply_op("NonMaxSuppressionV3", ins + thr, [_dtypes.int32], scope,
                            attrs={"T": ins[0].dtype.base_dtype, "T_threshold": thr[0].dtype.base_dtype})


def non_max_suppression_v2(boxes, scores, max_output_size, iou_threshold=0.5, name=None):
    """The NonMaxSuppressionV2 op (no score threshold)."""
    with name_scope(name, "NonMaxSuppressionV2") as scope:
        ins = _nms_inputs(boxes, scores, max_output_size)
        t = ins[0].dtype.base_dtype
        ins.append(convert_to_tensor(iou_threshold, name="iou_threshold", dtype=t))
        return apply_op("NonMaxSuppressionV2", ins, [_dtypes.int32], scope, attrs={"T": t, "T_threshold": t})


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """(selected_indices, selected_scores) by NonMaxSuppressionV5; soft_nms_sigma > 0 is TF's
    Gaussian Soft-NMS (scores decay by exp(-iou^2 / (2 sigma)) instead of hard suppression)."""
    with name_scope(name, "non_max_suppression_with_scores"):
        thr = _thresholds(iou_threshold, score_threshold)
        thr.append(convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma"))
        with name_scope(None, "NonMaxSuppressionV5") as scope:
            ins = _nms_inputs(boxes, scores, max_output_size)
            _check_thresholds("NonMaxSuppressionV5", thr, ins[0], "boxes")
            t = ins[0].dtype.base_dtype
            idx, sc, _ = apply_op("NonMaxSuppressionV5", ins + thr, [_dtypes.int32, t, _dtypes.int32], scope,
                                  attrs={"T": t, "pad_to_max_output_size": False})
            return idx, sc


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False, name=None,
                               sorted_input=False, canonicalized_coordinates=False, tile_size=512):
    """(selected_indices, num_valid) for one set of boxes, by NonMaxSuppressionV4 (zero-padded
    to max_output_size when pad_to_max_output_size). TF 2.21 builds a tiled batched algorithm
    here; batched (rank > 2) boxes are not supported."""
    boxes = convert_to_tensor(boxes, name="boxes")
    if boxes.shape.ndims is not None and boxes.shape.ndims > 2:
        if not pad_to_max_output_size:
            raise ValueError("'pad_to_max_output_size' (value {}) must be True for batched input".format(
                pad_to_max_output_size))
        raise NotImplementedError("non_max_suppression_padded over batched boxes is not supported by tensorweave")
    with name_scope(name, "non_max_suppression_padded"):
        ins = _nms_inputs(boxes, scores, max_output_size)
        t = ins[0].dtype.base_dtype
        ins += [convert_to_tensor(v, name=n, dtype=t) for v, n in ((iou_threshold, "iou_threshold"),
                                                                  (score_threshold, "score_threshold"))]
        idx, n = apply_op("NonMaxSuppressionV4", ins, [_dtypes.int32, _dtypes.int32], "NonMaxSuppressionV4",
                          attrs={"T": t, "T_threshold": t, "pad_to_max_output_size": bool(pad_to_max_output_size)})
        return idx, n


# -- crop_and_resize ------------------------------------------------------------------------------

def _crop_shape(op):
    """TF's CropAndResize shape function (boxes [n, 4], box_ind [n], crop_size [2]; a -1 in a
    constant crop_size is an unknown dim)."""
    img, boxes, ind, size = (t._shape for t in op._inputs)
    _check_ranks((img, boxes, ind), (4, 2, 1))
    n_boxes = _check_boxes(boxes, ind)
    if size.ndims is not None and size.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {size.ndims}")
    if size.ndims == 1 and size.dims[0].value not in (None, 2):
        raise ValueError(f"Dimension must be 2 but is {size.dims[0].value}")
    v = constant_value(op._inputs[3])
    hw = [int(x) for x in v.reshape(-1)] if v is not None else [None, None]
    hw = [None if d == -1 else d for d in hw]
    depth = img.dims[3].value if img.ndims == 4 else None
    return [TensorShape([n_boxes, hw[0], hw[1], depth])]


def _grad_image_shape(op):
    v = constant_value(op._inputs[3])
    return [TensorShape([int(x) for x in v.reshape(-1)]) if v is not None else TensorShape([None] * 4)]


registry.register_op("CropAndResize", shape_fn=_crop_shape)
registry.register_op("CropAndResizeGradImage", shape_fn=_grad_image_shape)
registry.register_op("CropAndResizeGradBoxes", shape_fn=lambda op: [op._inputs[2]._shape])
registry.no_gradient("CropAndResizeGradImage")
registry.no_gradient("CropAndResizeGradBoxes")


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear", extrapolation_value=0,
                    name=None, box_indices=None):
    """Crops boxes ([y1, x1, y2, x2] normalized) from images `box_ind` and resizes each to
    crop_size (bilinear or nearest); float32 [num_boxes, crop_h, crop_w, depth]."""
    if box_ind is None:
        box_ind = box_indices
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"Attr 'method' of 'CropAndResize' Op passed string '{method}' not in: \"bilinear\", "
                         f"\"nearest\".")
    # TF's op wrapper converts its inputs inside the op's name scope ("CropAndResize/boxes")
    with name_scope(name, "CropAndResize", [image, boxes, box_ind, crop_size]) as scope:
        image = convert_to_tensor(image, name="image")
        boxes = convert_to_tensor(boxes, name="boxes", dtype=_dtypes.float32)
        box_ind = convert_to_tensor(box_ind, name="box_ind", dtype=_dtypes.int32)
        crop_size = convert_to_tensor(crop_size, name="crop_size", dtype=_dtypes.int32)
    check_allowed("image", image.dtype, ["uint8", "uint16", "int8", "int16", "int32", "int64", "float16",
                                         "float32", "float64"])
    return apply_op("CropAndResize", [image, boxes, box_ind, crop_size], [_dtypes.float32], scope,
                    attrs={"T": image.dtype.base_dtype, "method": method,
                           "extrapolation_value": float(extrapolation_value)})


@registry.register_gradient("CropAndResize")
def _crop_and_resize_grad(op, grad):
    from . import array_ops
    image = op.inputs[0]
    if image.shape.is_fully_defined():
        image_shape = convert_to_tensor(image.shape.as_list(), dtype=_dtypes.int32)
    else:
        image_shape = array_ops.shape(image)
    t = image.dtype.base_dtype
    g0 = None
    if t in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
        g0 = apply_op("CropAndResizeGradImage", [grad, op.inputs[1], op.inputs[2], image_shape], [t],
                      "CropAndResizeGradImage", attrs={"T": t, "method": op._get_attr("method")})
    g1 = apply_op("CropAndResizeGradBoxes", [grad, image, op.inputs[1], op.inputs[2]], [_dtypes.float32],
                  "CropAndResizeGradBoxes", attrs={"T": t, "method": "bilinear"})
    return [g0, g1, None, None]


# -- extract_image_patches --------------------------------------------------------------------------

_PATCH_TYPES = ["bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "complex64", "complex128", "bool"]


def _patches_shape(op):
    """TF's ExtractImagePatches shape function: rows and columns unknown unless both are known."""
    from ..kernels.cpu.image_box import windowed_output_size
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {s.ndims}")
    k, st, r = op._get_attr("ksizes"), op._get_attr("strides"), op._get_attr("rates")
    for what, v in (("ksizes", k), ("stride", st), ("rates", r)):
        if len(v) != 4:
            raise ValueError(f"ExtractImagePatches requires the {what} attribute to contain 4 values, but got: "
                             f"{len(v)}")
    b, h, w, c = s.as_list() if s.ndims is not None else [None] * 4
    kk = k[1] * k[2]
    if kk < 0 and c is not None:
        raise ValueError(f"Negative dimension size caused by overflow when multiplying {c} and {kk}")
    depth = 0 if kk == 0 else (None if c is None else c * kk)
    if h is None or w is None:
        return [TensorShape([b, None, None, depth])]
    pad = op._get_attr("padding")
    pad = pad.decode() if isinstance(pad, bytes) else pad
    out = [windowed_output_size(n, k[i] + (k[i] - 1) * (r[i] - 1), st[i], pad)
           for i, n in ((1, h), (2, w))]
    return [TensorShape([b, out[0], out[1], depth])]


registry.register_op("ExtractImagePatches", shape_fn=_patches_shape)
registry.register_op("ExtractImagePatchesGrad", shape_fn=lambda op: [op._inputs[1]._shape])
registry.no_gradient("ExtractImagePatchesGrad")


@registry.register_gradient("ExtractImagePatches")
def _extract_image_patches_grad(op, grad):
    # One scatter-add op (TF builds the same sums from an index image and sparse ops).
    attrs = {k: op._get_attr(k) for k in ("ksizes", "strides", "rates", "padding")}
    attrs["T"] = op.inputs[0].dtype.base_dtype
    return [apply_op("ExtractImagePatchesGrad", [grad, op.inputs[0]], [attrs["T"]], "ExtractImagePatchesGrad",
                     attrs=attrs)]


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None, sizes=None):
    """Patches [batch, out_rows, out_cols, ksize_rows * ksize_cols * depth] of 4-D images, as if
    convolving with a ksizes window at `strides`, dilated by `rates`, "VALID" or "SAME"."""
    if ksizes is None:
        ksizes = sizes
    lists = []
    for nm, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"Expected list for '{nm}' argument to 'extract_image_patches' Op, not {v!r}.")
        lists.append([make_int(x, nm) for x in v])
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"Attr 'padding' of 'ExtractImagePatches' Op passed string '{padding}' not in: "
                         f"\"SAME\", \"VALID\".")
    for nm, v in zip(("ksizes", "strides", "rates"), lists):
        if len(v) < 4:   # the op's `list(int) >= 4` attrs; more than 4 is the shape function's error
            raise ValueError(f"Attr '{nm}' of 'ExtractImagePatches' Op passed list of length {len(v)} less "
                             f"than minimum 4.")
    ksizes, strides, rates = lists
    if not isinstance(images, Tensor):
        # TF converts a non-tensor input inside the op's name scope ("ExtractImagePatches/images")
        with name_scope(name, "ExtractImagePatches", [images]) as scope:
            return extract_image_patches(convert_to_tensor(images, name="images"), ksizes, strides, rates,
                                         padding, name=scope)
    check_allowed("images", images.dtype, _PATCH_TYPES)
    return apply_op("ExtractImagePatches", [images], [images.dtype.base_dtype], name or "ExtractImagePatches",
                    attrs={"T": images.dtype.base_dtype, "ksizes": ksizes, "strides": strides, "rates": rates,
                           "padding": padding})
