"""CPU kernels of the summary ops: each builds a serialized `Summary` protobuf.

(They live beside the ops rather than in kernels/cpu/ so that summaries stay one optional
package; they register through the same kernel registry.)
"""

import io as _io
import struct
import wave
import zlib

import numpy as np

from ..framework import errors
from ..kernels.registry import register_kernel


def _bytes(x):
    x = x.item() if isinstance(x, np.ndarray) and x.ndim == 0 else x
    return x if isinstance(x, bytes) else str(x).encode()


def _tag(x):
    return _bytes(x).decode("utf-8", "replace")


def _out(summary):
    out = np.empty((), dtype=object)
    out[()] = summary.SerializeToString()
    return out


def _summary_pb():
    from ..protos.summary_pb2 import Summary
    return Summary


# -- scalars ----------------------------------------------------------------------------------

@register_kernel("ScalarSummary")
def _scalar_summary(op, ctx):
    Summary = _summary_pb()

    def scalar_summary(tags, values):
        tags, values = np.asarray(tags, dtype=object), np.asarray(values)
        if tags.shape != values.shape:
            raise errors.InvalidArgumentError(
                None, None, f"tags and values are not the same shape: [{','.join(map(str, tags.shape))}] != "
                            f"[{','.join(map(str, values.shape))}]")
        s = Summary()
        for t, v in zip(tags.ravel(), values.ravel()):
            s.value.add(tag=_tag(t), simple_value=float(v))
        return _out(s)
    return scalar_summary


# -- histograms -------------------------------------------------------------------------------

def _default_bucket_limits():
    pos = []
    v = 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(np.finfo(np.float64).max)
    neg = [-x for x in reversed(pos)]
    return np.array(neg + [0.0] + pos, dtype=np.float64)


_LIMITS = _default_bucket_limits()


def histogram_proto(values):
    """A HistogramProto of `values` exactly as TF's Histogram class encodes it: its default
    exponential bucket limits (1e-12 * 1.1**k, mirrored, plus 0 and +-DBL_MAX), runs of empty
    buckets collapsed into one."""
    from ..protos.summary_pb2 import HistogramProto
    v = np.asarray(values, dtype=np.float64).ravel()
    counts = np.bincount(np.searchsorted(_LIMITS, v, side="right"), minlength=len(_LIMITS))[:len(_LIMITS)]
    h = HistogramProto()
    if v.size:
        h.min, h.max = float(v.min()), float(v.max())
    else:
        h.min, h.max = float(_LIMITS[-1]), float(-_LIMITS[-1])
    h.num = float(v.size)
    h.sum = float(v.sum())
    h.sum_squares = float(np.dot(v, v))
    limits, buckets = [], []
    nz = counts > 0
    i, n = 0, len(counts)
    while i < n:
        end, count = _LIMITS[i], counts[i]
        i += 1
        if count <= 0:
            # skip the run of empty buckets: keep only its last limit
            j = i
            nxt = np.argmax(nz[j:]) if j < n and nz[j:].any() else n - j
            i = j + nxt
            end = _LIMITS[i - 1]
            count = 0
        limits.append(float(end))
        buckets.append(float(count))
    h.bucket_limit.extend(limits)
    h.bucket.extend(buckets)
    return h


@register_kernel("HistogramSummary")
def _histogram_summary(op, ctx):
    Summary = _summary_pb()

    def histogram_summary(tag, values):
        v = np.asarray(values)
        if v.dtype.kind in "fc" and not np.isfinite(v).all():
            what = "Nan" if np.isnan(v).any() else "Infinity"
            raise errors.InvalidArgumentError(None, None, f"{what} in summary histogram for: {_tag(tag)}")
        s = Summary()
        s.value.add(tag=_tag(tag), histo=histogram_proto(v))
        return _out(s)
    return histogram_summary


# -- images -----------------------------------------------------------------------------------

def encode_png(img):
    """PNG bytes of a uint8 [height, width, channels] array (1: gray, 3: RGB, 4: RGBA)."""
    h, w, c = img.shape
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = np.concatenate([np.zeros((h, 1), np.uint8), img.reshape(h, w * c)], axis=1).tobytes()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def _to_uint8(img):
    """TF's ImageSummary scaling of a float image (image_summary_op.cc NormalizeFloatImage):
    [0, max] -> [0, 255] if all >= 0, else centred at 128 with the largest magnitude at 127.
    The range is taken over pixels whose channels are all finite, the arithmetic is done in the
    image's own float type, and the result is truncated (a C++ cast to uint8), not rounded."""
    if img.dtype == np.uint8:
        return img
    ftype = img.dtype.type if img.dtype in (np.float16, np.float64) else np.float32
    x = img.astype(ftype)
    finite_px = np.isfinite(x).all(axis=-1)
    vals = x[finite_px]
    lo = float(vals.min()) if vals.size else float("inf")
    hi = float(vals.max()) if vals.size else float("-inf")
    k_zero = 1e-6
    if lo < 0:
        max_val = np.float32(max(abs(lo), abs(hi)))
        scale = ftype(0.0 if max_val < k_zero else np.float32(127.0) / max_val)
        offset = ftype(128.0)
    else:
        scale = ftype(0.0 if hi < k_zero else np.float32(255.0) / np.float32(hi))
        offset = ftype(0.0)
    with np.errstate(all="ignore"):
        out = x * scale + offset
    out = np.where(finite_px[..., None], out, 0.0)
    finite = np.broadcast_to(finite_px[..., None], x.shape)
    return np.trunc(np.clip(out, 0, 255)).astype(np.uint8), finite


@register_kernel("ImageSummary")
def _image_summary(op, ctx):
    Summary = _summary_pb()
    max_images = op._get_attr("max_images")
    bad = np.asarray(op._get_attr("bad_color"), dtype=np.uint8)

    def image_summary(tag, tensor):
        t = np.asarray(tensor)
        if t.ndim != 4 or t.shape[-1] not in (1, 3, 4):
            raise errors.InvalidArgumentError(
                None, None, "Tensor must be 4-D with last dim 1, 3, or 4, not "
                            f"[{','.join(map(str, t.shape))}]")
        tag_s = _tag(tag)
        s = Summary()
        n = min(max_images, t.shape[0])
        for i in range(n):
            img = t[i]
            if img.dtype == np.uint8:
                u8 = img
            else:
                u8, finite = _to_uint8(img)
                if not finite.all():
                    badpix = ~finite.all(axis=-1)
                    u8[badpix] = bad[:img.shape[-1]] if img.shape[-1] != 2 else bad[:2]
            v = s.value.add(tag=f"{tag_s}/image" if max_images == 1 else f"{tag_s}/image/{i}")
            v.image.height, v.image.width, v.image.colorspace = img.shape[0], img.shape[1], img.shape[2]
            v.image.encoded_image_string = encode_png(np.ascontiguousarray(u8))
        return _out(s)
    return image_summary


# -- audio ------------------------------------------------------------------------------------

@register_kernel("AudioSummaryV2")
def _audio_summary(op, ctx):
    Summary = _summary_pb()
    max_outputs = op._get_attr("max_outputs")

    def audio_summary(tag, tensor, sample_rate):
        t = np.asarray(tensor, dtype=np.float32)
        if t.ndim == 2:
            t = t[:, :, None]
        if t.ndim != 3:
            raise errors.InvalidArgumentError(None, None, "sample_rate must be a scalar and tensor must be "
                                                          "2-D or 3-D")
        rate = float(np.asarray(sample_rate))
        tag_s = _tag(tag)
        s = Summary()
        for i in range(min(max_outputs, t.shape[0])):
            clip = np.clip(t[i], -1.0, 1.0)
            pcm = (clip * 32767.0).astype("<i2")
            buf = _io.BytesIO()
            with wave.open(buf, "wb") as w:
                w.setnchannels(t.shape[2])
                w.setsampwidth(2)
                w.setframerate(int(rate))
                w.writeframes(pcm.tobytes())
            v = s.value.add(tag=f"{tag_s}/audio" if max_outputs == 1 else f"{tag_s}/audio/{i}")
            v.audio.sample_rate = rate
            v.audio.num_channels = t.shape[2]
            v.audio.length_frames = t.shape[1]
            v.audio.encoded_audio_string = buf.getvalue()
            v.audio.content_type = "audio/wav"
        return _out(s)
    return audio_summary


# -- tensors and merging ----------------------------------------------------------------------

@register_kernel("TensorSummaryV2")
def _tensor_summary(op, ctx):
    from ..framework.dtypes import as_dtype
    from ..framework.graph_io import make_tensor_proto
    from ..protos.summary_pb2 import SummaryMetadata
    Summary = _summary_pb()
    dtype = op._get_attr("T")

    def tensor_summary(tag, tensor, serialized_metadata):
        s = Summary()
        v = s.value.add(tag=_tag(tag))
        v.metadata.CopyFrom(SummaryMetadata.FromString(_bytes(serialized_metadata)))
        v.tensor.CopyFrom(make_tensor_proto(np.asarray(tensor, dtype=object if dtype.name == "string" else None),
                                            dtype=as_dtype(dtype)))
        return _out(s)
    return tensor_summary


@register_kernel("MergeSummary")
def _merge_summary(op, ctx):
    Summary = _summary_pb()

    def merge_summary(*inputs):
        out = Summary()
        seen = set()
        for x in inputs:
            for b in np.asarray(x, dtype=object).ravel():
                s = Summary()
                try:
                    s.ParseFromString(_bytes(b))
                except Exception:  # noqa: BLE001
                    raise errors.InvalidArgumentError(None, None, "Could not parse one of the summary inputs") \
                        from None
                for v in s.value:
                    if v.tag and v.tag in seen:
                        raise errors.InvalidArgumentError(None, None,
                                                          f"Duplicate tag {v.tag} found in summary inputs")
                    seen.add(v.tag)
                    out.value.add().CopyFrom(v)
        return _out(out)
    return merge_summary
