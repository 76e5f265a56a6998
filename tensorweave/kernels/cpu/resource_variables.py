"""CPU kernels for resource variables (VarHandleOp, ReadVariableOp, AssignVariableOp, ...) and the
optimizers' Resource* update ops.

A handle is the variable's `VariableCell` (kept by the session's resource manager under the kind
"resource_variable", apart from reference variables). A read hands out the cell's array without a
copy (fetches are copied, like the reads of reference variables). `AssignVariableOp`,
`AssignAddVariableOp` and `AssignSubVariableOp` give the cell a new array, so a read made earlier in
the step keeps the value it saw (TF's copy-on-write); the scatter and training ops update the array
in place, reusing the kernels of their reference-variable twins (kernels/cpu/state.py, training.py).
"""

import numpy as np

from ...framework import errors
from ...runtime.resources import VariableCell
from ..registry import Fixed, get_kernel, register_kernel
from . import state as _state

KIND = "resource_variable"


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _not_found(cell):
    return errors.NotFoundError(None, None, f"Resource localhost/{cell.name}/N10tensorflow3VarE does not "
                                            f"exist.")


def _read(cell):
    v = cell.value
    if v is None:
        raise errors.FailedPreconditionError(
            None, None, f"Could not find variable {cell.name}. This could mean that the variable has been "
                        f"deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                        f"container=localhost, status error message=Resource "
                        f"localhost/{cell.name}/N10tensorflow3VarE does not exist.")
    return v


@register_kernel("VarHandleOp")
def _var_handle(op, ctx):
    name = op._get_attr("shared_name") or op.name
    return Fixed(ctx.resources.lookup_or_create(KIND, name, lambda: VariableCell(name),
                                                op._get_attr("container")))


@register_kernel("VarIsInitializedOp")
def _var_is_initialized(op, ctx):
    def is_initialized(cell):
        return np.array(cell.value is not None)
    return is_initialized


@register_kernel("ReadVariableOp", aliases=True)
def _read_variable(op, ctx):
    return _read


@register_kernel("VariableShape")
def _variable_shape(op, ctx):
    out = op._get_attr("out_type").as_numpy_dtype

    def variable_shape(cell):
        return np.array(_read(cell).shape, dtype=out)
    return variable_shape


@register_kernel("AssignVariableOp")
def _assign_variable(op, ctx):
    validate = op._get_attr("validate_shape")
    np_dtype = op._get_attr("dtype").as_numpy_dtype

    def assign(cell, value):
        value = np.asarray(value)
        with cell.lock:
            cur = cell.value
            if validate and cur is not None and cur.shape != value.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"Trying to assign variable with wrong shape. Expected "
                                f"{_dims(cur.shape)} got {_dims(value.shape)}")
            cell.value = np.array(value, dtype=np_dtype, copy=True, order="C")
    return assign


def _make_update(ufunc):
    def factory(op, ctx):
        def update(cell, value):
            value = np.asarray(value)
            with cell.lock:
                cur = cell.value
                if cur is None:
                    raise _not_found(cell)
                if cur.shape != value.shape:
                    raise errors.InvalidArgumentError(
                        None, None, f"Cannot update variable with shape {_dims(cur.shape)} using a Tensor "
                                    f"with shape {_dims(value.shape)}, shapes must be equal.")
                cell.value = ufunc(cur, value).astype(cur.dtype, copy=False)
        return update
    return factory


register_kernel("AssignAddVariableOp")(_make_update(np.add))
register_kernel("AssignSubVariableOp")(_make_update(np.subtract))


@register_kernel("ResourceGather", aliases=False)
def _resource_gather(op, ctx):
    def gather(cell, indices):
        params = _read(cell)
        indices = np.asarray(indices)
        n = params.shape[0]
        bad = (indices < 0) | (indices >= n)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            pos = ",".join(str(int(j)) for j in np.unravel_index(i, indices.shape)) if indices.ndim else ""
            raise errors.InvalidArgumentError(
                None, None, f"indices[{pos}] = {int(indices.ravel()[i])} is not in [0, {n})")
        return np.take(params, indices, axis=0)
    return gather


@register_kernel("ResourceGatherNd", aliases=False)
def _resource_gather_nd(op, ctx):
    gather_nd = get_kernel("GatherNd").factory(op, ctx)

    def gather(cell, indices):
        return gather_nd(_read(cell), np.asarray(indices))
    return gather


class _Attrs:
    """The resource scatter ops' attributes under the names the reference kernels read."""

    def __init__(self, op, **extra):
        self._op = op
        self._extra = extra

    def _get_attr(self, name):
        if name in self._extra:
            return self._extra[name]
        return self._op._get_attr(name)


def _scatter_factory(ref_type, nd):
    make = _state._make_scatter_nd(ref_type) if nd else _state._make_scatter(ref_type)

    def factory(op, ctx):
        attrs = _Attrs(op) if nd else _Attrs(op, use_locking=False, T=op._get_attr("dtype"))
        kernel = make(attrs, ctx)

        def scatter(cell, indices, updates):
            if cell.value is None:
                raise _not_found(cell)
            kernel(cell, indices, updates)
        return scatter
    return factory


for _t in ("ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin"):
    register_kernel("Resource" + _t)(_scatter_factory(_t, False))
for _t in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    register_kernel("Resource" + _t)(_scatter_factory(_t, True))


# -- the optimizers' Resource* ops: the reference kernels, on the cells the handles carry ----------

def _training_factory(ref_type):
    def factory(op, ctx):
        return get_kernel(ref_type).factory(op, ctx)
    return factory


def _register_training():
    from ...ops import training_ops
    for t in training_ops._SIGNATURES:
        register_kernel("Resource" + t)(_training_factory(t))


_register_training()
