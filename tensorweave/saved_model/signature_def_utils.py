"""SignatureDef builders (`tf.saved_model.signature_def_utils`)."""

from ..framework import dtypes as _dtypes
from . import signature_constants as sc
from .utils import build_tensor_info

__all__ = ["build_signature_def", "predict_signature_def", "classification_signature_def",
           "regression_signature_def", "is_valid_signature"]


def build_signature_def(inputs=None, outputs=None, method_name=None):
    """A SignatureDef from dicts of name -> TensorInfo and a method name."""
    from ..protos.meta_graph_pb2 import SignatureDef
    sd = SignatureDef()
    for k, v in (inputs or {}).items():
        sd.inputs[k].CopyFrom(v)
    for k, v in (outputs or {}).items():
        sd.outputs[k].CopyFrom(v)
    if method_name is not None:
        sd.method_name = method_name
    return sd


def predict_signature_def(inputs, outputs):
    """A predict SignatureDef from dicts of name -> Tensor."""
    if inputs is None or not inputs:
        raise ValueError("Prediction inputs cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction outputs cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()}, sc.PREDICT_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    """A classify SignatureDef: serialized tf.Examples in, classes (string) and/or scores out."""
    if examples is None:
        raise ValueError("Classification examples cannot be None.")
    if examples.dtype.base_dtype is not _dtypes.string:
        raise ValueError("Classification examples must be a string Tensor.")
    if classes is None and scores is None:
        raise ValueError("Classification classes and scores cannot both be None.")
    outputs = {}
    if classes is not None:
        if classes.dtype.base_dtype is not _dtypes.string:
            raise ValueError("Classification classes must be a string Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_CLASSES] = build_tensor_info(classes)
    if scores is not None:
        if scores.dtype.base_dtype is not _dtypes.float32:
            raise ValueError("Classification scores must be a float32 Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_SCORES] = build_tensor_info(scores)
    return build_signature_def({sc.CLASSIFY_INPUTS: build_tensor_info(examples)}, outputs,
                               sc.CLASSIFY_METHOD_NAME)


def regression_signature_def(examples, predictions):
    """A regress SignatureDef: serialized tf.Examples in, float32 predictions out."""
    if examples is None:
        raise ValueError("Regression examples cannot be None.")
    if examples.dtype.base_dtype is not _dtypes.string:
        raise ValueError("Regression examples must be a string Tensor.")
    if predictions is None:
        raise ValueError("Regression predictions cannot be None.")
    if predictions.dtype.base_dtype is not _dtypes.float32:
        raise ValueError("Regression predictions must be a float32 Tensor.")
    return build_signature_def({sc.REGRESS_INPUTS: build_tensor_info(examples)},
                               {sc.REGRESS_OUTPUTS: build_tensor_info(predictions)}, sc.REGRESS_METHOD_NAME)


def is_valid_signature(signature_def):
    if signature_def is None or not signature_def.method_name:
        return False
    if signature_def.method_name == sc.PREDICT_METHOD_NAME:
        return bool(signature_def.inputs) and bool(signature_def.outputs)
    return True
