"""CPU kernels for math ops (NumPy).

Elementwise kernels return NumPy ufuncs directly where the ufunc already has TF's semantics, so a
step pays no extra Python frame for them. Reduction axes are bound at compile time when they are
constant. Dtypes are kept: integer sums are summed in their own dtype (NumPy would widen int32 to
int64), integer means are truncated toward zero like TF's.
"""

import numpy as np

from ...framework import errors
from ...framework.constant_op import constant_value
from ..registry import register_kernel
from . import direct_conv, eigen_math, eigen_pow, libm, onednn_gemm, parallel, tf_order, x86_approx
from .scatter_rows import rows_at

def scipy_special(name, fallback=None):
    """SciPy's special function `name` (SciPy is a dependency, imported on first use so that
    `import tensorweave` does not pay for it); `fallback`, or an UnimplementedError, when SciPy
    cannot be imported."""
    resolved = []

    def call(*xs):
        if not resolved:
            try:
                import scipy.special
                resolved.append(getattr(scipy.special, name))
            except ImportError:  # pragma: no cover - a broken environment
                if fallback is None:
                    raise errors.UnimplementedError(None, None, f"{name} needs SciPy, which could not be "
                                                                "imported") from None
                resolved.append(fallback)
        return resolved[0](*xs)
    return call


_erf = scipy_special("erf")


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


_DT_ENUM = {"float16": "HALF", "float32": "FLOAT", "float64": "DOUBLE"}


def no_kernel(op, *attrs):
    """A kernel that fails as TF does for a dtype it registers no CPU kernel for (only at run
    time here: TF fails the whole session's placement)."""
    shown = ", ".join(f"{a}=DT_{_DT_ENUM.get(op._attrs[a].name, op._attrs[a].name.upper())}"
                      for a in (attrs or ("T",)))
    msg = (f"No OpKernel was registered to support Op '{op._type}' used by {{{{node {op.name}}}}} "
           f"with these attrs: [{shown}]")

    def unregistered(*args):
        raise _invalid(msg)
    return unregistered


def _dtype_of(op, i=0):
    return op._inputs[i]._dtype.base_dtype


def _is_int(op, i=0):
    dt = op._inputs[i]._dtype.base_dtype
    return dt.is_integer


def _ufunc(op_type, fn):
    name = fn.__name__

    @register_kernel(op_type)
    def factory(op, ctx):
        return getattr(ctx.xp, name, fn)   # the device's ufunc (NumPy's on CPU): no extra frame
    return factory


# -- elementwise: ufuncs used as they are --------------------------------------------------------

for _t, _f in [("Add", np.add), ("AddV2", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
               ("Neg", np.negative),
               ("Abs", np.absolute), ("Sign", np.sign), ("Square", np.square), ("Sqrt", np.sqrt),
               ("Atan", np.arctan), ("Atan2", np.arctan2), ("Floor", np.floor), ("Ceil", np.ceil),
               ("IsNan", np.isnan), ("IsInf", np.isinf),
               ("IsFinite", np.isfinite), ("Equal", np.equal), ("NotEqual", np.not_equal),
               ("Less", np.less), ("LessEqual", np.less_equal), ("Greater", np.greater),
               ("GreaterEqual", np.greater_equal), ("LogicalAnd", np.logical_and),
               ("LogicalOr", np.logical_or), ("LogicalNot", np.logical_not), ("Conj", np.conjugate),
               ("Real", np.real), ("Imag", np.imag)]:
    _ufunc(_t, _f)


@register_kernel("ComplexAbs")
def _complex_abs(op, ctx):
    # std::abs of a complex is hypot(re, im) in the input precision: |-3+0.5j| is 3.0413814 in
    # TF, NumPy's complex64 absolute gives 3.0413811
    if ctx.xp is not np:
        return ctx.xp.absolute

    def complex_abs(z):
        z = np.asarray(z)
        return np.hypot(z.real, z.imag)
    return complex_abs


# Which operand a tie (-0.0 vs 0.0) keeps in TF's Maximum/Minimum: Eigen's packet path (AVX:
# 8 float32s, 4 float64s) keeps the second, its scalar path (the last n % packet values, and all
# of float16) the first. NaN wins either way. Measured on TF 2.21.
_PACKET = {np.dtype(np.float32): 8, np.dtype(np.float64): 4, np.dtype(np.float16): 0}


def _np_keeps_first(dt):
    """Whether NumPy's maximum keeps its first operand on a tie (it differs by dtype: NumPy 2.x
    keeps float16's first and float32's second)."""
    return bool(np.signbit(np.maximum(np.full(16, -0.0, dt), np.full(16, 0.0, dt))).all())


def _eigen_max_min(op_type, fn):
    @register_kernel(op_type)
    def factory(op, ctx):
        f = getattr(ctx.xp, fn.__name__, fn)
        dt = np.dtype(op._inputs[0]._dtype.base_dtype.as_numpy_dtype or np.object_)
        packet = _PACKET.get(dt)
        if packet is None or ctx.xp is not np:
            return f
        if _np_keeps_first(dt):
            def first(x, y): return f(x, y)
            def second(x, y): return f(y, x)
        else:
            def first(x, y): return f(y, x)
            second = f
        if packet == 0:
            return first

        def eigen_max_min(x, y):
            out = second(x, y)
            if isinstance(out, np.ndarray) and not out.flags.c_contiguous:
                out = np.ascontiguousarray(out)     # (the flat write below must be a view)
            tail = out.size % packet
            if not tail:
                return out
            if out.ndim == 0:
                return first(x, y)
            xt = np.broadcast_to(x, out.shape).reshape(-1)[-tail:]
            yt = np.broadcast_to(y, out.shape).reshape(-1)[-tail:]
            out.reshape(-1)[-tail:] = first(xt, yt)
            return out
        return eigen_max_min
    return factory


_eigen_max_min("Maximum", np.maximum)
_eigen_max_min("Minimum", np.minimum)


# Float32 Exp, Log, Log1p, Tanh and Sigmoid of up to this many values round as TF's Eigen kernels
# do (eigen_math: packet polynomials, glibc for the last n % 8), so printed values match TF's
# digits; the emulation costs ~20 NumPy passes, so bigger tensors keep NumPy's ufuncs.
_TF_ROUNDED_MAX = 1 << 14


def _on_scalars_too(exact):
    """`exact` that also takes NumPy scalars (a scalar op's result feeding this one), as a
    one-element array: NumPy's own scalar ufuncs round differently from TF's."""
    def exact_any(x):
        if isinstance(x, np.generic):
            return exact(np.asarray(x).reshape(1))[0]
        return exact(x)
    return exact_any


def _tf_rounded(op_type, fast, exact):
    exact_any = _on_scalars_too(exact)

    def tf_rounded(x):
        if isinstance(x, (np.ndarray, np.float32)) and 0 < x.size <= _TF_ROUNDED_MAX:
            return exact_any(x)
        return fast(x)
    if op_type == "Tanh":               # elementwise, no packet tail: groups run as one call
        tf_rounded.siblings = _siblings(tf_rounded, exact, _P_ANY)

    exact64 = _EXACT64.get(op_type)
    if exact64 is not None:
        tf_rounded64 = _tf_rounded64(fast, exact64)

    @register_kernel(op_type)
    def factory(op, ctx):
        dt = op._inputs[0]._dtype.base_dtype
        if ctx.xp is np and dt.name in _HALF_TYPES:
            return via_float32(tf_rounded, dt.as_numpy_dtype)
        if ctx.xp is np and exact64 is not None and dt.as_numpy_dtype is np.float64:
            return tf_rounded64
        if ctx.xp is not np or dt.as_numpy_dtype is not np.float32:
            return getattr(ctx.xp, fast.__name__, fast)
        return tf_rounded
    return factory


_HALF_TYPES = ("float16", "bfloat16")

# Float64 kernels rounded as TF's (eigen_math: Eigen's double packets of 4, glibc for the tail)
_EXACT64 = {"Exp": eigen_math.exp64, "Log": eigen_math.log64, "Tanh": eigen_math.tanh64,
            "Atanh": eigen_math.atanh64,
            "Log1p": eigen_math.log1p64, "Expm1": eigen_math.expm1_64}


def _tf_rounded64(fast, exact):
    exact_any = _on_scalars_too(exact)

    def tf_rounded64(x):
        if isinstance(x, (np.ndarray, np.float64)) and x.dtype == np.float64 and 0 < x.size <= _TF_ROUNDED_MAX:
            return exact_any(x)
        return fast(x)
    return tf_rounded64


def via_float32(fn, dt):
    """fn on float16/bfloat16 x as Eigen computes it: in float32 (Eigen's float kernels), rounded
    once to dt (computing in float16 would round each step: sigmoid(2.2) printed 0.9, TF 0.9004)."""
    def half_via_float32(x):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return np.asarray(fn(np.asarray(x, np.float32))).astype(dt)
    return half_via_float32


_P_ANY = 1                              # any size may sit anywhere in a group


def _siblings(one, exact, packet):
    """The horizontal form of an exact float32 kernel `one` (plan.py groups sibling calls): the
    inputs, flattened into one buffer, go through `exact` once and come back as views of it, for
    ~20 NumPy passes per group instead of per op. The values are bit-equal to `one`'s: every
    element is computed on its own, and each input but the last holds whole packets (`packet`
    elements), so the packet/scalar split falls where it would alone. Inputs that do not meet
    that (size, dtype, TF-rounded range) run one by one."""
    def siblings(*xs):
        sizes = [x.size if isinstance(x, np.ndarray) and x.dtype == np.float32 else 0 for x in xs]
        if min(sizes) == 0 or max(sizes) > _TF_ROUNDED_MAX or any(n % packet for n in sizes[:-1]):
            return tuple(one(x) for x in xs)
        out = exact(np.concatenate([x.reshape(-1) for x in xs]))
        res, at = [], 0
        for x, n in zip(xs, sizes):
            res.append(out[at:at + n].reshape(x.shape))
            at += n
        return tuple(res)
    return siblings


# (Reciprocal, Rsqrt, Atan, Atan2 and Erfc are not here: Eigen computes them from the CPU's
# approximate rcp/rsqrt instructions, whose bits differ between CPU makers.)
for _t, _f, _e in [("Exp", np.exp, eigen_math.exp), ("Log", np.log, eigen_math.log),
                   ("Log1p", np.log1p, eigen_math.log1p), ("Tanh", np.tanh, eigen_math.tanh),
                   ("Expm1", np.expm1, eigen_math.expm1), ("Sin", np.sin, eigen_math.sin),
                   ("Cos", np.cos, eigen_math.cos), ("Asin", np.arcsin, eigen_math.asin),
                   ("Acos", np.arccos, eigen_math.acos), ("Atanh", np.arctanh, eigen_math.atanh)]:
    _tf_rounded(_t, _f, _e)


@register_kernel("SquaredDifference")
def _squared_difference(op, ctx):
    if op._inputs[0]._dtype.base_dtype.is_complex:
        def squared_difference_complex(x, y):   # TF's is (x - y) * conj(x - y): |x - y|^2 + 0j
            d = np.subtract(x, y)
            return d * np.conj(d)
        return squared_difference_complex

    def squared_difference(x, y):
        d = np.subtract(x, y)
        return np.multiply(d, d, out=d) if isinstance(d, np.ndarray) else d * d
    return squared_difference


def _sigmoid_f32(x):
    if isinstance(x, (np.ndarray, np.float32)) and 0 < x.size <= _TF_ROUNDED_MAX:
        return _sigmoid_exact(x)                # TF's rounding (see _tf_rounded)
    return _sigmoid_any(x, np.float32(1))


def _sigmoid_any(x, one):
    e = np.exp(np.negative(x))
    if isinstance(e, np.ndarray):
        np.add(e, one, out=e)
        return np.reciprocal(e, out=e)
    return one / (one + e)


_sigmoid_exact = _on_scalars_too(eigen_math.sigmoid)
_sigmoid64_exact = _on_scalars_too(eigen_math.sigmoid64)
# (an LSTM cell's three gate sigmoids run as one call)
_sigmoid_f32.siblings = _siblings(_sigmoid_f32, eigen_math.sigmoid, eigen_math.PACKET)


def _sigmoid_f64(x):
    if isinstance(x, (np.ndarray, np.float64)) and x.dtype == np.float64 and 0 < x.size <= _TF_ROUNDED_MAX:
        return _sigmoid64_exact(x)              # TF's rounding (see _tf_rounded64)
    return _sigmoid_any(x, np.float64(1))


def _sigmoid_half(dt):
    """Eigen's scalar_logistic_op on float16/bfloat16: e = exp(x), e / (1 + e) (1 where e is inf),
    each step computed in float32 and rounded to dt (measured on TF 2.21)."""
    exp = via_float32(eigen_math.exp, dt)

    def sigmoid_half(x):
        e = np.asarray(exp(x))
        f = e.astype(np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            d = (f + np.float32(1)).astype(dt).astype(np.float32)
            r = (f / d).astype(dt)
        return np.where(np.isinf(f), dt.type(1), r).astype(dt)
    return sigmoid_half


@register_kernel("Sigmoid")
def _sigmoid(op, ctx):
    one = op._inputs[0]._dtype.base_dtype.as_numpy_dtype(1)
    if ctx.xp is np and one.dtype == np.float32:
        return _sigmoid_f32
    if ctx.xp is np and one.dtype == np.float64:
        return _sigmoid_f64
    if ctx.xp is np and one.dtype.name in _HALF_TYPES:
        return _sigmoid_half(one.dtype)

    def sigmoid(x):
        return _sigmoid_any(x, one)
    return sigmoid


@register_kernel("Erf")
def _erf_kernel(op, ctx):
    dt = op._inputs[0]._dtype.base_dtype.as_numpy_dtype
    if ctx.xp is np and dt is np.float32:
        return eigen_math.erf              # (Eigen's rational function: cheap at any size)
    if ctx.xp is np and dt is np.float64:
        return eigen_math.erf64
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.name in _HALF_TYPES:
        return via_float32(eigen_math.erf, dt)

    def erf(x):
        return np.asarray(_erf(x), dtype=dt)
    return erf


@register_kernel("Round")
def _round(op, ctx):
    return no_kernel(op) if _dtype_of(op).is_complex else getattr(ctx.xp, "round", np.round)


@register_kernel("Rint")
def _rint(op, ctx):
    return no_kernel(op) if _dtype_of(op).name in ("float16", "bfloat16") else getattr(ctx.xp, "rint", np.rint)


# -- gradient helper ops (TF's TanhGrad etc.: one kernel instead of a chain of ops) ----------------

@register_kernel("TanhGrad")
def _tanh_grad(op, ctx):
    one = op._inputs[0]._dtype.base_dtype.as_numpy_dtype(1)

    def tanh_grad(y, dy):
        return dy * (one - y * y)
    return tanh_grad


@register_kernel("SigmoidGrad")
def _sigmoid_grad(op, ctx):
    one = op._inputs[0]._dtype.base_dtype.as_numpy_dtype(1)

    def sigmoid_grad(y, dy):
        out = dy * (y * (one - y))
        tail = out.size % 8 if isinstance(out, np.ndarray) and out.dtype == np.float32 else 0
        if tail and y.shape == dy.shape:
            # TF's packets compute dy * (y * (1 - y)), its scalar tail (dy * y) * (1 - y)
            # (measured on TF 2.21): the last n % 8 values round the scalar way
            out = np.ascontiguousarray(out)         # (the flat write below must be a view)
            yt, dt = y.reshape(-1)[-tail:], dy.reshape(-1)[-tail:]
            out.reshape(-1)[-tail:] = (dt * yt) * (one - yt)
        return out
    return sigmoid_grad


@register_kernel("SqrtGrad")
def _sqrt_grad(op, ctx):
    half = op._inputs[0]._dtype.base_dtype.as_numpy_dtype(0.5)

    def sqrt_grad(y, dy):
        return dy * half / y
    return sqrt_grad


@register_kernel("RsqrtGrad")
def _rsqrt_grad(op, ctx):
    c = op._inputs[0]._dtype.base_dtype.as_numpy_dtype(-0.5)

    def rsqrt_grad(y, dy):
        if np.iscomplexobj(y):
            return dy * (c * y * y * y)
        return c * ((dy * y) * (y * y))     # TF's order (Eigen's scalar_rsqrt_gradient_op)
    return rsqrt_grad


@register_kernel("ReciprocalGrad")
def _reciprocal_grad(op, ctx):
    def reciprocal_grad(y, dy):
        return np.negative(dy * (y * y))
    return reciprocal_grad


# -- division ------------------------------------------------------------------------------------

_DIV0 = "Integer division by zero"
# TF's TruncateDiv/TruncateMod functors have no error path of their own: a zero divisor ends in
# the binary-op kernel's generic InternalError.
_TRUNC0 = "Unexpected error in binary operator (only integer div and mod should have errors)"


def _zero_divisor(x, y):
    """A zero in y that some output element divides by: TF's BinaryOp returns early on an empty
    output, so mod(empty, 0) (TF's reduced_shape of a scalar's gradient) is no error."""
    return not np.all(y) and np.broadcast(x, y).size != 0


def _trunc_zero():
    return errors.InternalError(None, None, _TRUNC0)


@register_kernel("RealDiv")
def _realdiv(op, ctx):
    if _is_int(op):
        return no_kernel(op)
    return np.true_divide


@register_kernel("DivNoNan")
def _div_no_nan(op, ctx):
    def div_no_nan(x, y):
        out = np.true_divide(x, y)
        zero = np.equal(y, 0)
        if zero.any():
            out = np.where(zero, out.dtype.type(0), out)
        return out
    return div_no_nan


@register_kernel("FloorDiv")
def _floordiv(op, ctx):
    if _dtype_of(op).is_complex:
        return no_kernel(op)
    if _is_int(op):
        def floordiv_int(x, y):
            if _zero_divisor(x, y):
                raise _invalid(_DIV0)
            return np.floor_divide(x, y)
        return floordiv_int

    def floordiv(x, y):   # TF: floor(x / y), so inf // 2 is inf (np.floor_divide gives NaN)
        with np.errstate(all="ignore"):
            return np.floor(np.true_divide(x, y))
    return floordiv


@register_kernel("FloorMod")
def _floormod(op, ctx):
    if _is_int(op):
        def floormod_int(x, y):
            if _zero_divisor(x, y):
                raise _invalid(_DIV0)
            return np.mod(x, y)
        return floormod_int

    def floormod(x, y):
        # TF: r = fmod(x, y), plus y where r is nonzero and its sign differs from y's. Unlike
        # np.mod this keeps fmod's signed zero (floormod(-0.0, 2.0) = -0.0).
        with np.errstate(invalid="ignore"):
            r = np.fmod(x, y)
            return np.where((r != 0) & (np.less(y, 0) != np.less(r, 0)), r + y, r)
    return floormod


@register_kernel("TruncateDiv")
def _truncatediv(op, ctx):
    if _dtype_of(op).is_complex:
        return no_kernel(op)
    if _is_int(op):
        def truncatediv_int(x, y):
            if _zero_divisor(x, y):
                raise _trunc_zero()
            q = np.floor_divide(x, y)
            # floor and truncation differ where the signs differ and there is a remainder
            fix = (np.mod(x, y) != 0) & ((np.less(x, 0)) != (np.less(y, 0)))
            return q + fix.astype(q.dtype) if np.ndim(q) else q.dtype.type(q + fix)
        return truncatediv_int

    def truncatediv(x, y):
        return np.trunc(np.true_divide(x, y))
    return truncatediv


@register_kernel("TruncateMod")
def _truncatemod(op, ctx):
    if _dtype_of(op).name in ("float16", "bfloat16"):
        return no_kernel(op)
    if _is_int(op):
        def truncatemod_int(x, y):
            if _zero_divisor(x, y):
                raise _trunc_zero()
            return np.fmod(x, y)
        return truncatemod_int
    return np.fmod


@register_kernel("Pow")
def _pow(op, ctx):
    if _is_int(op):
        exp = constant_value(op._inputs[1]) if op._inputs[1]._op._type == "Const" else None
        # Grappler's ConvertPow makes pow(x, -1) a Reciprocal, which has no integer kernel; but
        # Grappler skips graphs of fewer than 4 nodes (min_graph_nodes), where Pow's own error
        # stands (measured on TF 2.21)
        if exp is not None and np.size(exp) and np.all(exp == -1) and op.graph.version >= 4:
            def pow_reciprocal(x, y):
                raise errors.NotFoundError(None, None, f"No registered 'Reciprocal' OpKernel for 'CPU' "
                                                       f"devices compatible with node {{{{node {op.name}}}}}")
            return pow_reciprocal

        def pow_int(x, y):
            if np.any(np.less(y, 0)):
                raise _invalid("Integers to negative integer powers are not allowed")
            return np.power(x, y)
        return pow_int
    if op._inputs[0]._dtype.base_dtype.is_complex:
        def pow_complex(x, y):
            # std::pow of complex numbers is exp(y * log(x)) in the input precision: TF's values
            # carry its rounding (1j ** 2 = -1 - 8.7e-08j in complex64), and 0 ** y is 0 - 0j
            with np.errstate(all="ignore"):
                return np.exp(y * np.log(x))
        return pow_complex
    dt = op._inputs[0]._dtype.base_dtype.as_numpy_dtype
    if ctx.xp is not np or dt not in (np.float32, np.float64):
        return np.power

    def pow_float(x, y):
        # TF's Eigen Pow (eigen_pow.py) for small tensors; NumPy's power past them, and for
        # shapes that do not broadcast (its error is the one the plan reports as TF's)
        if 0 < np.size(x) <= _TF_ROUNDED_MAX and np.size(y) <= _TF_ROUNDED_MAX:
            try:
                np.broadcast_shapes(np.shape(x), np.shape(y))
            except ValueError:
                return np.power(x, y)
            return eigen_pow.tf_pow(x, y)
        return np.power(x, y)
    return pow_float


# -- n-ary, casts, clipping ----------------------------------------------------------------------

@register_kernel("AddN")
def _add_n(op, ctx):
    n = len(op._inputs)
    order = _add_n_order(op._inputs) if n > 2 else None

    def check(xs):
        s0 = np.shape(xs[0])
        for i, x in enumerate(xs[1:], 1):
            if np.shape(x) != s0:
                raise _invalid(f"Inputs to operation {op._name} of type {op._type} must have the same size and "
                               f"shape.  Input 0: {_dims(s0)} != input {i}: {_dims(np.shape(x))}")

    if n == 2:
        def add2(x, y):
            if np.shape(x) != np.shape(y):
                check((x, y))
            return np.add(x, y)
        return add2

    def add_n(*xs):
        check(xs)
        # TF's order: inputs sorted by name (Grappler canonicalizes AddN, a commutative op),
        # then the kernel adds the first (n % 8, or 8 or 9) in a row and each further 8 as a
        # group added to the total (aggregate_ops.cc). Float sums depend on it; measured on TF 2.21.
        xs = [xs[i] for i in order]
        first = n if n <= 9 else {0: 8, 1: 9}.get(n % 8, n % 8)
        out = _add_run(xs[:first])
        for i in range(first, n, 8):
            out = _accumulate(out, _add_run(xs[i:i + 8]))
        return out
    return add_n


def _add_n_order(inputs):
    """Indices of AddN's inputs sorted as Grappler sorts them: by input name, `op` for output 0
    and `op:k` otherwise (byte order, as std::sort on the strings)."""
    keys = [t._op._name if t._value_index == 0 else f"{t._op._name}:{t._value_index}" for t in inputs]
    return sorted(range(len(keys)), key=keys.__getitem__)


def _add_run(xs):
    """((x0 + x1) + x2) + ..., in a new array."""
    out = np.add(xs[0], xs[1]) if len(xs) > 1 else np.array(xs[0], copy=True)
    for x in xs[2:]:
        out = _accumulate(out, x)
    return out


def _accumulate(out, x):
    if isinstance(out, np.ndarray) and out.ndim and out.shape == np.shape(x):
        np.add(out, x, out=out)
        return out
    return np.add(out, x)


# Out-of-range floats cast to uint32/uint64 as TF's x86 build does (measured on TF 2.21; NumPy
# gives 0 for most of them). uint32: Eigen converts whole packets of 8 through int32 (values in
# [-2^31, 2^32) wrap as int32 would, anything else, NaN included, is 2^31) and the last n % 8
# through int64 (wrapped modulo 2^32; 0 outside int64). uint64: values in [-2^63, 0) wrap as int64,
# those outside [-2^63, 2^64) and NaN are 2^63.
_U32_PACKET = 8


def _float_to_uint32(x):
    with np.errstate(invalid="ignore", over="ignore"):
        t = np.trunc(np.asarray(x, np.float64)).reshape(-1)
        out = np.empty(t.size, np.uint32)
        cut = t.size - t.size % _U32_PACKET
        p = t[:cut]
        ok = (p >= -2.0 ** 31) & (p < 2.0 ** 32)
        out[:cut] = np.where(ok, np.where(ok, p, 0).astype(np.int64), 2 ** 31).astype(np.uint32)
        q = t[cut:]
        ok = (q >= -2.0 ** 63) & (q < 2.0 ** 63)
        out[cut:] = np.where(ok, q, 0).astype(np.int64).astype(np.uint32)
    return out.reshape(np.shape(x)) if np.ndim(x) else out[0]


def _float_to_uint64(x):
    with np.errstate(invalid="ignore", over="ignore"):
        t = np.trunc(np.asarray(x, np.float64))
        big = (t >= 0) & (t < 2.0 ** 64)
        neg = (t >= -2.0 ** 63) & (t < 0)
        out = np.where(big, t, 0).astype(np.uint64)
        out = np.where(neg, np.where(neg, t, 0).astype(np.int64).view(np.uint64), out)
        out = np.where(big | neg, out, np.uint64(2 ** 63)).astype(np.uint64)
    return out if np.ndim(x) else out[()]


# float64/float16/bfloat16 to int8/uint8/int16/uint16: Eigen converts whole packets of 16 through
# int32 (cvtt: out of range and NaN are INT_MIN) and then narrows with saturating packs; the last
# n % 16 are scalar casts (the int32's low bits, as x86 gives NumPy). uint8 from float64/float16
# packs to uint16 first, then treats that as int16 (40000.0 -> 0). Measured on TF 2.21.
_SMALL_INT_PACKET = 16


def _packed_small_int(x, out, dst, name):
    flat = np.asarray(x, np.float64).reshape(-1)
    cut = flat.size - flat.size % _SMALL_INT_PACKET
    with np.errstate(invalid="ignore"):
        t = np.trunc(flat[:cut])
        ok = (t >= -2.0 ** 31) & (t < 2.0 ** 31)
    i32 = np.where(ok, np.where(ok, t, 0), -2.0 ** 31).astype(np.int64)
    if dst is np.uint8 and name != "bfloat16":
        i32 = np.clip(i32, 0, 65535).astype(np.uint16).view(np.int16).astype(np.int64)
    info = np.iinfo(dst)
    out = np.array(out, copy=True).reshape(-1)
    out[:cut] = np.clip(i32, info.min, info.max).astype(dst)
    return out.reshape(np.shape(x))


@register_kernel("Cast")
def _cast(op, ctx):
    src = op._attrs["SrcT"]
    dst = op._attrs["DstT"].as_numpy_dtype
    if src.base_dtype.name == "string" and dst is not object:
        name = op._attrs["DstT"].name

        def cast_string(x):
            raise errors.UnimplementedError(None, None, f"Cast string to {name} is not supported")
        return cast_string
    if dst is np.bool_:
        def cast_bool(x):
            return np.not_equal(x, 0)
        return cast_bool

    if src.base_dtype.is_complex and not np.issubdtype(dst, np.complexfloating):
        def cast_complex(x):   # TF keeps the real part (NumPy would warn about the imaginary one)
            with np.errstate(invalid="ignore", over="ignore"):
                return np.real(np.asarray(x)).astype(dst)
        return cast_complex
    if src.base_dtype.is_floating and dst in (np.uint32, np.uint64):
        convert = _float_to_uint32 if dst is np.uint32 else _float_to_uint64

        def cast_float_uint(x):
            return convert(np.asarray(x))
        return cast_float_uint
    if src.base_dtype.is_floating and np.issubdtype(dst, np.integer):
        name = src.base_dtype.name
        packed = name in ("float64", "float16", "bfloat16") and np.dtype(dst).itemsize <= 2

        def cast_float_int(x):  # NaN/inf/out-of-range convert as x86 does (TF's values), silently
            x = np.asarray(x)
            if name == "bfloat16":  # Eigen widens bfloat16 to float (ml_dtypes' own cast differs)
                x = x.astype(np.float32)
            with np.errstate(invalid="ignore", over="ignore"):
                out = x.astype(dst)
            if packed and x.size >= _SMALL_INT_PACKET:
                out = _packed_small_int(x, out, dst, name)
            return out
        return cast_float_int

    def cast(x):
        return np.asarray(x).astype(dst)
    return cast


@register_kernel("ClipByValue")
def _clip_by_value(op, ctx):
    def clip_by_value(x, lo, hi):
        # Eigen: max(min(x, hi), lo) with std::min/max: a NaN bound leaves x, a NaN x stays, and
        # lo > hi gives lo (measured on TF 2.21)
        with np.errstate(invalid="ignore"):
            low = np.where(np.less(hi, x), hi, x)
            return np.asarray(np.where(np.less(low, lo), lo, low), dtype=np.result_type(x))
    return clip_by_value


@register_kernel("BroadcastGradientArgs")
def _broadcast_gradient_args(op, ctx):
    def broadcast_gradient_args(s0, s1):
        s0 = [int(d) for d in np.asarray(s0).reshape(-1)]
        s1 = [int(d) for d in np.asarray(s1).reshape(-1)]
        if s0 == s1:  # TF's BCast fast path: identical shapes reduce nothing (not even 1-dims)
            s0 = s1 = []
        n = max(len(s0), len(s1))
        a = [1] * (n - len(s0)) + s0
        b = [1] * (n - len(s1)) + s1
        r0, r1 = [], []
        for i, (x, y) in enumerate(zip(a, b)):
            if x == y:
                if x == 1:
                    r0.append(i)
                    r1.append(i)
                continue
            if x == 1:
                r0.append(i)
            elif y == 1:
                r1.append(i)
            else:
                raise _invalid(f"Incompatible shapes: [{','.join(map(str, s0))}] vs. "
                               f"[{','.join(map(str, s1))}]")
        return np.asarray(r0, dtype=op._outputs[0]._dtype.as_numpy_dtype), \
            np.asarray(r1, dtype=op._outputs[1]._dtype.as_numpy_dtype)
    return broadcast_gradient_args


# -- matmul --------------------------------------------------------------------------------------

def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register_kernel("MatMul")
def _matmul(op, ctx):
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    dt = op._inputs[0]._dtype.base_dtype
    if dt.is_unsigned:
        msg = (f"No OpKernel was registered to support Op 'MatMul' used by {{{{node {op.name}}}}} with "
               f"these attrs: [transpose_a={str(bool(ta)).lower()}, grad_a="
               f"{str(bool(op._attrs.get('grad_a', False))).lower()}, T=DT_{dt.name.upper()}, grad_b="
               f"{str(bool(op._attrs.get('grad_b', False))).lower()}, transpose_b={str(bool(tb)).lower()}]")

        def matmul_unsigned(a, b):
            raise _invalid(msg)
        return matmul_unsigned
    # NumPy arrays split big products across the intra-op workers; CuPy's are one call.
    xp_matmul = parallel.matmul if ctx.xp is np else ctx.xp.matmul
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.as_numpy_dtype is np.float32:
        xp_matmul = _tf_order_matmul(xp_matmul, ta, tb)

    def matmul(a, b):
        try:
            return xp_matmul(a.T if ta else a, b.T if tb else b)
        except ValueError:
            raise _invalid(f"Matrix size-incompatible: In[0]: {_dims(a.shape)}, In[1]: {_dims(b.shape)}") \
                from None

    if not ta and not tb:
        def matmul_nn(a, b):
            try:
                return xp_matmul(a, b)
            except ValueError:
                raise _invalid(f"Matrix size-incompatible: In[0]: {_dims(a.shape)}, In[1]: "
                               f"{_dims(b.shape)}") from None
        return matmul_nn
    return matmul


# Products up to this many multiply-adds, or with this many rows, take the machine-code GEMM in
# any step (see _tf_order_matmul).
_NATIVE_GEMM_MACS = 1 << 22
_NATIVE_GEMM_ROWS = 64
_NATIVE_GEMM_MAX_MACS = 1 << 26


def _tf_order_matmul(fast, ta, tb):
    """Small float32 products added in TF's order (tf_order.matmul, or tf_order.matvec for the
    one-column products TF hands to a GEMV, or tf_order.matmul_dot16 for a few rows times a
    transposed matrix), so printed values match TF's to the last digit; big ones keep the fast
    BLAS path."""
    lo, hi = tf_order.DOT16_ROWS

    def matmul(a, b):
        if a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0] and a.shape[1]:
            m, k, n = a.shape[0], a.shape[1], b.shape[1]
            if k > onednn_gemm.ONE_BLOCK and direct_conv.available() and a.dtype == b.dtype == np.float32 \
                    and (m * k * n <= _NATIVE_GEMM_MACS or parallel.intra_op_workers() > 1
                         or (m >= _NATIVE_GEMM_ROWS and m * k * n <= _NATIVE_GEMM_MAX_MACS)):
                # oneDNN's k-blocks, in machine code (onednn_gemm.py). Up to one block BLAS adds
                # in the same order (measured) and faster. Outside conv steps, few-row products
                # repeated every timestep (an RNN's) and big ones keep BLAS, whose threads and
                # blocking win there (natively the PTB LSTM step took 110 ms instead of 61, with
                # only its 400x400x800 weight gradient native 67 ms); a 784-512-512-10 MLP step
                # costs about 8% more natively, and trains bit for bit as TF does.
                bounds = onednn_gemm.k_blocks(m, k, n, ta, tb, parallel.get_intra_op_threads() or 1)
                if bounds is not None:
                    return direct_conv.matmul(a, b, bounds)
            if tb and not ta and lo <= m < hi:
                if m * k * n <= tf_order.MATMUL_EXACT_MAX_MACS:
                    return tf_order.matmul_dot16(a, b)
            elif tb and m == 1 and not ta and n > 1:
                # a row times B^T: TF's GEMV runs over B's rows (measured for any n)
                if n * k <= tf_order.MATVEC_EXACT_MAX_MACS:
                    return tf_order.matvec(b.T, a.T).T
            elif tf_order.matvec_order(m, n, ta, tb):
                if m * k <= tf_order.MATVEC_EXACT_MAX_MACS:
                    return tf_order.matvec(a, b)
            elif tf_order.matmul_exact_ok(m, k, n, ta):
                return tf_order.matmul(a, b, tf_order.matmul_block(ta, n))
        return fast(a, b)
    return matmul


@register_kernel("BatchMatMulV2")
def _batch_matmul(op, ctx):
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    cplx = op._inputs[0]._dtype.is_complex

    def adj(t):
        t = np.swapaxes(t, -1, -2)
        return np.conj(t) if cplx else t

    xp_matmul = parallel.batch_matmul if ctx.xp is np else ctx.xp.matmul
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.as_numpy_dtype is np.float32:
        fast = xp_matmul

        def xp_matmul(x, y):
            # small products in TF's order (a running FMA over k), so printed values match
            if x.ndim >= 2 and y.ndim >= 2 and x.shape[-1] == y.shape[-2] and \
                    0 < x.shape[-1] <= tf_order.MATMUL_EXACT_MAX_K:
                batch = int(np.prod(np.broadcast_shapes(x.shape[:-2], y.shape[:-2])))
                if batch * x.shape[-2] * x.shape[-1] * y.shape[-1] <= tf_order.MATMUL_EXACT_MAX_MACS:
                    return tf_order.batch_matmul(x, y)
            return fast(x, y)

    def batch_matmul(x, y):
        try:
            return xp_matmul(adj(x) if ax else x, adj(y) if ay else y)
        except ValueError:
            if x.shape[-1 if not ax else -2] != y.shape[-2 if not ay else -1]:
                raise _invalid(f"Matrix size-incompatible: In[0]: {_dims(x.shape)}, In[1]: "
                               f"{_dims(y.shape)}") from None
            raise _invalid(f"In[0] and In[1] must have compatible batch dimensions: {_dims(x.shape)} vs. "
                           f"{_dims(y.shape)}") from None
    return batch_matmul


@register_kernel("Einsum")
def _einsum(op, ctx):
    eq = op._attrs["equation"].replace(" ", "")
    optimize = len(op._inputs) > 2

    def einsum(*xs):
        return np.einsum(eq, *xs, optimize=optimize)
    return einsum


# -- reductions ----------------------------------------------------------------------------------

def _static_axes(op):
    """The reduction axes as a sorted tuple of non-negative ints when known at compile time."""
    axes = constant_value(op._inputs[1])
    ndims = op._inputs[0]._shape.ndims
    if axes is None or ndims is None:
        return None
    flat = [int(a) % ndims if ndims else int(a) for a in np.asarray(axes).reshape(-1)]
    if len(set(flat)) != len(flat):
        return None  # duplicate axes: the run-time path raises TF's error
    return tuple(sorted(flat))


def _runtime_axes(x, axes):
    n = np.ndim(x)
    out = set()
    for a in np.asarray(axes).reshape(-1).tolist():
        if not -n <= a < n:
            raise _invalid(f"Invalid reduction dimension ({a} for input with {n} dimension(s)")
        if a % n in out:
            raise _invalid(f"Invalid reduction arguments: Axes contains duplicate dimension: {a % n}")
        out.add(a % n)
    return tuple(sorted(out))


def _reduction(op_type, make):
    """make(axes, keep, dtype) -> fn(x) computing the reduction with bound axes."""
    @register_kernel(op_type)
    def factory(op, ctx):
        keep = op._attrs["keep_dims"]
        dt = op._outputs[0]._dtype.base_dtype.as_numpy_dtype
        axes = _static_axes(op)
        xp = ctx.xp
        copies = op_type in _COPYING_REDUCTIONS
        if axes is not None:
            fn = make(axes, keep, dt, xp)
            static = op._inputs[0]._shape
            if copies and static.is_fully_defined():
                # (decided once when the shape is known, off the step's path)
                if not _trivial(static.as_list(), axes):
                    return lambda x, _axes: fn(x)
                return lambda x, _axes: _reduction_copy(x, axes, keep, dt, xp)

            def reduce_static(x, _axes):
                if copies and _trivial(x, axes):
                    return _reduction_copy(x, axes, keep, dt, xp)
                return fn(x)
            return reduce_static

        def reduce_dynamic(x, a):
            axes = _runtime_axes(x, a)
            if copies and _trivial(x, axes):
                return _reduction_copy(x, axes, keep, dt, xp)
            return make(axes, keep, dt, xp)(x)
        return reduce_dynamic
    return factory


# TF's ReductionOp copies its input when no axis of size > 1 is reduced (so -0.0 stays -0.0,
# where NumPy's sum adds it to +0.0); EuclideanNorm still squares and roots.
_COPYING_REDUCTIONS = frozenset({"Sum", "Mean", "Prod"})


def _trivial(x, axes):
    shape = x if isinstance(x, list) else np.shape(x)
    return all(shape[a] == 1 for a in axes)


def _reduction_copy(x, axes, keep, dt, xp):
    shape = np.shape(x)
    out = shape if keep else tuple(d for i, d in enumerate(shape) if i not in axes)
    return xp.array(x, dtype=dt).reshape(out)


# -- float16 and bfloat16 sums in TF's order ------------------------------------------------------
# TF sums bfloat16 in float32 (reduction_ops.h casts it: a sum of 3000 values near 0.5 would stick
# at 256 in bfloat16) and rounds once. float16 is added in float16 (each add rounds), in Eigen's
# Packet8h order: the float32 order of tf_order with 8-lane packets, except that a packet's lanes
# are added in float32 and rounded once (predux of Packet8h). Measured on TF 2.21.
_HALF_P = 8


def _half_leaf(x, op=np.add, P=_HALF_P):
    """Eigen's InnerMostDimReducer sum (op np.add) or product (np.multiply) of each row of x
    (rows, n) of float16 or bfloat16, n <= 8192 (also float32/float64 products, P lanes)."""
    h = x.dtype.type
    rows, n = x.shape
    acc = None
    start = 0
    with np.errstate(over="ignore", invalid="ignore"):
        if n >= 4 * P:
            v4 = n // (4 * P) * (4 * P)
            blocks = np.ascontiguousarray(np.moveaxis(x[:, :v4].reshape(rows, -1, 4, P), 1, 0))
            a = op.reduce(blocks, axis=0, dtype=h)                          # (rows, 4, 8)
            acc = op(op(op(a[:, 0], a[:, 1]), a[:, 2]), a[:, 3])
            start = v4
        v = n // P * P
        for j in range(start, v, P):
            acc = op(x[:, j:j + P], acc) if acc is not None else np.array(x[:, j:j + P], h)
        s = np.full(rows, op.identity, h)
        for j in range(v, n):
            s = op(s, x[:, j])
        if acc is None:
            return s
        t = acc.astype(np.float64 if h is np.float64 else np.float32)   # predux: halves
        while t.shape[1] > 1:
            t = op(t[:, :t.shape[1] // 2], t[:, t.shape[1] // 2:])
        return op(s, t[:, 0].astype(h))


def _half_outer(x, op=np.add, P=_HALF_P):
    """Eigen's InnerMostDimPreserver reduction over the rows of x (batch, rows, cols)."""
    h = x.dtype.type
    batch, rows, cols = x.shape
    xt = np.ascontiguousarray(np.moveaxis(x, 1, 0))                       # (rows, batch, cols)
    cp = cols // P * P
    with np.errstate(over="ignore", invalid="ignore"):
        if rows < 16 or cp == 0:
            return op.accumulate(xt, axis=0, dtype=h)[-1]
        out = np.empty((batch, cols), h)
        r4 = rows // 4 * 4
        a = op.reduce(np.ascontiguousarray(xt[:r4, :, :cp].reshape(r4 // 4, 4, batch, cp)), axis=0, dtype=h)
        acc = op(op(op(a[0], a[1]), a[2]), a[3])
        for r in range(r4, rows):
            acc = op(acc, xt[r, :, :cp])
        out[:, :cp] = acc
        if cp < cols:
            out[:, cp:] = op.accumulate(xt[:, :, cp:], axis=0, dtype=h)[-1]
        return out


def _half_reduce(x, axes, op=np.add, P=_HALF_P):
    """TF's float16 (or bfloat16 product) reduction of x over `axes` (keep_dims False shape), or
    None where NumPy's order is used (long runs, which Eigen splits into a tree; 3+ merged dims)."""
    x = np.ascontiguousarray(x)
    out_shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    dims, first_red = tf_order._simplify(x.shape, set(axes))
    if x.size == 0 or not dims or not any(i in axes for i in range(x.ndim)):
        return None
    if len(dims) == 1 and first_red and dims[0] <= P * 1024:
        r = _half_leaf(x.reshape(1, -1), op, P)[0]
    elif len(dims) == 2 and not first_red and dims[1] <= P * 1024:
        r = _half_leaf(x.reshape(dims), op, P)
    elif len(dims) == 2 and first_red:
        r = _half_outer(x.reshape([1] + dims), op, P)[0]
    elif len(dims) == 3 and not first_red:
        r = _half_outer(x.reshape(dims), op, P)
    elif len(dims) == 3:
        # axes 0 and 2 (GenericDimReducer, as tf_order's sums): one running value per output,
        # axis 2 outer, axis 0 inner
        a, b, c = dims
        with np.errstate(over="ignore", invalid="ignore"):
            r = op.accumulate(x.reshape(a, b, c).transpose(2, 0, 1).reshape(c * a, b), axis=0, dtype=x.dtype)[-1]
    else:
        return None
    return np.asarray(r, x.dtype).reshape(out_shape)


def _keep(r, x, axes, keep):
    return r.reshape([1 if i in axes else d for i, d in enumerate(np.shape(x))]) if keep else r


def _sum(axes, keep, dt, xp=np):
    if np.dtype(dt).name == "bfloat16":
        def bf16(x):
            with np.errstate(over="ignore", invalid="ignore"):
                x32 = np.asarray(x).astype(np.float32)
                r = _sum(axes, keep, np.float32, xp)(x32)
                return np.asarray(r).astype(dt)
        return bf16

    if dt is np.float16 and xp is np:
        def f16_ordered(x):
            r = _half_reduce(x, axes) if 1 < np.size(x) <= tf_order.EXACT_MAX_ELEMENTS else None
            if r is not None:
                return _keep(r, x, axes, keep)
            with np.errstate(over="ignore"):
                return xp.sum(x, axis=axes, dtype=dt, keepdims=keep)
        return f16_ordered

    if np.issubdtype(dt, np.floating) and np.dtype(dt).itemsize < 4:
        def f16(x):  # overflows to inf like TF, without NumPy's warning
            with np.errstate(over="ignore"):
                return xp.sum(x, axis=axes, dtype=dt, keepdims=keep)
        return f16

    if np.issubdtype(dt, np.inexact):
        exact = _tf_order_reduction(tf_order.reduce_sum, axes, keep, dt, xp)

        def fsum(x):  # inf + -inf is NaN in TF too, without NumPy's warning
            with np.errstate(invalid="ignore", over="ignore"):
                r = exact(x)
                return r if r is not None else xp.sum(x, axis=axes, dtype=dt, keepdims=keep)
        return fsum

    def f(x):
        return xp.sum(x, axis=axes, dtype=dt, keepdims=keep)
    return f


def _prod(axes, keep, dt, xp=np):
    # float32/float64 products also follow Eigen's packet order (AVX: 8 or 4 lanes)
    if np.dtype(dt).name in ("bfloat16", "float16", "float32", "float64") and xp is np:
        lanes = 4 if dt is np.float64 else _HALF_P

        def prod_half(x):   # Eigen's packet order, each multiply rounded (see _half_leaf)
            r = _half_reduce(x, axes, np.multiply, lanes) if 1 < np.size(x) <= tf_order.EXACT_MAX_ELEMENTS else None
            if r is not None:
                return _keep(r, x, axes, keep)
            with np.errstate(invalid="ignore", over="ignore"):
                return xp.prod(x, axis=axes, dtype=dt, keepdims=keep)
        return prod_half

    def f(x):
        with np.errstate(invalid="ignore", over="ignore"):
            return xp.prod(x, axis=axes, dtype=dt, keepdims=keep)
    return f


def _mean(axes, keep, dt, xp=np):
    if np.dtype(dt).name in ("bfloat16", "float16") and xp is np:
        # TF divides the Sum above (float32 for bfloat16, float16 for float16) by the count
        acc = np.float32 if np.dtype(dt).name == "bfloat16" else dt
        total = _sum(axes, keep, acc, xp)

        def mean_half(x):
            x = np.asarray(x)
            n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                s = total(x.astype(acc) if acc is np.float32 else x)
                if n == 0:   # TF's NaN is the positive one (0/0 on x86 is negative)
                    return np.full(np.shape(s), np.nan, acc).astype(dt)
                return np.asarray(np.asarray(s, acc) / acc(n)).astype(dt)
        return mean_half

    if np.issubdtype(dt, np.integer):
        def mean_int(x):
            x = np.asarray(x)
            s = np.sum(x, axis=axes, dtype=np.int64, keepdims=keep)
            n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
            if n == 0:
                return np.zeros(np.shape(s), dtype=dt)
            q = np.abs(s) // n
            return np.asarray(np.where(s < 0, -q, q), dtype=dt)
        return mean_int

    if np.issubdtype(dt, np.complexfloating) and xp is np:
        def mean_complex(x):
            # Eigen divides the sum by the real count part by part (NumPy's complex division
            # can round differently: 5/3 ends in ...65, TF's in ...67)
            s = np.sum(x, axis=axes, dtype=dt, keepdims=keep)
            n = int(np.prod([np.shape(x)[a] for a in axes])) if axes else 1
            if n == 0:
                return s   # TF's mean of no complex numbers is 0
            real = s.real.dtype.type(n)
            with np.errstate(invalid="ignore", divide="ignore"):
                out = np.empty(np.shape(s), dt)
                out.real, out.imag = s.real / real, s.imag / real
            return out if np.ndim(s) else out[()]
        return mean_complex

    exact = _tf_order_reduction(tf_order.reduce_mean, axes, keep, dt, xp)

    def mean(x):
        if np.size(x) == 0:  # NaN like TF's (the positive one), without NumPy's warning
            s = np.sum(x, axis=axes, dtype=dt, keepdims=keep)
            return np.asarray(np.full(np.shape(s), np.nan, dt)) if np.ndim(s) else dt(np.nan)
        with np.errstate(invalid="ignore", over="ignore"):
            r = exact(x)
            return r if r is not None else xp.mean(x, axis=axes, dtype=dt, keepdims=keep)
    return mean


def _tf_order_reduction(fn, axes, keep, dt, xp):
    """fn(x, axes) for modest float32 / float64 inputs on NumPy, adding in TF's (Eigen's) order
    so printed sums and means match TF's last digit (tf_order); returns None where NumPy's order
    is used."""
    if xp is not np or dt not in (np.float32, np.float64):
        return lambda x: None

    def exact(x):
        if not 1 < np.size(x) <= tf_order.OUTER_EXACT_MAX_ELEMENTS or x.dtype != dt or \
                np.size(x) > tf_order.exact_max_elements(np.shape(x), axes):
            return None
        r = fn(x, axes)
        if r is not None and keep:
            r = r.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
        return r
    return exact


def _extreme(np_fn, initial_of):
    def make(axes, keep, dt, xp=np):
        init = initial_of(dt)
        np_fn_ = getattr(xp, np_fn.__name__, np_fn)

        def f(x):
            if x.size:
                return np_fn_(x, axis=axes, keepdims=keep)
            return np_fn(x, axis=axes, keepdims=keep, initial=init)
        return f
    return make


def _is_float(dt):
    """float16/32/64 and ml_dtypes' bfloat16 (which NumPy does not count as np.floating)."""
    return np.issubdtype(dt, np.floating) or np.dtype(dt).name == "bfloat16"


def _lowest(dt):
    return dt(-np.inf) if _is_float(dt) else np.iinfo(dt).min


def _highest(dt):
    return dt(np.inf) if _is_float(dt) else np.iinfo(dt).max


def _any(axes, keep, dt, xp=np):
    def f(x):
        return xp.any(x, axis=axes, keepdims=keep)
    return f


def _all(axes, keep, dt, xp=np):
    def f(x):
        return xp.all(x, axis=axes, keepdims=keep)
    return f


def _euclidean(axes, keep, dt, xp=np):
    # Eigen's EuclideanNormReducer adds the squares in its Sum's order (float32/64, half)
    total = _sum(axes, keep, dt, xp) if _is_float(dt) and xp is np else None

    def f(x):
        x = np.asarray(x)
        with np.errstate(invalid="ignore", over="ignore"):
            sq = x * np.conj(x) if x.dtype.kind == "c" else np.square(x)
            s = total(sq) if total is not None else np.sum(sq, axis=axes, dtype=dt, keepdims=keep)
            # integer norms are truncated back to the integer type, as TF's sqrt functor does
            return np.asarray(np.sqrt(s)).astype(dt)
    return f


_reduction("Sum", _sum)
_reduction("Prod", _prod)
_reduction("Mean", _mean)
_reduction("Max", _extreme(np.max, _lowest))
_reduction("Min", _extreme(np.min, _highest))
_reduction("Any", _any)
_reduction("All", _all)
_reduction("EuclideanNorm", _euclidean)


def _arg_kernel(op_type, np_fn):
    @register_kernel(op_type)
    def factory(op, ctx):
        out = op._outputs[0]._dtype.as_numpy_dtype

        def arg(x, axis):
            x = np.asarray(x)
            n = x.ndim
            a = int(np.asarray(axis).reshape(-1)[0])
            if not -max(n, 1) <= a < max(n, 1):
                raise _invalid(f"Expected dimension in the range [{-n}, {n}), but got {a}")
            if n == 0:
                return out(0)
            if x.shape[a] == 0:
                raise _invalid(f"Reduction axis {a % n} is empty in shape {_dims(x.shape)}")
            if x.dtype.kind in "fc" and np.isnan(x).any():
                # TF's reducer keeps the first strictly greater (smaller) value: NaN never wins
                x = np.where(np.isnan(x), np.inf if np_fn is np.argmin else -np.inf, x)
            return np_fn(x, axis=a).astype(out, copy=False)
        return arg
    return factory


_arg_kernel("ArgMax", np.argmax)
_arg_kernel("ArgMin", np.argmin)


# -- scans ---------------------------------------------------------------------------------------

def _scan_kernel(op_type, np_fn, identity):
    @register_kernel(op_type)
    def factory(op, ctx):
        exclusive, reverse = op._attrs["exclusive"], op._attrs["reverse"]
        dt = op._outputs[0]._dtype.as_numpy_dtype

        def scan(x, axis):
            x = np.asarray(x)
            n = x.ndim
            if np.ndim(axis) != 0:
                raise _invalid(f"ScanOp: axis must be a scalar, not [{','.join(map(str, np.shape(axis)))}]")
            a = int(axis)
            a += n if a < 0 else 0   # TF reports the axis after adding the rank to a negative one
            if not 0 <= a < n:
                raise _invalid(f"ScanOp: Expected scan axis in the range [{-n}, {n}), but got {a}")
            if reverse:
                x = np.flip(x, a)
            out = np_fn(x, axis=a, dtype=dt)
            if identity == 0 and out.dtype.kind in "fc" and out.size:
                # TF's sum starts from +0.0, so a leading -0.0 sums to +0.0
                np.add(out, 0, out=out)
            if exclusive:
                sl = [slice(None)] * n
                sl[a] = slice(0, -1)
                shifted = np.empty_like(out)
                first = [slice(None)] * n
                first[a] = slice(0, 1)
                shifted[tuple(first)] = identity
                rest = [slice(None)] * n
                rest[a] = slice(1, None)
                shifted[tuple(rest)] = out[tuple(sl)]
                out = shifted
            if reverse:
                out = np.flip(out, a)
            return np.ascontiguousarray(out)
        return scan
    return factory


_scan_kernel("Cumsum", np.cumsum, 0)
_scan_kernel("Cumprod", np.cumprod, 1)


# -- segments ------------------------------------------------------------------------------------

@register_kernel("UnsortedSegmentSum")
def _unsorted_segment_sum(op, ctx):
    def unsorted_segment_sum(data, ids, num_segments):
        data = np.asarray(data)
        ids = np.asarray(ids)
        n = int(num_segments)
        k = ids.ndim
        if data.shape[:k] != ids.shape:
            raise _invalid(f"data.shape = {_dims(data.shape)} does not start with segment_ids.shape = "
                           f"{_dims(ids.shape)}")
        if n < 0:
            raise _invalid(f"Input num_segments == {n} must not be negative.")
        out = np.zeros((n,) + data.shape[k:], dtype=data.dtype)
        flat_ids = ids.reshape(-1)
        flat = data.reshape((-1,) + data.shape[k:])
        bad = flat_ids >= n
        if bad.any():
            j = int(np.argmax(bad))
            idx = np.unravel_index(j, ids.shape) if k else ()
            raise _invalid(f"segment_ids[{','.join(map(str, idx))}] = {flat_ids[j]} is out of range [0, {n})")
        keep = flat_ids >= 0
        if not keep.all():
            flat_ids, flat = flat_ids[keep], flat[keep]
        if flat.ndim == 1 and data.dtype.kind == "f":
            out[:] = np.bincount(flat_ids, weights=flat, minlength=n)[:n].astype(data.dtype)
        else:
            rows_at(np.add, out, flat_ids, flat)
        return out
    return unsorted_segment_sum


def _check_sorted(data, ids):
    """TF's SegmentReductionOp checks, in its order; returns the number of output rows."""
    if data.ndim == 0 or ids.shape[0] != data.shape[0]:
        raise _invalid("segment_ids should be the same size as dimension 0 of input.")
    n = int(ids[-1]) + 1 if ids.size else 0
    if n < 0:
        raise _invalid("segment ids must be >= 0")
    if ids.size:
        seg = ids[np.r_[True, ids[1:] != ids[:-1]]]   # the id of each run, in order
        if seg[0] < 0 or np.any(seg[1:] < seg[:-1]):
            for k, sid in enumerate(seg):   # TF checks the next run's order, then this run's range
                if k + 1 < len(seg) and sid > seg[k + 1]:
                    raise _invalid("segment ids are not increasing")
                if not 0 <= sid < n:
                    raise _invalid(f"Segment id {sid} out of range [0, {n}), possibly because "
                                   f"'segment_ids' input is not sorted.")
    return n


@register_kernel("SegmentSum")
def _segment_sum(op, ctx):
    def segment_sum(data, ids):
        data, ids = np.asarray(data), np.asarray(ids)
        n = _check_sorted(data, ids)
        out = np.zeros((n,) + data.shape[1:], dtype=data.dtype)
        rows_at(np.add, out, ids, data)
        return out
    return segment_sum


@register_kernel("SegmentMean")
def _segment_mean(op, ctx):
    def segment_mean(data, ids):
        data, ids = np.asarray(data), np.asarray(ids)
        n = _check_sorted(data, ids)
        out = np.zeros((n,) + data.shape[1:], dtype=data.dtype if data.dtype.kind != "i" else np.int64)
        rows_at(np.add, out, ids, data)
        counts = np.bincount(ids, minlength=n).reshape((n,) + (1,) * (data.ndim - 1))
        safe = np.maximum(counts, 1)
        if data.dtype.kind in "iu":
            q = np.abs(out) // safe
            return np.where(out < 0, -q, q).astype(data.dtype)
        return (out / safe).astype(data.dtype)
    return segment_mean


# -- special functions, xlogy family (ops/math_extra_ops.py) ------------------------------------

import math as _pymath


def _special(name, fallback=None):
    return scipy_special(name, fallback)


def _elementwise(op_type, fn):
    return register_kernel(op_type)(_elementwise_kernel(op_type, fn))


def _elementwise_kernel(op_type, fn):
    def factory(op, ctx):
        dt = op._outputs[0]._dtype.as_numpy_dtype

        wide = np.float64 if np.issubdtype(dt, np.floating) else None

        def kernel(*xs):   # float16/32 computed in float64 and rounded once
            with np.errstate(all="ignore"):
                xs = [np.asarray(x, dtype=wide) if wide is not None else np.asarray(x) for x in xs]
                return np.asarray(fn(*xs), dtype=dt)
        return kernel
    return factory


# Lgamma and Digamma: eigen_special.py (the C library's lgammaf, Eigen's digamma)
_erfc_any = _elementwise_kernel("Erfc", _special("erfc", np.vectorize(_pymath.erfc, otypes=[np.float64])))


@register_kernel("Erfc")
def _erfc_kernel(op, ctx):
    # float64 as TF's Eigen kernel (eigen_math.erfc64); float32's uses the CPU's approximate rcp
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.as_numpy_dtype is np.float64:
        return eigen_math.erfc64
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.as_numpy_dtype is np.float32 and \
            x86_approx.available():
        fast = _erfc_any(op, ctx)

        def erfc32(x):
            if 0 < np.size(x) <= _TF_ROUNDED_MAX:
                return _on_scalars_too(lambda v: eigen_math.erfc(v, x86_approx.reciprocal_packets))(x)
            return fast(x)
        return erfc32
    return _erfc_any(op, ctx)
_ndtri_wide = _elementwise_kernel("Ndtri", _special("ndtri"))


@register_kernel("Ndtri")
def _ndtri_kernel(op, ctx):
    dt = op._outputs[0]._dtype.as_numpy_dtype
    if dt not in (np.float32, np.float64):
        return no_kernel(op)   # TF registers Ndtri and Erfinv for float and double only
    if ctx.xp is np:
        from .eigen_special import ndtri32, ndtri64
        return ndtri32 if dt is np.float32 else ndtri64
    return _ndtri_wide(op, ctx)


@register_kernel("Erfinv")
def _erfinv_kernel(op, ctx):
    dt = op._outputs[0]._dtype.as_numpy_dtype
    if dt not in (np.float32, np.float64):
        return no_kernel(op)
    if ctx.xp is np:
        from .eigen_special import erfinv32, erfinv64
        return erfinv32 if dt is np.float32 else erfinv64
    ndtri = _ndtri_wide(op, ctx)
    half, sqrt_half = dt(0.5), dt(np.sqrt(0.5))

    def erfinv(x):
        # TF's scalar_erfinv_op: ndtri(0.5 * x + 0.5) * M_SQRT1_2, each step in x's precision
        # (erfinv(0.999) is 2.3267682 in float32; the exact value rounds to 2.3267553)
        with np.errstate(all="ignore"):
            return np.asarray(ndtri(np.asarray(x, dt) * half + half) * sqrt_half, dt)
    return erfinv


def _glibc_float(op_type, name, other):
    """TF's float64 and float32 kernels are glibc's functions (libm.py: `name`, `name` + "f");
    other dtypes and devices use `other`. (float32 tensors above _TF_ROUNDED_MAX values keep
    NumPy's loop: glibc's float functions run one ctypes call per value.)"""
    @register_kernel(op_type)
    def factory(op, ctx):
        dtype = op._inputs[0]._dtype.base_dtype.as_numpy_dtype
        if ctx.xp is np and dtype is np.float64:
            return getattr(libm, name)
        if ctx.xp is np and dtype is np.float32:
            exact, fast = getattr(libm, name + "f"), other(op, ctx)

            def glibc_float32(x):
                return exact(x) if np.size(x) <= _TF_ROUNDED_MAX else fast(x)
            return glibc_float32
        return other(op, ctx)
    return factory


for _t, _f in [("Tan", np.tan), ("Sinh", np.sinh), ("Cosh", np.cosh)]:
    _glibc_float(_t, _f.__name__, lambda op, ctx, _f=_f: getattr(ctx.xp, _f.__name__, _f))
_glibc_float("Acosh", "acosh", _elementwise_kernel("Acosh", np.arccosh))
_glibc_float("Asinh", "asinh", _elementwise_kernel("Asinh", np.arcsinh))
def _igamma_domain(fn, at_x0=None):
    """Eigen's igamma/igammac: NaN for a <= 0 or x < 0 (SciPy takes the a = 0 limit); igamma
    checks x == 0 (giving 0) before that."""
    def f(a, x):
        out = np.where((a <= 0) | (x < 0), np.nan, fn(a, x))
        return out if at_x0 is None else np.where(x == 0, at_x0, out)
    return f


def _igamma_kernel(op_type, fn):
    wide = _elementwise_kernel(op_type, fn)
    upper = op_type == "Igammac"

    def factory(op, ctx):   # TF registers Igamma and Igammac for float and double only
        if op._outputs[0]._dtype.name not in ("float32", "float64"):
            return no_kernel(op)
        scipy = wide(op, ctx)
        if ctx.xp is not np:
            return scipy

        def igamma(a, x):   # Eigen's Cephes loops in the dtype (SciPy's last bits differ)
            from .eigen_special import igamma as eigen_igamma
            out = eigen_igamma(a, x, upper)
            return scipy(a, x) if out is None else out
        return igamma
    return register_kernel(op_type)(factory)


_igamma_kernel("Igamma", _igamma_domain(_special("gammainc"), 0.0))
_igamma_kernel("Igammac", _igamma_domain(_special("gammaincc")))
_zeta_wide = _elementwise_kernel("Zeta", _special("zeta"))


def _zeta_domain(wide):
    """Eigen's rules for q <= 0 over SciPy's values: a whole q gives inf for an even whole x
    and NaN otherwise; any other q <= 0 needs a whole x."""
    def zeta(x, q):
        out = wide(x, q)
        dt = np.asarray(out).dtype
        with np.errstate(invalid="ignore"):
            x, q = np.asarray(x), np.asarray(q)
            xint = x == np.floor(x)
            even = xint & (np.fmod(np.where(xint, x, 0), 2) == 0)
            neg = (q <= 0) & (x > 1)
            qint = q == np.floor(q)
            fixed = np.where(qint, np.where(even, np.inf, np.nan), np.where(xint, out, np.nan))
            out = np.where(neg, fixed, out)
            return np.asarray(np.where((x == np.inf) & (q > 1), 0, out), dtype=dt)  # (TF's 0)
    return zeta


@register_kernel("Zeta")
def _zeta_kernel(op, ctx):
    wide = _zeta_wide(op, ctx)
    if op._outputs[0]._dtype.as_numpy_dtype is not np.float32 or ctx.xp is not np:
        return _zeta_domain(wide)   # (float64: SciPy's Cephes agrees with TF's)

    def zeta(x, q):   # Eigen's float32 steps with glibc's powf (SciPy's double differs in the last bit)
        from .eigen_special import zeta32
        out = zeta32(x, q)
        return wide(x, q) if out is None else out
    return _zeta_domain(zeta)
_betainc_wide = _elementwise_kernel("Betainc", _special("betainc"))


@register_kernel("Betainc")
def _betainc_kernel(op, ctx):
    wide = _betainc_wide(op, ctx)
    if op._outputs[0]._dtype.as_numpy_dtype not in (np.float32, np.float64) or ctx.xp is not np:
        return wide

    def betainc(a, b, x):   # Eigen's Cephes incbet in the dtype (SciPy's last bits differ)
        from .eigen_special import betainc as eigen_betainc
        out = eigen_betainc(a, b, x)
        return wide(a, b, x) if out is None else out
    return betainc


def _polygamma(a, x):
    return _special("polygamma")(a.astype(np.int64) if np.all(a == np.floor(a)) else a, x)


def _polygamma_kernel(a, x):
    a = np.asarray(a)
    ok = a == np.floor(a)
    out = _special("polygamma")(np.where(ok, a, 0).astype(np.int64), x)
    return np.where(ok, out, np.nan)


_polygamma_wide = _elementwise_kernel("Polygamma", _polygamma_kernel)


@register_kernel("Polygamma")
def _polygamma_kernel_tf(op, ctx):
    wide = _polygamma_wide(op, ctx)
    if op._outputs[0]._dtype.as_numpy_dtype is not np.float32 or ctx.xp is not np:
        return wide

    def polygamma(n, x):   # Eigen's float32 steps (glibc's expf, lgammaf, powf; Eigen's zeta)
        from .eigen_special import polygamma32
        out = polygamma32(n, x)
        return wide(n, x) if out is None else out
    return polygamma


def _xlogy(x, y):
    return np.where(x == 0, np.zeros_like(x * y), x * np.log(y))


def _xlog1py(x, y):
    return np.where(x == 0, np.zeros_like(x * y), x * np.log1p(y))


def _xdivy(x, y):
    return np.where(x == 0, np.zeros_like(x * y), x / y)


def _mul_no_nan(x, y):
    return np.where(y == 0, np.zeros_like(x * y), x * y)


def _x_or_zero_eigen(value):
    """Eigen's xlogy_op / xlog1py_op / xdivy_op for float32 and float64: value(x, y, packet
    size) on the operands broadcast to the output, in the output's precision; 0 where x is 0 (x
    itself in the packets, so -0.0 stays -0.0 there; +0.0 in the scalar tail of n % packet)."""
    def x_or_zero(x, y):
        x, y = np.asarray(x), np.asarray(y)
        shape = np.broadcast_shapes(x.shape, y.shape)
        size = int(np.prod(shape))
        if not 0 < size <= _TF_ROUNDED_MAX:
            return None
        lanes = eigen_math.PACKET if y.dtype == np.float32 else eigen_math.PACKET64
        with np.errstate(all="ignore"):
            xb, yb = np.broadcast_to(x, shape), np.ascontiguousarray(np.broadcast_to(y, shape))
            out = np.where(xb == 0, xb, value(xb, yb)).reshape(-1)
        cut = size // lanes * lanes
        out[cut:][xb.reshape(-1)[cut:] == 0] = 0
        return out.reshape(shape)
    return x_or_zero


def _x_log(log32, log64):
    """x * log(y) with the log rounded as TF's (eigen_math: packets, then the C library's)."""
    return lambda x, y: x * (log32 if y.dtype == np.float32 else log64)(y)


def _x_or_zero_kernel(op_type, fn, value):
    eigen = _x_or_zero_eigen(value)

    def factory(op, ctx):
        wide = _elementwise_kernel(op_type, fn)(op, ctx)
        if op._outputs[0]._dtype.as_numpy_dtype not in (np.float32, np.float64):
            return wide

        def x_or_zero(x, y):
            out = eigen(x, y)
            return wide(x, y) if out is None else out
        return x_or_zero
    return factory


_xlogy_float = _x_or_zero_kernel("Xlogy", _xlogy, _x_log(eigen_math.log, eigen_math.log64))


@register_kernel("Xlogy")
def _xlogy_kernel(op, ctx):
    if op._outputs[0]._dtype.as_numpy_dtype is not np.float16:
        return _xlogy_float(op, ctx)

    def xlogy_half(x, y):
        # Eigen's half rounds log(y) to half, then x * log(y) again (xlogy(3, 3) is 3.297, once-
        # rounded it would be 3.295; measured on TF 2.21)
        with np.errstate(all="ignore"):
            log_y = np.log(np.asarray(y, np.float32)).astype(np.float16)
            prod = (np.asarray(x, np.float32) * log_y).astype(np.float16)
            return np.asarray(np.where(np.asarray(x) == 0, np.float16(0), prod), np.float16)
    return xlogy_half
_xlog1py_float = _x_or_zero_kernel("Xlog1py", _xlog1py, _x_log(eigen_math.log1p, eigen_math.log1p64))


@register_kernel("Xlog1py")
def _xlog1py_kernel(op, ctx):
    if op._outputs[0]._dtype.as_numpy_dtype is not np.float16:
        return _xlog1py_float(op, ctx)

    def xlog1py_half(x, y):   # as xlogy_half: log1p(y) rounded to half, then the product
        with np.errstate(all="ignore"):
            l1p = np.log1p(np.asarray(y, np.float32)).astype(np.float16)
            prod = (np.asarray(x, np.float32) * l1p).astype(np.float16)
            return np.asarray(np.where(np.asarray(x) == 0, np.float16(0), prod), np.float16)
    return xlog1py_half
register_kernel("Xdivy")(_x_or_zero_kernel("Xdivy", _xdivy, np.divide))
_elementwise("MulNoNan", _mul_no_nan)


# -- segment max/min/prod --------------------------------------------------------------------------

def _segment_reduce(ufunc, init_of):
    def make(op, ctx):
        def seg(data, ids):
            data, ids = np.asarray(data), np.asarray(ids)
            n = _check_sorted(data, ids)
            out = np.full((n,) + data.shape[1:], init_of(data.dtype), dtype=data.dtype)
            rows_at(ufunc, out, ids, data)
            if ufunc is not np.multiply and n:   # TF: empty segments of sorted max/min give 0
                empty = np.bincount(ids, minlength=n) == 0
                out[empty] = 0
            return out
        return seg
    return make


def _useg_reduce(ufunc, init_of):
    def make(op, ctx):
        def useg(data, ids, num_segments):
            data, ids = np.asarray(data), np.asarray(ids)
            n = int(num_segments)
            k = ids.ndim
            if data.shape[:k] != ids.shape:
                raise _invalid(f"data.shape = {_dims(data.shape)} does not start with segment_ids.shape = "
                               f"{_dims(ids.shape)}")
            if n < 0:
                raise _invalid(f"Input num_segments == {n} must not be negative.")
            out = np.full((n,) + data.shape[k:], init_of(data.dtype), dtype=data.dtype)
            flat_ids = ids.reshape(-1)
            flat = data.reshape((-1,) + data.shape[k:])
            bad = flat_ids >= n
            if bad.any():
                j = int(np.argmax(bad))
                raise _invalid(f"segment_ids[{j}] = {flat_ids[j]} is out of range [0, {n})")
            keep = flat_ids >= 0
            rows_at(ufunc, out, flat_ids[keep], flat[keep])
            return out
        return useg
    return make


def _lowest_of(dt):
    return np.finfo(dt).min if np.issubdtype(dt, np.floating) else np.iinfo(dt).min


def _highest_of(dt):
    return np.finfo(dt).max if np.issubdtype(dt, np.floating) else np.iinfo(dt).max


register_kernel("SegmentMax")(_segment_reduce(np.maximum, _lowest_of))
register_kernel("SegmentMin")(_segment_reduce(np.minimum, _highest_of))
register_kernel("SegmentProd")(_segment_reduce(np.multiply, lambda dt: 1))
register_kernel("UnsortedSegmentMax")(_useg_reduce(np.maximum, _lowest_of))
register_kernel("UnsortedSegmentMin")(_useg_reduce(np.minimum, _highest_of))
register_kernel("UnsortedSegmentProd")(_useg_reduce(np.multiply, lambda dt: 1))


@register_kernel("DenseBincount")
def _dense_bincount(op, ctx):
    dt = op._outputs[0]._dtype.as_numpy_dtype
    binary = op._attrs.get("binary_output", False)

    def dense_bincount(arr, size, weights):
        arr = np.asarray(arr)
        weights = np.asarray(weights)
        if weights.size and weights.shape != arr.shape:
            raise _invalid("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
                           f"acts as all weights equal to 1. Received {_dims(weights.shape)}")
        arr = arr.reshape(-1)
        size = int(size)
        if size < 0:
            raise _invalid(f"size ({size}) must be non-negative")
        if arr.size and arr.min() < 0:
            raise _invalid("Input arr must be non-negative!")
        w = np.asarray(weights).reshape(-1)
        keep = arr < size
        if w.size:
            out = np.bincount(arr[keep], weights=w[keep], minlength=size)[:size]
        else:
            out = np.bincount(arr[keep], minlength=size)[:size]
        if binary:
            out = out != 0
        return out.astype(dt)
    return dense_bincount
