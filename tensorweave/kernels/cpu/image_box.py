"""CPU kernels for box ops: greedy non-max suppression (TF's order: score descending, lower
index first on ties; IoU of corner-normalized boxes), CropAndResize with its image and box
gradients (TF's sampling: y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1), rows and
columns outside the image take extrapolation_value), and ExtractImagePatches with its gradient."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _iou(box, boxes):
    y1, x1 = np.minimum(box[0], box[2]), np.minimum(box[1], box[3])
    y2, x2 = np.maximum(box[0], box[2]), np.maximum(box[1], box[3])
    by1, bx1 = np.minimum(boxes[:, 0], boxes[:, 2]), np.minimum(boxes[:, 1], boxes[:, 3])
    by2, bx2 = np.maximum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    areas = (by2 - by1) * (bx2 - bx1)
    ih = np.maximum(np.minimum(y2, by2) - np.maximum(y1, by1), 0)
    iw = np.maximum(np.minimum(x2, bx2) - np.maximum(x1, bx1), 0)
    inter = ih * iw
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area + areas - inter)
    return np.where((area <= 0) | (areas <= 0), np.float32(0), iou)


def nms(boxes, scores, max_out, iou_threshold, score_threshold):
    # TF's IOU and its comparison with the threshold are float32 (a float64 IOU can fall on the
    # other side of the threshold)
    boxes = np.asarray(boxes, np.float32)
    scores = np.asarray(scores)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise _invalid(f"boxes must be 2-D and have 4 columns, got shape {list(boxes.shape)}")
    if scores.shape != (boxes.shape[0],):
        raise _invalid("scores has incompatible shape")
    if not 0 <= iou_threshold <= 1:
        raise _invalid("iou_threshold must be in [0, 1]")
    if max_out < 0:
        raise _invalid("output size must be non-negative")
    cand = [i for i in np.argsort(-scores.astype(np.float64), kind="stable") if scores[i] > score_threshold]
    selected = []
    for i in cand:
        if len(selected) >= max_out:
            break
        if selected and np.any(_iou(boxes[i], boxes[selected]) > np.float32(iou_threshold)):
            continue
        selected.append(int(i))
    return np.array(selected, np.int32)


def _nms_args(boxes, scores, max_out, iou, score=-np.inf):
    if np.ndim(max_out) != 0:
        raise _invalid("max_output_size must be 0-D")
    return nms(boxes, scores, int(max_out), float(iou), float(score))


@register_kernel("NonMaxSuppression")
def _nms_v1(op, ctx):
    thr = op._get_attr("iou_threshold")
    return lambda boxes, scores, max_out: _nms_args(boxes, scores, max_out, thr)


@register_kernel("NonMaxSuppressionV2")
def _nms_v2(op, ctx):
    return lambda boxes, scores, max_out, iou: _nms_args(boxes, scores, max_out, iou)


@register_kernel("NonMaxSuppressionV3")
def _nms_v3(op, ctx):
    return _nms_args


def _padded(sel, max_out, pad):
    n = len(sel)
    if pad:
        sel = np.concatenate([sel, np.zeros(int(max_out) - n, np.int32)])
    return sel, n


@register_kernel("NonMaxSuppressionV4")
def _nms_v4(op, ctx):
    pad = op._get_attr("pad_to_max_output_size")

    def nms_v4(boxes, scores, max_out, iou, score):
        sel, n = _padded(_nms_args(boxes, scores, max_out, iou, score), max_out, pad)
        return sel, np.array(n, np.int32)
    return nms_v4


def _iou32(b, i, j):
    """TF's IOU of boxes i and j, in float32 as its kernel computes it."""
    f = np.float32
    ymin_i, ymax_i = min(b[i, 0], b[i, 2]), max(b[i, 0], b[i, 2])
    xmin_i, xmax_i = min(b[i, 1], b[i, 3]), max(b[i, 1], b[i, 3])
    ymin_j, ymax_j = min(b[j, 0], b[j, 2]), max(b[j, 0], b[j, 2])
    xmin_j, xmax_j = min(b[j, 1], b[j, 3]), max(b[j, 1], b[j, 3])
    area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i)
    area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j)
    if area_i <= 0 or area_j <= 0:
        return f(0)
    ih = max(min(ymax_i, ymax_j) - max(ymin_i, ymin_j), f(0))
    iw = max(min(xmax_i, xmax_j) - max(xmin_i, xmin_j), f(0))
    inter = ih * iw
    return inter / (area_i + area_j - inter)


def _soft_nms(boxes, scores, max_out, score_threshold, sigma):
    """TF's DoNonMaxSuppressionOp with soft_nms_sigma > 0 (Gaussian Soft-NMS), in float32: a
    candidate's score is scaled by exp(-0.5 / sigma * iou^2) for each box selected since it was
    last looked at; it is selected when unchanged, else put back while above the threshold."""
    import heapq
    from .libm import _c_float_function
    expf = _c_float_function("expf")   # Eigen's numext::exp of a float scalar is glibc's expf
    f = np.float32
    b = np.asarray(boxes, np.float32)
    sc = np.asarray(scores, np.float32)
    thr, scale = f(score_threshold), f(-0.5) / f(sigma)
    heap = [(-sc[i], i, sc[i], 0) for i in range(len(sc)) if sc[i] > thr]
    heapq.heapify(heap)
    selected, selected_scores = [], []
    while len(selected) < max_out and heap:
        _, idx, cur, begin = heapq.heappop(heap)
        original = cur
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = _iou32(b, idx, selected[j])
            cur = f(cur * f(expf(float(scale * sim * sim))))
            if cur <= thr:
                break
        if cur == original:
            selected.append(idx)
            selected_scores.append(cur)
        elif cur > thr:
            heapq.heappush(heap, (-cur, idx, cur, len(selected)))
    return np.array(selected, np.int32), np.array(selected_scores, np.float32)


@register_kernel("NonMaxSuppressionV5")
def _nms_v5(op, ctx):
    pad = op._get_attr("pad_to_max_output_size")

    def nms_v5(boxes, scores, max_out, iou, score, sigma):
        if float(sigma) < 0:
            raise _invalid("soft_nms_sigma_val must be non-negative")
        if float(sigma) > 0:
            _nms_args(boxes, scores, max_out, iou, score)   # TF's checks
            sel, sc = _soft_nms(boxes, scores, int(max_out), score, sigma)
        else:
            sel = _nms_args(boxes, scores, max_out, iou, score)
            sc = np.asarray(scores)[sel]
        n = len(sel)
        sel, _ = _padded(sel, max_out, pad)
        if pad:
            sc = np.concatenate([sc, np.zeros(int(max_out) - n, sc.dtype)])
        return sel, sc.astype(np.asarray(scores).dtype), np.array(n, np.int32)
    return nms_v5


# -- crop_and_resize -------------------------------------------------------------------------------

def _coords(y1, y2, n_crop, n_img):
    """Sample positions [boxes, n_crop] in float32, as TF computes them."""
    y1, y2 = y1.astype(np.float32), y2.astype(np.float32)
    i = np.arange(n_crop, dtype=np.float32)
    m = np.float32(n_img - 1)
    if n_crop > 1:
        scale = (y2 - y1) * m / np.float32(n_crop - 1)
        return y1[:, None] * m + i[None, :] * scale[:, None]
    return np.broadcast_to((np.float32(0.5) * (y1 + y2) * m)[:, None], (len(y1), 1)).astype(np.float32)


def _dbg(shape):
    """TensorShape::DebugString: [4,3]."""
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_crop(image, boxes, box_ind, crop_size):
    image, boxes, box_ind = np.asarray(image), np.asarray(boxes), np.asarray(box_ind)
    if image.ndim != 4:
        raise _invalid(f"input image must be 4-D{_dbg(image.shape)}")
    if boxes.size or box_ind.size:   # (TF's ParseAndCheckBoxSizes, in its order)
        if boxes.ndim != 2:
            raise _invalid(f"boxes must be 2-D{_dbg(boxes.shape)}")
        if boxes.shape[1] != 4:
            raise _invalid("boxes must have 4 columns")
        if box_ind.ndim != 1:
            raise _invalid(f"box_index must be 1-D{_dbg(box_ind.shape)}")
        if box_ind.shape[0] != boxes.shape[0]:
            raise _invalid("box_index has incompatible shape")
    ch, cw = (int(v) for v in np.asarray(crop_size).reshape(-1))
    if ch <= 0 or cw <= 0:
        raise _invalid("crop dimensions must be positive")
    if np.any((box_ind < 0) | (box_ind >= image.shape[0])):
        raise errors.OutOfRangeError(None, None, "box_index has values outside [0, batch_size)")
    return image, boxes, box_ind, ch, cw


def _roundf(x):
    """C's roundf (halves away from zero), which TF's nearest crop uses; np.round rounds them to even."""
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


@register_kernel("CropAndResize")
def _crop_and_resize(op, ctx):
    method = op._get_attr("method")
    extrap = np.float32(op._get_attr("extrapolation_value"))

    def crop_and_resize(image, boxes, box_ind, crop_size):
        image, boxes, box_ind, ch, cw = _check_crop(image, boxes, box_ind, crop_size)
        _, h, w, _ = image.shape
        ys = _coords(boxes[:, 0], boxes[:, 2], ch, h)
        xs = _coords(boxes[:, 1], boxes[:, 3], cw, w)
        img = image.astype(np.float32)[box_ind]  # [n, h, w, c]
        n = np.arange(len(box_ind))[:, None, None]
        if method == "nearest":
            yi = np.clip(_roundf(ys), 0, h - 1).astype(np.int64)
            xi = np.clip(_roundf(xs), 0, w - 1).astype(np.int64)
            out = img[n, yi[:, :, None], xi[:, None, :]]
        else:
            y0 = np.clip(np.floor(ys), 0, h - 1).astype(np.int64)
            y1_ = np.clip(np.ceil(ys), 0, h - 1).astype(np.int64)
            x0 = np.clip(np.floor(xs), 0, w - 1).astype(np.int64)
            x1_ = np.clip(np.ceil(xs), 0, w - 1).astype(np.int64)
            dy = (ys - np.floor(ys)).astype(np.float32)[:, :, None, None]
            dx = (xs - np.floor(xs)).astype(np.float32)[:, None, :, None]
            tl = img[n, y0[:, :, None], x0[:, None, :]]
            tr = img[n, y0[:, :, None], x1_[:, None, :]]
            bl = img[n, y1_[:, :, None], x0[:, None, :]]
            br = img[n, y1_[:, :, None], x1_[:, None, :]]
            top = tl + (tr - tl) * dx
            bottom = bl + (br - bl) * dx
            out = top + (bottom - top) * dy
        oky = (ys >= 0) & (ys <= h - 1)
        okx = (xs >= 0) & (xs <= w - 1)
        ok = oky[:, :, None, None] & okx[:, None, :, None]
        return np.where(ok, out, extrap).astype(np.float32)
    return crop_and_resize


@register_kernel("CropAndResizeGradImage")
def _crop_and_resize_grad_image(op, ctx):
    method = op._get_attr("method")
    dtype = op._get_attr("T").as_numpy_dtype

    def grad_image(grads, boxes, box_ind, image_size):
        # TF's loop, in float32 like it: per box, row, column (inside the image) and corner, the
        # product cast to T and added in that order (np.add.at keeps the order of repeats).
        g, boxes, box_ind = np.asarray(grads, np.float32), np.asarray(boxes), np.asarray(box_ind)
        b, h, w, c = (int(v) for v in np.asarray(image_size).reshape(-1))
        n, ch, cw = g.shape[:3]
        out = np.zeros((b * h * w, c), dtype)
        if n == 0:
            return out.reshape(b, h, w, c)
        ys = _coords(boxes[:, 0], boxes[:, 2], ch, h)   # [n, ch]
        xs = _coords(boxes[:, 1], boxes[:, 3], cw, w)   # [n, cw]
        ok = (((ys >= 0) & (ys <= h - 1))[:, :, None] & ((xs >= 0) & (xs <= w - 1))[:, None, :])
        base = (box_ind.astype(np.int64) * h)[:, None, None]
        if method == "nearest":
            yi, xi = _roundf(ys).astype(np.int64), _roundf(xs).astype(np.int64)
            idx = ((base + yi[:, :, None]) * w + xi[:, None, :])[..., None]
            vals = g.astype(dtype)[:, :, :, None, :]
        else:
            y0, y1 = np.floor(ys).astype(np.int64), np.ceil(ys).astype(np.int64)
            x0, x1 = np.floor(xs).astype(np.int64), np.ceil(xs).astype(np.int64)
            ly = (ys - np.floor(ys)).astype(np.float32)[:, :, None, None]
            lx = (xs - np.floor(xs)).astype(np.float32)[:, None, :, None]
            one = np.float32(1)
            dtop, dbottom = (one - ly) * g, ly * g
            vals = np.stack([(one - lx) * dtop, lx * dtop, (one - lx) * dbottom, lx * dbottom],
                            axis=3).astype(dtype)
            r0, r1 = base + y0[:, :, None], base + y1[:, :, None]
            idx = np.stack([r0 * w + x0[:, None, :], r0 * w + x1[:, None, :], r1 * w + x0[:, None, :],
                            r1 * w + x1[:, None, :]], axis=-1)
        np.add.at(out, idx[ok].reshape(-1), vals[ok].reshape(-1, c))
        return out.reshape(b, h, w, c)
    return grad_image


@register_kernel("CropAndResizeGradBoxes")
def _crop_and_resize_grad_boxes(op, ctx):
    def grad_boxes(grads, image, boxes, box_ind):
        # TF's CropAndResizeBackpropBoxes in float32: its sample positions use the ratio
        # (size - 1) / (crop - 1); the four sums run over (row, column, channel) in order; a crop
        # of size 1 adds double terms (TF's 0.5 * (size - 1)) to the float sums.
        g, img = np.asarray(grads, np.float32), np.asarray(image).astype(np.float32)
        boxes, box_ind = np.asarray(boxes, np.float32), np.asarray(box_ind)
        n, ch, cw, c = g.shape
        _, h, w, _ = img.shape
        out = np.zeros((n, 4), np.float32)
        if n == 0:
            return out
        f32 = np.float32

        def positions(lo, hi, crop, size):
            if crop > 1:
                ratio = f32(size - 1) / f32(crop - 1)
                i = np.arange(crop, dtype=np.float32)
                pos = lo[:, None] * f32(size - 1) + i[None, :] * ((hi - lo) * ratio)[:, None]
                return pos, ratio
            pos = (0.5 * (lo + hi).astype(np.float64) * (size - 1)).astype(np.float32)  # (lo + hi in float)
            return pos[:, None], None

        ys, ry = positions(boxes[:, 0], boxes[:, 2], ch, h)
        xs, rx = positions(boxes[:, 1], boxes[:, 3], cw, w)
        ok = (((ys >= 0) & (ys <= h - 1))[:, :, None] & ((xs >= 0) & (xs <= w - 1))[:, None, :])
        y0, y1 = np.clip(np.floor(ys), 0, h - 1).astype(np.int64), np.clip(np.ceil(ys), 0, h - 1).astype(np.int64)
        x0, x1 = np.clip(np.floor(xs), 0, w - 1).astype(np.int64), np.clip(np.ceil(xs), 0, w - 1).astype(np.int64)
        ly = (ys - np.floor(ys)).astype(np.float32)[:, :, None, None]
        lx = (xs - np.floor(xs)).astype(np.float32)[:, None, :, None]
        src = img[box_ind.astype(np.int64)]
        k = np.arange(n)[:, None, None]
        tl, tr = src[k, y0[:, :, None], x0[:, None, :]], src[k, y0[:, :, None], x1[:, None, :]]
        bl, br = src[k, y1[:, :, None], x0[:, None, :]], src[k, y1[:, :, None], x1[:, None, :]]
        one = f32(1)
        gy = ((one - lx) * (bl - tl) + lx * (br - tr)) * g
        gx = ((one - ly) * (tr - tl) + ly * (br - bl)) * g
        iy = np.arange(ch, dtype=np.float32)[None, :, None, None]
        ix = np.arange(cw, dtype=np.float32)[None, None, :, None]
        if ry is not None:
            terms_y = [gy * (f32(h - 1) - iy * ry), gy * (iy * ry)]
        else:
            terms_y = [gy.astype(np.float64) * 0.5 * (h - 1)] * 2
        if rx is not None:
            terms_x = [gx * (f32(w - 1) - ix * rx), gx * (ix * rx)]
        else:
            terms_x = [gx.astype(np.float64) * 0.5 * (w - 1)] * 2
        mask = np.broadcast_to(ok[..., None], g.shape).reshape(n, -1)
        for col, t in zip((0, 2, 1, 3), terms_y + terms_x):
            t = np.where(mask, t.reshape(n, -1), 0)
            acc = np.zeros(n, np.float32)
            if t.dtype == np.float32:
                rows = np.repeat(np.arange(n), t.shape[1])
                np.add.at(acc, rows, t.reshape(-1))   # in order, per box
            else:
                for j in range(t.shape[1]):           # float += double, rounded at each step
                    acc = (acc.astype(np.float64) + t[:, j]).astype(np.float32)
            out[:, col] = acc
        return out
    return grad_boxes


# -- extract_image_patches -----------------------------------------------------------------------

def windowed_output_size(in_size, ek, stride, padding):
    """TF's GetWindowedOutputSize (the output size; its errors are ValueErrors at build time and
    InvalidArgumentErrors when run)."""
    if stride <= 0:
        raise ValueError(f"Stride must be > 0, but got {stride}")
    if padding == "VALID":
        out = (in_size - ek + stride) // stride
    else:
        out = (in_size + stride - 1) // stride
    if out < 0:
        raise ValueError(f"Computed output size would be negative: {out} [input_size: {in_size}, "
                         f"effective_filter_size: {ek}, stride: {stride}]")
    return out


def patch_geometry(in_size, k, s, r, padding):
    ek = (k - 1) * r + 1
    if padding == "VALID":
        out = (in_size - ek + s) // s
        pad = 0
    else:
        out = -(-in_size // s)
        pad = max(0, (out - 1) * s + ek - in_size) // 2
    return max(out, 0), pad, ek


def _patch_index(shape, ksizes, strides, rates, padding):
    """For each output element, the flat input position it copies (-1 for padding)."""
    b, h, w, c = shape
    kh, kw = ksizes[1], ksizes[2]
    oh, ph, _ = patch_geometry(h, kh, strides[1], rates[1], padding)
    ow, pw, _ = patch_geometry(w, kw, strides[2], rates[2], padding)
    ys = np.arange(oh)[:, None] * strides[1] - ph + np.arange(kh)[None, :] * rates[1]  # [oh, kh]
    xs = np.arange(ow)[:, None] * strides[2] - pw + np.arange(kw)[None, :] * rates[2]  # [ow, kw]
    yy = ys[:, None, :, None, None]
    xx = xs[None, :, None, :, None]
    cc = np.arange(c)[None, None, None, None, :]
    ok = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
    idx = np.where(ok, (yy * w + xx) * c + cc, -1)  # [oh, ow, kh, kw, c]
    return idx.reshape(oh, ow, kh * kw * c), (b, oh, ow, kh * kw * c)


@register_kernel("ExtractImagePatches")
def _extract_image_patches(op, ctx):
    ksizes, strides, rates = op._get_attr("ksizes"), op._get_attr("strides"), op._get_attr("rates")
    padding = op._get_attr("padding")
    padding = padding.decode() if isinstance(padding, bytes) else padding

    def extract_image_patches(images):
        # TF's kernel checks, in its order
        for nm, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if v[0] != 1 or v[3] != 1:
                raise errors.UnimplementedError(None, None, f"Only support {nm} across space.")
        images = np.asarray(images)
        if images.ndim != 4:
            raise _invalid(f"input must be 4-dimensional{list(images.shape)}")
        for nm, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if v[1] <= 0 or v[2] <= 0:
                raise errors.OutOfRangeError(None, None, f"{nm} is out of range.")
        for i in (1, 2):
            try:
                windowed_output_size(images.shape[i], ksizes[i] + (ksizes[i] - 1) * (rates[i] - 1), strides[i],
                                     padding)
            except ValueError as e:
                raise _invalid(str(e)) from None
        idx, out_shape = _patch_index(images.shape, ksizes, strides, rates, padding)
        flat = images.reshape(images.shape[0], -1)
        flat = np.concatenate([flat, np.zeros((flat.shape[0], 1), images.dtype)], axis=1)
        return flat[:, idx].reshape(out_shape)
    return extract_image_patches


@register_kernel("ExtractImagePatchesGrad")
def _extract_image_patches_grad(op, ctx):
    ksizes, strides, rates = op._get_attr("ksizes"), op._get_attr("strides"), op._get_attr("rates")
    padding = op._get_attr("padding")
    padding = padding.decode() if isinstance(padding, bytes) else padding

    def extract_image_patches_grad(grad, images):
        images, grad = np.asarray(images), np.asarray(grad)
        idx, _ = _patch_index(images.shape, ksizes, strides, rates, padding)
        b = images.shape[0]
        out = np.zeros((b, int(np.prod(images.shape[1:])) + 1), grad.dtype)
        safe = np.where(idx < 0, out.shape[1] - 1, idx).reshape(-1)
        for i in range(b):
            np.add.at(out[i], safe, grad[i].reshape(-1))
        return out[:, :-1].reshape(images.shape)
    return extract_image_patches_grad
