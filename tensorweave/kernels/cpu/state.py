"""CPU kernels for variables and their in-place updates.

A variable's value inside a step is its `VariableCell`. Updates write into `cell.value` in place
(np.copyto, ufunc `out=`/`.at`), so a training step allocates no parameter-sized memory, and they
validate every input before they touch the cell, so a failed update leaves the variable as it was.
"""

import contextlib

import numpy as np

from ...framework import errors
from ..registry import Fixed, register_kernel
from .scatter_rows import rows_at

_NO_LOCK = contextlib.nullcontext()


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _value(cell):
    v = cell.value
    if v is None:
        raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {cell.name}")
    return v


@register_kernel("VariableV2")
def _variable(op, ctx):
    name = op._get_attr("shared_name") or op.name
    return Fixed(ctx.resources.variable(name, op._get_attr("container")))


@register_kernel("Assign")
def _assign(op, ctx):
    validate = op._get_attr("validate_shape")
    np_dtype = op._get_attr("T").as_numpy_dtype
    use_locking = op._get_attr("use_locking")
    # TF's VariableV2 holds a tensor of its declared shape even before it is initialized, so
    # assigning a value of another shape (a restore from a checkpoint) fails then too.
    declared = op.inputs[0].shape
    declared = tuple(declared.as_list()) if declared.is_fully_defined() else None

    def assign(cell, value):
        with cell.lock if use_locking else _NO_LOCK:
            cur = cell.value
            value = np.asarray(value)
            if cur is not None and cur.shape == value.shape:
                np.copyto(cur, value, casting="unsafe")
                return cell
            lhs = cur.shape if cur is not None else declared
            if validate and lhs is not None and lhs != value.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"Assign requires shapes of both tensors to match. lhs shape= "
                                f"{_dims(lhs)} rhs shape= {_dims(value.shape)}")
            # First initialization (or validate_shape=False): a fresh array the variable owns,
            # never an alias of a constant or a fed array.
            cell.value = np.array(value, dtype=np_dtype, copy=True, order="C")
        return cell
    return assign


def _check_same_shape(cur, value):
    if cur.shape != np.shape(value):
        raise errors.InvalidArgumentError(
            None, None, "Parameters and update must be the same size")


@register_kernel("AssignAdd")
def _assign_add(op, ctx):
    use_locking = op._get_attr("use_locking")

    def assign_add(cell, value):
        cur = _value(cell)
        _check_same_shape(cur, value)
        with cell.lock if use_locking else _NO_LOCK:
            np.add(cur, value, out=cur, casting="unsafe")
        return cell
    return assign_add


@register_kernel("AssignSub")
def _assign_sub(op, ctx):
    use_locking = op._get_attr("use_locking")

    def assign_sub(cell, value):
        cur = _value(cell)
        _check_same_shape(cur, value)
        with cell.lock if use_locking else _NO_LOCK:
            np.subtract(cur, value, out=cur, casting="unsafe")
        return cell
    return assign_sub


# -- scatter -----------------------------------------------------------------------------------

def _position(shape, flat_index):
    return ",".join(str(int(i)) for i in np.unravel_index(flat_index, shape)) if shape else ""


def _check_indices(params, indices):
    n = params.shape[0]
    bad = (indices < 0) | (indices >= n)
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise errors.InvalidArgumentError(
            None, None, f"indices[{_position(indices.shape, i)}] = {int(indices.ravel()[i])} is not in "
                        f"[0, {n})")


def _scatter_updates(params, indices, updates):
    want = indices.shape + params.shape[1:]
    if updates.shape != want:
        if updates.ndim == 0:
            return np.broadcast_to(updates, want)
        raise errors.InvalidArgumentError(
            None, None, f"Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], "
                        f"got updates.shape {_dims(updates.shape)}, indices.shape {_dims(indices.shape)}, "
                        f"params.shape {_dims(params.shape)}")
    return updates


def _int_div_at(params, indices, updates):
    # C++ integer division truncates toward zero (NumPy's floor_divide floors).
    for i, u in zip(indices.ravel(), updates.reshape((indices.size,) + params.shape[1:])):
        q = np.abs(params[i]) // np.abs(u)
        params[i] = np.where((params[i] < 0) != (u < 0), -q, q)


_SCATTER_UFUNCS = {"ScatterAdd": np.add, "ScatterSub": np.subtract, "ScatterMul": np.multiply,
                   "ScatterDiv": np.true_divide, "ScatterMax": np.maximum, "ScatterMin": np.minimum}


def _make_scatter(op_type):
    def factory(op, ctx):
        use_locking = op._get_attr("use_locking")
        ufunc = _SCATTER_UFUNCS.get(op_type)
        integer = op._get_attr("T").is_integer

        def scatter(cell, indices, updates):
            params = _value(cell)
            if params.ndim == 0:
                raise errors.InvalidArgumentError(None, None, "params must be at least 1-D, got 0-D")
            indices = np.asarray(indices)
            updates = _scatter_updates(params, indices, np.asarray(updates))
            _check_indices(params, indices)
            with cell.lock if use_locking else _NO_LOCK:
                if ufunc is None:
                    params[indices] = updates
                elif op_type == "ScatterDiv" and integer:
                    _int_div_at(params, indices, updates)
                else:
                    rows_at(ufunc, params, indices, updates)
            return cell
        return scatter
    return factory


for _t in ("ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax",
           "ScatterMin"):
    register_kernel(_t)(_make_scatter(_t))


_ND_UFUNCS = {"ScatterNdAdd": np.add, "ScatterNdSub": np.subtract}


def _make_scatter_nd(op_type):
    def factory(op, ctx):
        use_locking = op._get_attr("use_locking")
        ufunc = _ND_UFUNCS.get(op_type)

        def scatter_nd(cell, indices, updates):
            params = _value(cell)
            indices = np.asarray(indices)
            updates = np.asarray(updates)
            if indices.ndim < 1:
                raise errors.InvalidArgumentError(None, None, "Indices must be at least 1-D")
            k = indices.shape[-1]
            if k > params.ndim:
                raise errors.InvalidArgumentError(
                    None, None, f"Dimensions [0,{k}) of indices[shape={_dims(indices.shape)}] must match "
                                f"dimensions [0,{params.ndim}) of params[shape={_dims(params.shape)}]")
            want = indices.shape[:-1] + params.shape[k:]
            if updates.shape != want:
                if updates.ndim != 0:
                    raise errors.InvalidArgumentError(
                        None, None, f"Dimensions of updates {_dims(updates.shape)} must match "
                                    f"{_dims(want)} (indices.shape[:-1] + params.shape[indices.shape[-1]:])")
                updates = np.broadcast_to(updates, want)
            flat = indices.reshape(-1, k)
            limits = np.asarray(params.shape[:k])
            bad = ((flat < 0) | (flat >= limits)).any(axis=1)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                pos = _position(indices.shape[:-1], i)
                raise errors.InvalidArgumentError(
                    None, None, f"indices[{pos}] = [{', '.join(str(int(x)) for x in flat[i])}] does not "
                                f"index into shape {_dims(params.shape)}")
            idx = tuple(indices[..., j] for j in range(k))
            with cell.lock if use_locking else _NO_LOCK:
                if ufunc is None:
                    params[idx] = updates
                else:
                    ufunc.at(params, idx, updates)
            return cell
        return scatter_nd
    return factory


for _t in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    register_kernel(_t)(_make_scatter_nd(_t))


@register_kernel("CountUpTo")
def _count_up_to(op, ctx):
    limit = op._get_attr("limit")

    def count_up_to(cell):
        with cell.lock:
            cur = _value(cell)
            old = cur.copy()
            if old >= limit:
                raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
            cur += 1
        return old
    return count_up_to


@register_kernel("ResourceCountUpTo")
def _resource_count_up_to(op, ctx):
    limit = op._get_attr("limit")

    def count_up_to(cell):
        with cell.lock:
            old = cell.value
            if old is None:
                # (TF's message while no resource variable of the session has been created yet)
                started = any(c.value is not None for _, c in ctx.resources.items("resource_variable"))
                msg = (f"Resource localhost/{cell.name}/N10tensorflow3VarE does not exist." if started else
                       f"Container localhost does not exist. (Could not find resource: localhost/{cell.name})")
                raise errors.NotFoundError(None, None, msg)
            if old >= limit:
                raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
            cell.value = old + 1        # a new array: a read earlier in the step keeps its value
        return old
    return count_up_to


@register_kernel("IsVariableInitialized")
def _is_variable_initialized(op, ctx):
    def is_initialized(cell):
        return np.array(cell.value is not None)
    return is_initialized


@register_kernel("InitializedValue", aliases=True)
def _initialized_value(op, ctx):
    def initialized_value(cell, initial_value):
        v = cell.value
        return initial_value if v is None else v
    return initialized_value


@register_kernel("AssertVariablesInitialized")
def _assert_variables_initialized(op, ctx):
    names = op._get_attr("names")

    def assert_initialized(*flags):
        for n, f in zip(names, flags):
            if not f:
                raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {n}")
    return assert_initialized
