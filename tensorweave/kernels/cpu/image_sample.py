"""CPU kernels for DrawBoundingBoxes(V2), SampleDistortedBoundingBox(V2) and ExtractGlimpse.

SampleDistortedBoundingBox replays TF's kernel: a SimplePhilox over the op's Philox stream
(RandFloat = Uint32ToFloat of one 32-bit draw, Uniform(n) = draw % n), GenerateRandomCrop's
lrintf rounding and retries, and SatisfiesOverlapConstraints; each run reserves the same number of
Philox blocks TF's GuardedPhiloxRandom does, so seeded runs give TF's crops run after run."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .random import PhiloxStream, uint32_to_float

# TF's draw_bounding_box_op.cc colour table (RGBA)
COLOR_TABLE = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                        [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def draw_boxes(images, boxes, colors=None):
    images = np.asarray(images)
    boxes = np.asarray(boxes, np.float32)
    # TF's checks and texts, in its order
    if images.ndim != 4:
        raise _invalid("The rank of the images should be 4")
    if boxes.ndim != 3:
        raise _invalid("The rank of the boxes tensor should be 3")
    b, height, width, depth = images.shape
    if boxes.shape[0] != b:
        raise _invalid("The batch sizes should be the same")
    if depth not in (1, 3, 4):
        raise _invalid("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.shape[2] != 4:   # (TF reads out of bounds here; its shape function checks it)
        raise _invalid(f"boxes must be [batch, num_boxes, 4], got {list(boxes.shape)}")
    if colors is None or np.size(colors) == 0:
        table = COLOR_TABLE.copy()
        if depth == 1:
            table[:, 0] = 1  # gray images: every box white
    else:
        table = np.asarray(colors, np.float32)
        if table.ndim != 2 or table.shape[1] < depth:
            raise _invalid("colors must be a 2-D tensor with at least as many columns as the image depth")
    canvas = images.copy()
    for i in range(b):
        for bb in range(boxes.shape[1]):
            color = table[bb % len(table)][:depth].astype(images.dtype)
            # static_cast<int64>(float * (size - 1)): float32 product, truncated toward zero
            y0, x0, y1, x1 = (int(np.float32(boxes[i, bb, k]) * np.float32(n - 1))
                              for k, n in ((0, height), (1, width), (2, height), (3, width)))
            if y0 > y1 or x0 > x1:
                continue
            if y0 >= height or y1 < 0 or x0 >= width or x1 < 0:
                continue
            y0c, y1c, x0c, x1c = max(y0, 0), min(y1, height - 1), max(x0, 0), min(x1, width - 1)
            if y0 >= 0:
                canvas[i, y0, x0c:x1c + 1] = color
            if y1 < height:
                canvas[i, y1, x0c:x1c + 1] = color
            if x0 >= 0:
                canvas[i, y0c:y1c + 1, x0] = color
            if x1 < width:
                canvas[i, y0c:y1c + 1, x1] = color
    return canvas


@register_kernel("DrawBoundingBoxes")
def _draw_bounding_boxes(op, ctx):
    return lambda images, boxes: draw_boxes(images, boxes)


@register_kernel("DrawBoundingBoxesV2")
def _draw_bounding_boxes_v2(op, ctx):
    return lambda images, boxes, colors: draw_boxes(images, boxes, colors)


# -- SampleDistortedBoundingBox ---------------------------------------------------------------------

class _SimplePhilox:
    """TF's SimplePhilox over a SingleSampleAdapter: 32-bit draws in order from `start`."""

    def __init__(self, stream, start):
        self._stream, self._start = stream, start
        self._block = 0
        self._words = []

    def rand32(self):
        if not self._words:
            n = 16
            blocks = self._stream.blocks(self._start, np.arange(self._block, self._block + n, dtype=np.uint64))
            self._words = blocks.ravel().tolist()[::-1]
            self._block += n
        return self._words.pop()

    def rand_float(self):
        return float(uint32_to_float(np.array([self.rand32()], np.uint32))[0])

    def uniform(self, n):
        return self.rand32() % n


def _lrintf(x):
    return int(np.rint(np.float32(x)))


def _f32(x):
    return np.float32(x)


def generate_random_crop(ow, oh, min_rel, max_rel, aspect, rnd):
    """TF's GenerateRandomCrop (float32 arithmetic, lrintf rounding half to even)."""
    if max_rel <= 0 or aspect <= 0 or ow <= 0 or oh <= 0 or min_rel > max_rel:
        return None
    min_area = _f32(_f32(min_rel) * _f32(ow)) * _f32(oh)
    max_area = _f32(_f32(max_rel) * _f32(ow)) * _f32(oh)
    height = _lrintf(np.sqrt(_f32(min_area / _f32(aspect)), dtype=np.float32))
    max_height = _lrintf(np.sqrt(_f32(max_area / _f32(aspect)), dtype=np.float32))
    if _lrintf(_f32(max_height) * _f32(aspect)) > ow:
        k_eps = 0.0000001
        max_height = int((ow + 0.5 - k_eps) / float(_f32(aspect)))  # double arithmetic, as in C++
        if _lrintf(_f32(max_height) * _f32(aspect)) > ow:
            max_height -= 1
    if max_height > oh:
        max_height = oh
    if height >= max_height:
        height = max_height
    if height < max_height:
        height += rnd.uniform(max_height - height + 1)
    width = _lrintf(_f32(height) * _f32(aspect))
    area = _f32(width * height)
    if area < min_area:
        height += 1
        width = _lrintf(_f32(height) * _f32(aspect))
        area = _f32(width * height)
    if area > max_area:
        height -= 1
        width = _lrintf(_f32(height) * _f32(aspect))
        area = _f32(width * height)
    if area < min_area or area > max_area or width > ow or height > oh or width <= 0 or height <= 0:
        return None
    y = rnd.uniform(oh - height) if height < oh else 0
    x = rnd.uniform(ow - width) if width < ow else 0
    return (x, y, x + width, y + height)


def _area(r):
    return (r[2] - r[0]) * (r[3] - r[1])


def _covers(crop, min_covered, boxes):
    if _area(crop) < 1:
        return False
    for b in boxes:
        a = _area(b)
        if a < 1:
            continue
        ix0, iy0, ix1, iy1 = max(crop[0], b[0]), max(crop[1], b[1]), min(crop[2], b[2]), min(crop[3], b[3])
        inter = _area((ix0, iy0, ix1, iy1)) if ix0 < ix1 and iy0 < iy1 else 0
        if _f32(_f32(inter) / _f32(a)) >= _f32(min_covered):
            return True
    return False


def sample_box(stream, image_size, boxes, min_covered, a):
    image_size = np.asarray(image_size)
    if image_size.shape != (3,):
        raise _invalid(f"image_size must be 1-dimensional with 3 elements, got shape {list(image_size.shape)}")
    height, width = int(image_size[0]), int(image_size[1])
    boxes = np.asarray(boxes, np.float32)
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise _invalid(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: {list(boxes.shape)}")
    rects = []
    for b in boxes.reshape(-1, 4):
        if not ((0 <= b).all() and (b <= 1).all()):
            raise _invalid("All bounding box coordinates must be in [0.0, 1.0]: " + ", ".join(str(v) for v in b))
        if b[0] > b[2] or b[1] > b[3]:
            raise _invalid("Bounding box coordinates must have min <= max")
        rects.append((int(_f32(b[1]) * _f32(width)), int(_f32(b[0]) * _f32(height)),
                      int(_f32(b[3]) * _f32(width)), int(_f32(b[2]) * _f32(height))))
    image_rect = (0, 0, width, height)
    if not rects:
        if not a["use_image_if_no_bounding_boxes"]:
            raise _invalid("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes "
                           "if you wish to not provide any bounding boxes.")
        rects.append(image_rect)
    min_covered = float(np.asarray(min_covered))
    if min_covered < 0:
        raise _invalid(f"min_object_covered must be non-negative: {min_covered}")
    lo, hi = a["aspect_ratio_range"]
    amin, amax = a["area_range"]
    if lo <= 0 or hi <= 0:
        raise _invalid("aspect_ratio_range must be positive")
    if amin <= 0 or amax <= 0 or amin > 1 or amax > 1:
        raise _invalid("area_range must be within (0, 1]")
    # each run reserves max_attempts Philox blocks (measured against TF 2.21: runs 2 and 3 of a
    # seeded op start max_attempts and 2 * max_attempts blocks in)
    rnd = _SimplePhilox(stream, stream.reserve(a["max_attempts"]))
    crop = None
    for _ in range(a["max_attempts"]):
        ratio = _f32(_f32(rnd.rand_float()) * _f32(_f32(hi) - _f32(lo)) + _f32(lo))
        c = generate_random_crop(width, height, amin, amax, ratio, rnd)
        if c is not None and _covers(c, min_covered, rects):
            crop = c
            break
    if crop is None:
        crop = image_rect
    x0, y0, x1, y1 = crop
    dt = image_size.dtype
    begin = np.array([y0, x0, 0], dt)
    size = np.array([y1 - y0, x1 - x0, -1], dt)
    bbox = np.array([[[y0 / np.float32(height), x0 / np.float32(width), y1 / np.float32(height),
                       x1 / np.float32(width)]]], np.float32)
    return begin, size, bbox


def _sample_factory(v2):
    def factory(op, ctx):
        seed, seed2 = op._get_attr("seed"), op._get_attr("seed2")
        a = {k: op._get_attr(k) for k in ("aspect_ratio_range", "area_range", "max_attempts",
                                         "use_image_if_no_bounding_boxes")}
        moc = None if v2 else op._get_attr("min_object_covered")

        def sample(image_size, boxes, *rest):
            stream = ctx.resources.lookup_or_create("rng", op.name, lambda: PhiloxStream(seed, seed2))
            return sample_box(stream, image_size, boxes, rest[0] if v2 else moc, a)
        return sample
    return factory


register_kernel("SampleDistortedBoundingBox")(_sample_factory(False))
register_kernel("SampleDistortedBoundingBoxV2")(_sample_factory(True))


# -- ExtractGlimpse ----------------------------------------------------------------------------------------

@register_kernel("ExtractGlimpse")
def _extract_glimpse(op, ctx):
    centered, normalized = op._get_attr("centered"), op._get_attr("normalized")
    uniform = op._get_attr("uniform_noise")
    noise = op._get_attr("noise")

    def extract_glimpse(images, size, offsets):
        images = np.asarray(images, np.float32)
        size = np.asarray(size)
        offsets = np.asarray(offsets, np.float32)
        if images.ndim != 4:
            raise _invalid(f"input must be 4-dimensional{list(images.shape)}")
        if size.shape != (2,):
            raise _invalid(f"input must be a vector of size 2 (height, width){list(size.shape)}")
        b, h, w, c = images.shape
        if offsets.shape != (b, 2):
            raise _invalid(f"offsets must be [batch, 2], got {list(offsets.shape)}")
        gh, gw = int(size[0]), int(size[1])
        out = np.empty((b, gh, gw, c), np.float32)
        rng = np.random.default_rng()
        for i in range(b):
            f = np.float32  # Eigen's ExtractGlimpses works in float32
            y, x = f(offsets[i, 0]), f(offsets[i, 1])
            if normalized:
                y, x = y * f(h), x * f(w)
            if centered:  # halved, normalized or not
                y, x = y / f(2) + f(h) / f(2), x / f(2) + f(w) / f(2)
            y -= f(gh) / f(2)
            x -= f(gw) / f(2)
            oy, ox = int(y), int(x)  # C++ (Index) cast: toward zero
            img = images[i]
            if uniform:
                lo, hi = img.min(axis=(0, 1)), img.max(axis=(0, 1))
                fill = rng.uniform(size=(gh, gw, c)).astype(np.float32) * (hi - lo) + lo
            elif noise == "zero":
                fill = np.zeros((gh, gw, c), np.float32)
            else:
                # (Eigen's: clipped to each channel's [min, max])
                fill = (rng.standard_normal((gh, gw, c)) * img.std(axis=(0, 1)) + img.mean(axis=(0, 1))).astype(np.float32)
                fill = np.clip(fill, img.min(axis=(0, 1)), img.max(axis=(0, 1)))
            rows, cols = np.arange(gh) + oy, np.arange(gw) + ox
            rin, cin = (rows >= 0) & (rows < h), (cols >= 0) & (cols < w)
            win = img[np.clip(rows, 0, h - 1)][:, np.clip(cols, 0, w - 1)]
            inside = (rin[:, None] & cin[None, :])[..., None]
            out[i] = np.where(inside, win, fill)
        return out
    return extract_glimpse
