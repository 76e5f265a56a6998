"""tf.map_fn over RaggedTensors and with ragged results (TF's map_fn with
`fn_output_signature=tf.RaggedTensorSpec(...)`): a while loop over the rows, each RaggedTensor in
`elems` giving `fn` one row (a Tensor for ragged_rank 1), each ragged output collected as
row values + row lengths in two TensorArrays and rebuilt with from_row_lengths. Calls with no
ragged input or output go to the dense map_fn unchanged."""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import name_scope
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..ops import array_ops, control_flow_ops
from ..ops.tensor_array_ops import TensorArray
from .ragged_spec import RaggedTensorSpec
from .ragged_tensor import RaggedTensor

__all__ = ["make_map_fn"]


def _flatten(x):
    if isinstance(x, dict):
        return [v for k in sorted(x) for v in _flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [v for item in x for v in _flatten(item)]
    return [x]


def _pack(structure, flat):
    it = iter(flat)

    def build(s):
        if isinstance(s, dict):   # values in sorted-key order, keys in the structure's order (TF's nest)
            vals = {k: build(s[k]) for k in sorted(s)}
            return {k: vals[k] for k in s}
        if isinstance(s, (list, tuple)):
            return type(s)(build(v) for v in s)
        return next(it)
    return build(structure)


def _row_spec(e):
    """The default output spec for an element of `e` (the elems signature, as TF)."""
    if isinstance(e, RaggedTensor):
        if e.ragged_rank == 1:
            return RaggedTensorSpec(None, e.dtype, 0, e.row_splits.dtype)
        return RaggedTensorSpec(None, e.dtype, e.ragged_rank - 1, e.row_splits.dtype)
    return e.dtype.base_dtype


def make_map_fn(dense_map_fn):
    """A tf.map_fn that handles RaggedTensors and delegates everything else to dense_map_fn."""
    def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
               infer_shape=True, name=None, fn_output_signature=None):
        if fn_output_signature is not None and dtype is not None:
            raise ValueError("map_fn() was called with both `dtype` and `fn_output_signature`; only one "
                             "should be specified.")
        signature = fn_output_signature if fn_output_signature is not None else dtype
        ragged_in = any(isinstance(e, RaggedTensor) for e in _flatten(elems))
        ragged_out = any(isinstance(s, RaggedTensorSpec) for s in _flatten(signature))
        if not ragged_in and not ragged_out:
            if signature is not None:
                signature = _pack(signature, [s.dtype if isinstance(s, TensorSpec) else s for s in _flatten(signature)])
            return dense_map_fn(fn, elems, signature, parallel_iterations, back_prop, swap_memory, infer_shape,
                                name)
        return _ragged_map_fn(fn, elems, signature, parallel_iterations, back_prop, swap_memory, name)
    map_fn.__doc__ = dense_map_fn.__doc__
    map_fn.__name__ = "map_fn"
    return map_fn


def _ragged_map_fn(fn, elems, signature, parallel_iterations, back_prop, swap_memory, name):
    elems_flat = [e if isinstance(e, RaggedTensor) else convert_to_tensor(e, name="elem") for e in _flatten(elems)]
    if signature is None:
        signature = _pack(elems, [_row_spec(e) for e in elems_flat])
    specs = _flatten(signature)
    with name_scope(name, "map", [e.flat_values if isinstance(e, RaggedTensor) else e for e in elems_flat]):
        first = elems_flat[0]
        n = first.nrows(out_type=_dtypes.int32) if isinstance(first, RaggedTensor) else \
            array_ops.shape(first)[0]
        tas = []
        for s in specs:
            if isinstance(s, RaggedTensorSpec):
                if s.ragged_rank > 0:
                    raise NotImplementedError("map_fn with a RaggedTensorSpec of ragged_rank > 0 (rows that "
                                              "are RaggedTensors) is not supported by tensorweave yet")
                tas.append(TensorArray(s.dtype, size=n, infer_shape=False))
                tas.append(TensorArray(s.row_splits_dtype, size=n))
            else:
                d = s.dtype if isinstance(s, TensorSpec) else _dtypes.as_dtype(s)
                tas.append(TensorArray(d, size=n))

        def body(i, tas):
            row = [e[i] if isinstance(e, RaggedTensor) else array_ops.gather(e, i) for e in elems_flat]
            y = fn(_pack(elems, row))
            ys = _flatten(y)
            if len(ys) != len(specs):
                raise ValueError("The two structures don't have the same number of elements. "
                                 f"First structure: {signature}, second structure: {y}.")
            out, k = [], 0
            for s, v in zip(specs, ys):
                if isinstance(s, RaggedTensorSpec):
                    v = convert_to_tensor(v, dtype=s.dtype)
                    if v.shape.ndims == 0:
                        raise ValueError("a RaggedTensorSpec output must be at least rank 1")
                    out.append(tas[k].write(i, v))
                    out.append(tas[k + 1].write(i, array_ops.shape(v, out_type=s.row_splits_dtype)[0]))
                    k += 2
                else:
                    out.append(tas[k].write(i, convert_to_tensor(v)))
                    k += 1
            return i + 1, out

        _, tas = control_flow_ops.while_loop(lambda i, tas: i < n, body, [convert_to_tensor(0), tas],
                                             parallel_iterations=parallel_iterations or 10,
                                             back_prop=back_prop, swap_memory=swap_memory)
        results, k = [], 0
        for s in specs:
            if isinstance(s, RaggedTensorSpec):
                values = tas[k].concat()
                if s.shape.ndims is not None:
                    values.set_shape(TensorShape([None]).concatenate(s.shape[1:]))
                lengths = tas[k + 1].stack()
                if s.shape.ndims and s.shape.dims[0].value is not None:
                    # a fixed row length: a uniform dimension, as TF's
                    results.append(RaggedTensor.from_uniform_row_length(values, s.shape.dims[0].value,
                                                                        array_ops.shape(lengths)[0], validate=False))
                else:
                    results.append(RaggedTensor.from_row_lengths(values, lengths, validate=False))
                k += 2
            else:
                results.append(tas[k].stack())
                k += 1
        return _pack(signature, results)

