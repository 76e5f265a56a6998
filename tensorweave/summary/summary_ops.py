"""Summary ops: `tf.summary.scalar/histogram/image/text/audio/tensor_summary/merge/merge_all`.

Each op outputs a scalar string tensor holding a serialized `Summary` protobuf, built at run time
by its kernel (summary/kernels.py); a FileWriter writes them into TensorBoard event files. Op types,
names and tags follow TF1: `tf.summary.scalar("loss", x)` makes op `loss` (ScalarSummary) with a
Const `loss/tags`; inside name scope "train" the tag is "train/loss"; `family="f"` gives "f/loss".
"""

import contextlib
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import GraphKeys, get_default_graph
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from . import kernels as _kernels  # noqa: F401  (registers the kernels)

__all__ = ["scalar", "histogram", "image", "text", "audio", "tensor_summary", "merge", "merge_all",
           "get_summary_description"]


def _scalar_string(op):
    return [TensorShape([])]


for _t in ("ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummaryV2", "TensorSummaryV2",
           "MergeSummary"):
    registry.register_op(_t, shape_fn=_scalar_string)
    registry.no_gradient(_t)

_INVALID_TAG = re.compile(r"[^-/\w\.]")


def _clean_tag(name):
    if name is not None:
        new = _INVALID_TAG.sub("_", name).lstrip("/")
        return new
    return name


@contextlib.contextmanager
def _summary_scope(name, family=None, default_name=None, values=None):
    """TF's summary_op_util.summary_scope: yields (tag, scope)."""
    from ..framework.graph import name_scope
    name = _clean_tag(name)
    family = _clean_tag(family)
    scope_base = f"{family}/{name}" if family else name
    with name_scope(scope_base, default_name, values) as scope:
        tag = scope.rstrip("/") if family is None else f"{family}/{scope.rstrip('/')}"
        yield tag, scope


def _collect(op_tensor, collections, default=(GraphKeys.SUMMARIES,)):
    g = get_default_graph()
    for key in (collections if collections is not None else default):
        g.add_to_collection(key, op_tensor)


def _string_const(value, name):
    return constant(value, dtype=_dtypes.string, name=name)


# TF's `realnumbertypes`: what ScalarSummary's and HistogramSummary's T accepts, in TF's order
_REAL_NUMBER_TYPES = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16",
                      "uint16", "float16", "uint32", "uint64")


def _check_real_number(t, param):
    """TF's op-construction type check (op_def_library): a bool, string or complex tensor is a
    TypeError raised inside the op's name scope, after its tag constant is made."""
    dt = t.dtype.base_dtype
    if dt.name not in _REAL_NUMBER_TYPES:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dt.name} not in list of "
                        f"allowed values: {', '.join(_REAL_NUMBER_TYPES)}")


def scalar(name, tensor, collections=None, family=None):
    """A summary of a scalar (a real number): the `ScalarSummary` op."""
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        tensor = convert_to_tensor(tensor, name="values")
        tags = _string_const(tag, "tags")
        _check_real_number(tensor, "values")
        val = apply_op("ScalarSummary", [tags, tensor], [_dtypes.string], scope,
                       attrs={"T": tensor.dtype.base_dtype})
    _collect(val, collections)
    return val


def histogram(name, values, collections=None, family=None):
    """A histogram of `values` with TensorFlow's default bucket limits (`HistogramSummary`)."""
    with _summary_scope(name, family, values=[values], default_name="HistogramSummary") as (tag, scope):
        values = convert_to_tensor(values, name="values")
        t = _string_const(tag, "tag")
        _check_real_number(values, "values")
        val = apply_op("HistogramSummary", [t, values], [_dtypes.string], scope,
                       attrs={"T": values.dtype.base_dtype})
    _collect(val, collections)
    return val


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """PNG images of a [batch, height, width, channels] tensor (1, 3 or 4 channels)
    (`ImageSummary`); tags are `<tag>/image/<i>`, or `<tag>/image` when max_outputs is 1."""
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        tensor = convert_to_tensor(tensor, name="tensor")
        shape = tensor.shape
        if shape.ndims is not None and shape.ndims != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {shape.ndims} for 'ImageSummary'")
        t = _string_const(tag, "tag")
        val = apply_op("ImageSummary", [t, tensor], [_dtypes.string], scope,
                       attrs={"T": tensor.dtype.base_dtype, "max_images": int(max_outputs),
                              "bad_color": np.array([255, 0, 0, 255], dtype=np.uint8)})
    _collect(val, collections)
    return val


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """WAV audio clips of a [batch, frames] or [batch, frames, channels] float tensor in [-1, 1]
    (`AudioSummaryV2`)."""
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        tensor = convert_to_tensor(tensor, dtype=_dtypes.float32, name="tensor")
        sample_rate = convert_to_tensor(sample_rate, dtype=_dtypes.float32, name="sample_rate")
        t = _string_const(tag, "tag")
        val = apply_op("AudioSummaryV2", [t, tensor, sample_rate], [_dtypes.string], scope,
                       attrs={"max_outputs": int(max_outputs)})
    _collect(val, collections)
    return val


def _text_metadata():
    from ..protos.summary_pb2 import SummaryMetadata
    return SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text", content=b""))


def text(name, tensor, collections=None):
    """A string tensor shown by TensorBoard's text plugin (`TensorSummaryV2`)."""
    # TF does not convert here: a Python str is an AttributeError ('str' object has no attribute 'dtype').
    if tensor.dtype != _dtypes.string:
        raise ValueError("Expected tensor %s to have dtype string, got %s" % (tensor.name, tensor.dtype))
    return tensor_summary(name, tensor, summary_metadata=_text_metadata(), collections=collections)


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None,
                   family=None, display_name=None):
    """A summary holding a whole tensor (`TensorSummaryV2`)."""
    from ..protos.summary_pb2 import SummaryMetadata
    if summary_metadata is None:
        summary_metadata = SummaryMetadata()
    if summary_description is not None:
        summary_metadata.summary_description = summary_description
    if display_name is not None:
        summary_metadata.display_name = display_name
    serialized = summary_metadata.SerializeToString()
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        tensor = convert_to_tensor(tensor, name="tensor")
        t = _string_const(tag, "tag")
        meta = _string_const(serialized, "serialized_summary_metadata")
        val = apply_op("TensorSummaryV2", [t, tensor, meta], [_dtypes.string], scope,
                       attrs={"T": tensor.dtype.base_dtype})
    _collect(val, collections)
    return val


def merge(inputs, collections=None, name=None):
    """One Summary holding the values of all `inputs` (`MergeSummary`); duplicate tags are an
    InvalidArgumentError at run time."""
    from ..framework.graph import name_scope
    inputs = [convert_to_tensor(i) for i in inputs]
    with name_scope(name, "Merge", inputs):
        # TF's op-definition checks (raised inside the scope, which keeps its name).
        if not inputs:
            raise ValueError("List argument 'inputs' to 'MergeSummary' Op with length 0 shorter than "
                             "minimum length 1.")
        if any(i.dtype.base_dtype != _dtypes.string for i in inputs):
            raise TypeError("Tensors in list passed to 'inputs' of 'MergeSummary' Op have types [%s] that "
                            "do not match expected type string." % ", ".join(i.dtype.base_dtype.name
                                                                             for i in inputs))
        # TF passes `name` on to the op too: merge(..., name="m") is "m/m"
        val = apply_op("MergeSummary", inputs, [_dtypes.string], name or "MergeSummary", attrs={"N": len(inputs)})
    _collect(val, collections, default=())
    return val


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """Merges every summary in collection `key` (None if there are none)."""
    ops = get_default_graph().get_collection(key, scope=scope)
    if not ops:
        return None
    return merge(ops, name=name)


def get_summary_description(node_def):
    """The SummaryDescription of a (V1) TensorSummary node's JSON `description` attr; any other
    op (tf.summary.tensor_summary makes TensorSummaryV2) is a ValueError, as in TF."""
    from google.protobuf import json_format

    from ..protos.summary_pb2 import SummaryDescription
    if node_def.op != "TensorSummary":
        raise ValueError("Can't get_summary_description on %s" % node_def.op)
    desc = SummaryDescription()
    raw = node_def.attr["description"].s
    json_format.Parse(raw.decode("utf-8") if isinstance(raw, bytes) else raw, desc)
    return desc
