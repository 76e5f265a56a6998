"""CPU kernels for ops/image_more_ops.py: CombinedNonMaxSuppression (TF's per-class greedy NMS,
merged by descending score, clipped to [0, 1] when clip_boxes), NonMaxSuppressionWithOverlaps
and EncodeJpegVariableQuality (the EncodeJpeg encoder with a run-time quality)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import jpeg_encode
from .image_box import _iou


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _greedy(order, suppress, max_out):
    """Indices from `order` (already by descending score), skipping any `suppress(i, kept)`."""
    kept = []
    for i in order:
        if len(kept) >= max_out:
            break
        if kept and suppress(i, kept):
            continue
        kept.append(int(i))
    return kept


@register_kernel("CombinedNonMaxSuppression")
def _combined_nms(op, ctx):
    pad_per_class = op._get_attr("pad_per_class")
    clip = op._get_attr("clip_boxes")

    def combined_nms(boxes, scores, per_class, total, iou, score_threshold):
        boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
        if boxes.ndim != 4 or boxes.shape[3] != 4:
            raise _invalid(f"boxes must be 4-D with last dimension 4, got {list(boxes.shape)}")
        if scores.ndim != 3 or scores.shape[:2] != boxes.shape[:2]:
            raise _invalid(f"scores must be 3-D [batch, num_boxes, num_classes], got {list(scores.shape)}")
        batch, num_boxes, q, _ = boxes.shape
        classes = scores.shape[2]
        if q not in (1, classes):
            raise _invalid(f"third dimension of boxes must be either 1 or {classes}")
        per_class, total, iou = int(per_class), int(total), float(iou)
        if per_class <= 0 or total <= 0:
            raise _invalid("max_size_per_class and max_total_size must be > 0")
        if not 0 <= iou <= 1:
            raise _invalid("iou_threshold must be in [0, 1]")
        n = min(total, per_class * classes) if pad_per_class else total
        out_boxes = np.zeros([batch, n, 4], np.float32)
        out_scores = np.zeros([batch, n], np.float32)
        out_classes = np.zeros([batch, n], np.float32)
        valid = np.zeros([batch], np.int32)
        for b in range(batch):
            found = []
            for c in range(classes):
                s = scores[b, :, c]
                bx = boxes[b, :, 0 if q == 1 else c].astype(np.float64)
                order = [i for i in np.argsort(-s.astype(np.float64), kind="stable") if s[i] > score_threshold]
                kept = _greedy(order, lambda i, k: np.any(_iou(bx[i], bx[k]) > iou), per_class)
                found += [(float(s[i]), c, bx[i]) for i in kept]
            found.sort(key=lambda t: -t[0])
            found = found[:n]
            valid[b] = len(found)
            for j, (sc, c, bx) in enumerate(found):
                out_boxes[b, j] = np.clip(bx, 0.0, 1.0) if clip else bx
                out_scores[b, j] = sc
                out_classes[b, j] = c
        return out_boxes, out_scores, out_classes, valid
    return combined_nms


@register_kernel("NonMaxSuppressionWithOverlaps")
def _nms_overlaps(op, ctx):
    def nms_overlaps(overlaps, scores, max_out, threshold, score_threshold):
        overlaps, scores = np.asarray(overlaps), np.asarray(scores)
        if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1]:
            raise _invalid(f"overlaps must be square, got {list(overlaps.shape)}")
        if scores.shape != (overlaps.shape[0],):
            raise _invalid("scores has incompatible shape")
        if np.ndim(max_out) != 0:
            raise _invalid("max_output_size must be 0-D")
        order = [i for i in np.argsort(-scores.astype(np.float64), kind="stable") if scores[i] > score_threshold]
        kept = _greedy(order, lambda i, k: np.any(overlaps[i, k] > threshold), int(max_out))
        return np.array(kept, np.int32)
    return nms_overlaps


@register_kernel("EncodeJpegVariableQuality")
def _encode_jpeg_vq(op, ctx):
    def encode(image, quality):
        image = np.asarray(image)
        if image.ndim != 3:
            raise _invalid(f"image must be 3-dimensional{list(image.shape)}")
        if image.shape[2] not in (1, 3):
            raise _invalid(f"image must have 1 or 3 channels, got {list(image.shape)}")
        if np.ndim(quality) != 0:
            raise _invalid(f"quality must be a scalar: {list(np.shape(quality))}")
        q = int(quality)
        if not 0 <= q <= 100:
            raise _invalid(f"quality must be in [0,100], got {q}")
        if image.shape[0] == 0 or image.shape[1] == 0 or max(image.shape[:2]) > 65535:
            raise errors.InternalError(None, None, "JPEG encoding failed")
        return np.array(jpeg_encode.encode(image, quality=q), dtype=object)
    return encode
