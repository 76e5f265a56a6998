"""A SavedModel loaded for serving: one graph, one session, request validation and conversion."""

import os

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors


class RequestError(Exception):
    """A bad request (HTTP 400 unless `status` says otherwise)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def resolve_model_dir(model_dir):
    """(export_dir, version): model_dir itself, or its highest numeric version subdirectory."""
    from ..saved_model.loader import maybe_saved_model_directory
    if maybe_saved_model_directory(model_dir):
        return model_dir, "1"
    versions = [d for d in os.listdir(model_dir) if d.isdigit()
                and maybe_saved_model_directory(os.path.join(model_dir, d))] if os.path.isdir(model_dir) else []
    if not versions:
        raise IOError(f"No SavedModel (saved_model.pb) in {model_dir} or in a numeric version subdirectory")
    v = max(versions, key=int)
    return os.path.join(model_dir, v), v


class ServedModel:
    """Loads the "serve" MetaGraphDef of a SavedModel and runs its signatures."""

    def __init__(self, model_dir, name="default", tags=("serve",)):
        from .. import Graph, Session
        from ..saved_model import loader
        self.name = name
        self.export_dir, self.version = resolve_model_dir(model_dir)
        self.graph = Graph()
        self.session = Session(graph=self.graph)
        self.meta_graph = loader.load(self.session, list(tags), self.export_dir)
        self.signatures = {}
        for key, sig in self.meta_graph.signature_def.items():
            ins = {k: (self.graph.get_tensor_by_name(v.name), _dtypes.as_dtype(v.dtype)) for k, v in sig.inputs.items()}
            outs = {k: self.graph.get_tensor_by_name(v.name) for k, v in sig.outputs.items()}
            self.signatures[key] = (ins, outs, sig)
        if not self.signatures:
            raise IOError(f"The SavedModel in {self.export_dir} has no signatures to serve")
        self.graph.finalize()

    def default_signature(self):
        return "serving_default" if "serving_default" in self.signatures else sorted(self.signatures)[0]

    def metadata(self):
        from google.protobuf import json_format
        sigs = {k: json_format.MessageToDict(s, preserving_proto_field_name=True) for k, (_, _, s) in self.signatures.items()}
        return {"model_spec": {"name": self.name, "signature_name": "", "version": self.version},
                "metadata": {"signature_def": {"signature_def": sigs}}}

    def status(self):
        return {"model_version_status": [{"version": self.version, "state": "AVAILABLE",
                                          "status": {"error_code": "OK", "error_message": ""}}]}

    # -- predict -------------------------------------------------------------------------------
    def _convert(self, name, value, tensor, dtype):
        try:
            if dtype is _dtypes.string:
                arr = np.asarray(value, dtype=object)
                if arr.size and not all(isinstance(v, str) for v in arr.ravel()):
                    raise ValueError("expected strings")
                arr = np.vectorize(lambda s: s.encode(), otypes=[object])(arr) if arr.size else arr
            else:
                raw = np.asarray(value)
                if raw.dtype == object or raw.dtype.kind in "USO":
                    raise ValueError("values must be numbers (and rows of equal length)")
                if dtype.is_integer and raw.dtype.kind == "f" and not np.all(np.mod(raw, 1) == 0):
                    raise ValueError(f"non-integer values for an {dtype.name} input")
                if dtype.is_bool and raw.dtype.kind != "b":
                    raise ValueError("expected booleans")
                arr = raw.astype(dtype.as_numpy_dtype)
        except (ValueError, TypeError, OverflowError) as e:
            raise RequestError(f"Input '{name}': cannot convert to {dtype.name}: {e}") from None
        if not tensor.shape.is_compatible_with(arr.shape):
            raise RequestError(f"Input '{name}': shape {list(arr.shape)} is not compatible with the "
                               f"signature's shape {tensor.shape}")
        return arr

    def predict(self, body):
        if not isinstance(body, dict):
            raise RequestError("Request body must be a JSON object with \"instances\" or \"inputs\"")
        sig_name = body.get("signature_name") or self.default_signature()
        if sig_name not in self.signatures:
            raise RequestError(f"Serving signature name: \"{sig_name}\" not found in signature def")
        ins, outs, _ = self.signatures[sig_name]
        has_instances, has_inputs = "instances" in body, "inputs" in body
        if has_instances == has_inputs:
            raise RequestError("Request must have exactly one of \"instances\" (row format) or \"inputs\" "
                               "(columnar format)")
        extra = set(body) - {"instances", "inputs", "signature_name"}
        if extra:
            raise RequestError(f"Unknown request field(s): {sorted(extra)}")
        if has_instances:
            rows = body["instances"]
            if not isinstance(rows, list) or not rows:
                raise RequestError("\"instances\" must be a non-empty list")
            if all(isinstance(r, dict) for r in rows):
                keys = set(rows[0])
                if any(set(r) != keys for r in rows):
                    raise RequestError("All instances must have the same named inputs")
                columns = {k: [r[k] for r in rows] for k in keys}
            elif len(ins) == 1:
                columns = {next(iter(ins)): rows}
            else:
                raise RequestError(f"The signature has {len(ins)} inputs ({sorted(ins)}); instances must be "
                                   "objects naming each input")
        else:
            columns = body["inputs"]
            if not isinstance(columns, dict):
                if len(ins) != 1:
                    raise RequestError(f"\"inputs\" must be an object naming each input: {sorted(ins)}")
                columns = {next(iter(ins)): columns}
        unknown = set(columns) - set(ins)
        if unknown:
            raise RequestError(f"Unknown input name(s) {sorted(unknown)}; the signature's inputs are {sorted(ins)}")
        missing = set(ins) - set(columns)
        if missing:
            raise RequestError(f"Missing input(s) {sorted(missing)}")
        feed = {ins[k][0]: self._convert(k, v, *ins[k]) for k, v in columns.items()}
        names = sorted(outs)
        try:
            values = self.session.run([outs[k] for k in names], feed)
        except (errors.InvalidArgumentError, errors.OutOfRangeError) as e:
            raise RequestError(f"{type(e).__name__}: {e.message}") from None
        except errors.OpError as e:
            raise RequestError(f"{type(e).__name__}: {e.message}", status=500) from None
        result = dict(zip(names, (_jsonable(v) for v in values)))
        if has_instances:
            arrays = dict(zip(names, values))
            n = len(body["instances"])
            if any(np.ndim(a) == 0 or np.shape(a)[0] != n for a in arrays.values()):
                raise RequestError("Outputs do not have a batch dimension matching the instances; use the "
                                   "columnar \"inputs\" format", status=400)
            if len(names) == 1:
                return {"predictions": result[names[0]]}
            return {"predictions": [{k: result[k][i] for k in names} for i in range(n)]}
        if len(names) == 1:
            return {"outputs": result[names[0]]}
        return {"outputs": result}


def _jsonable(value):
    a = np.asarray(value)
    if a.dtype == object:
        return np.vectorize(lambda b: b.decode("utf-8", "replace") if isinstance(b, bytes) else b,
                            otypes=[object])(a).tolist()
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        return np.where(np.isfinite(a), a, None).tolist()  # NaN/Inf are not JSON
    return a.tolist()
