"""Helpers shared by the LinearOperator classes.

`tf` is resolved lazily: tensorweave/__init__ imports tf.linalg, which imports this package, so
the public namespace is not complete while these modules load.
"""

from ..framework.tensor_shape import dimension_value


class _LazyTF:
    def __getattr__(self, name):
        import tensorweave
        return getattr(tensorweave, name)


tf = _LazyTF()


def convert(x, name=None, dtype=None):
    """convert_to_tensor for operator parameters and method arguments."""
    return tf.convert_to_tensor(x, name=name, dtype=dtype)


def static_int(x):
    """The Python int value of x (an int, Dimension or constant tensor), or None."""
    if x is None:
        return None
    if isinstance(x, int):
        return x
    try:
        v = dimension_value(x)
        if isinstance(v, int) or v is None:
            return v
    except (TypeError, ValueError):
        pass
    v = tf.get_static_value(x)
    return None if v is None else int(v)


def adjoint(x):
    return tf.linalg.adjoint(x)


def broadcast_batch(a, b):
    """Broadcasts the batch dimensions of two [batch] matrices against each other."""
    sa, sb = a.shape, b.shape
    if sa.ndims is not None and sb.ndims is not None and sa[:-2].is_fully_defined() \
            and sb[:-2].is_fully_defined():
        if sa[:-2] == sb[:-2]:
            return a, b
        batch = tf.broadcast_static_shape(sa[:-2], sb[:-2]).as_list()
        if batch != sa[:-2].as_list():
            a = tf.broadcast_to(a, batch + [sa[-2] if sa[-2] is not None else tf.shape(a)[-2],
                                            sa[-1] if sa[-1] is not None else tf.shape(a)[-1]])
        if batch != sb[:-2].as_list():
            b = tf.broadcast_to(b, batch + [sb[-2] if sb[-2] is not None else tf.shape(b)[-2],
                                            sb[-1] if sb[-1] is not None else tf.shape(b)[-1]])
        return a, b
    batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(b)[:-2])
    a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
    b = tf.broadcast_to(b, tf.concat([batch, tf.shape(b)[-2:]], 0))
    return a, b


def matrix_solve_with_broadcast(matrix, rhs, adjoint=False):
    """matrix_solve with the batch dimensions of matrix and rhs broadcast (TF's scope name)."""
    with tf.name_scope(None, "MatrixSolveWithBroadcast", [matrix, rhs]):
        matrix = convert(matrix, name="matrix")
        rhs = convert(rhs, name="rhs", dtype=matrix.dtype)
        matrix, rhs = broadcast_batch(matrix, rhs)
        return tf.linalg.solve(matrix, rhs, adjoint=adjoint)
