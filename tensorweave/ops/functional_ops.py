"""`tf.map_fn`, `tf.scan`, `tf.foldl`, `tf.foldr`: loops over the first dimension of (nested)
tensors, built on `while_loop` and `TensorArray` as in TF (same loop variables, so the same names
inside `fn`, and `maximum_iterations=n`), so their gradients are the loop's."""

from .. import nest
from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import name_scope
from ..framework.tensor_shape import Dimension, TensorShape
from . import array_ops, control_flow_ops
from .tensor_array_ops import TensorArray

__all__ = ["map_fn", "scan", "foldl", "foldr"]


def _static_n(elems_flat):
    """TF's n_static: the leading dimension all of `elems_flat` agree on (ValueError if not)."""
    n = Dimension(elems_flat[0].shape.with_rank_at_least(1)[0].value)
    for t in elems_flat[1:]:
        n.assert_is_compatible_with(Dimension(t.shape.with_rank_at_least(1)[0].value))
    return n


def _set_leading(results, n_static):
    for r in results:
        r.set_shape(TensorShape([n_static]).concatenate(r.shape[1:]))


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None):
    """`fn` applied to each element of `elems` (unpacked on dimension 0); results stacked."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         "Got {}, which does not contain any Tensors.".format(elems))
    out_structure = dtype if dtype is not None else elems
    with name_scope(name, "map", elems_flat):
        elems_flat = [convert_to_tensor(e, name="elem") for e in elems_flat]
        if elems_flat[0].shape.ndims is not None and elems_flat[0].shape.ndims < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        n_static = _static_n(elems_flat)
        n = n_static.value or array_ops.shape(elems_flat[0])[0]
        in_tas = [TensorArray(e.dtype, size=n, dynamic_size=False, infer_shape=True).unstack(e)
                  for e in elems_flat]
        i = constant(0)
        if dtype is None:
            out_dtypes = [e.dtype.base_dtype for e in elems_flat]
        else:
            out_dtypes = [_dtypes.as_dtype(d).base_dtype for d in nest.flatten(dtype)]
        out_tas = [TensorArray(d, size=n, dynamic_size=False, infer_shape=infer_shape) for d in out_dtypes]

        def compute(i, tas):
            x = nest.pack_sequence_as(elems, [ta.read(i) for ta in in_tas])
            y = fn(x)
            nest.assert_same_structure(out_structure, y)
            tas = [ta.write(i, v) for ta, v in zip(tas, nest.flatten(y))]
            return (i + 1, tas)

        _, tas = control_flow_ops.while_loop(lambda i, _: i < n, compute, (i, out_tas),
                                             parallel_iterations=parallel_iterations or 10,
                                             back_prop=back_prop, swap_memory=swap_memory,
                                             maximum_iterations=n)
        results = [ta.stack() for ta in tas]
        _set_leading(results, n_static)
        return nest.pack_sequence_as(out_structure, results)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """Cumulative `a = fn(a, x)` over elems (dimension 0); returns all the `a`s stacked."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    a_structure = elems if initializer is None else initializer
    elems_flat = nest.flatten(elems)
    with name_scope(name, "scan", elems_flat):
        elems_flat = [convert_to_tensor(e, name="elem") for e in elems_flat]
        # (As TF: a scalar's shape[0] is an IndexError; a static 0 is kept, not made dynamic.)
        n = elems_flat[0].shape[0].value
        if n is None:
            n = array_ops.shape(elems_flat[0])[0]
        in_tas = [TensorArray(e.dtype, size=n, dynamic_size=False, element_shape=e.shape[1:], infer_shape=True)
                  .unstack(e) for e in elems_flat]
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in in_tas]
            i = 1
        else:
            a_flat = [convert_to_tensor(a) for a in nest.flatten(initializer)]
            i = 0
        acc_tas = [TensorArray(a.dtype, size=n, element_shape=a.shape if infer_shape else None,
                               dynamic_size=False, infer_shape=infer_shape) for a in a_flat]
        if initializer is None:
            acc_tas = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(acc_tas, a_flat)]

        def compute(i, a_flat, tas):
            x = nest.pack_sequence_as(elems, [ta.read(i) for ta in in_tas])
            a_out = fn(nest.pack_sequence_as(a_structure, a_flat), x)
            nest.assert_same_structure(a_structure, a_out)
            flat_out = nest.flatten(a_out)
            tas = [ta.write(i, v) for ta, v in zip(tas, flat_out)]
            return (i - 1 if reverse else i + 1, flat_out, tas)

        if reverse:
            start, condition = n - 1 - i, lambda i, _1, _2: i >= 0
        else:
            start, condition = i, lambda i, _1, _2: i < n
        _, _, tas = control_flow_ops.while_loop(condition, compute, (start, a_flat, acc_tas),
                                                parallel_iterations=parallel_iterations, back_prop=back_prop,
                                                swap_memory=swap_memory, maximum_iterations=n)
        results = [ta.stack() for ta in tas]
        _set_leading(results, _static_n(elems_flat))
        return nest.pack_sequence_as(a_structure, results)


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, reverse):
    if not callable(fn):
        raise TypeError("fn must be callable.")
    with name_scope(name, "foldr" if reverse else "foldl", [elems]):
        elems_flat = [convert_to_tensor(e, name="elem") for e in nest.flatten(elems)]
        n = elems_flat[0].shape[0].value or array_ops.shape(elems_flat[0])[0]
        tas = nest.pack_sequence_as(elems, [TensorArray(e.dtype, size=n, dynamic_size=False, infer_shape=True)
                                            .unstack(e) for e in elems_flat])

        def read(i):
            return nest.map_structure(lambda ta: ta.read(i), tas)

        if reverse:
            # As TF: i counts down from n, decremented before each read.
            if initializer is None:
                i = n - 1
                a = read(i)
            else:
                i, a = n, initializer

            def compute(i, a):
                i -= 1
                return [i, fn(a, read(i))]
            condition = lambda i, a: i > 0  # noqa: E731
        else:
            if initializer is None:
                a, i = read(0), constant(1)
            else:
                a, i = initializer, constant(0)

            def compute(i, a):
                a = fn(a, read(i))
                return [i + 1, a]
            condition = lambda i, a: i < n  # noqa: E731
        _, r_a = control_flow_ops.while_loop(condition, compute, [i, a], parallel_iterations=parallel_iterations,
                                             back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)
        return r_a


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`fn(...fn(fn(initializer, elems[0]), elems[1])..., elems[n-1])`."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """Like foldl, from the last element to the first."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, True)
