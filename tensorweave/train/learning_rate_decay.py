"""Learning-rate schedules (`tf.train.exponential_decay`, ...): graph ops computing the learning
rate from the global step, named and typed like TF1's (the result has the dtype of the initial
learning rate, and the op is named after the schedule: "ExponentialDecay", "PolynomialDecay", ...).
"""

import math

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import name_scope

__all__ = ["exponential_decay", "piecewise_constant", "polynomial_decay", "natural_exp_decay",
           "inverse_time_decay", "cosine_decay", "cosine_decay_restarts", "linear_cosine_decay",
           "noisy_linear_cosine_decay"]


def _m():
    from ..ops import math_ops
    return math_ops


def _cast(x, dtype):
    # math_ops.cast, as TF's schedules call it: a Python value becomes "Cast/x" (plus a Cast op
    # when its dtype differs), so the ops get TF's names.
    return _m().cast(x, dtype)


def _start(learning_rate):
    lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
    return lr, lr.dtype.base_dtype


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps) (the exponent floored if staircase)."""
    return _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name)


def _rate_and_progress(global_step, decay_steps, decay_rate, dtype, staircase):
    """(decay_rate, global_step / decay_steps floored if staircase), cast to `dtype` in TF's op
    order (decay_steps, decay_rate, global_step), which decides the ops' names."""
    decay_steps = _cast(decay_steps, dtype)
    decay_rate = _cast(decay_rate, dtype)
    p = _cast(global_step, dtype) / decay_steps
    return decay_rate, (_m().floor(p) if staircase else p)


def _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name):
    m = _m()
    with name_scope(name, "ExponentialDecay") as scope:
        lr, dtype = _start(learning_rate)
        decay_rate, p = _rate_and_progress(global_step, decay_steps, decay_rate, dtype, staircase)
        return m.multiply(lr, m.pow(decay_rate, p), name=scope)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps) (floored exponent if staircase).

    Built as TF1 builds it: an ExponentialDecay with rate exp(-decay_rate)."""
    m = _m()
    natural_exp_rate = m.exp(m.negative(decay_rate))
    return _exponential(learning_rate, global_step, decay_steps, natural_exp_rate, staircase, name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps) (floored ratio if staircase)."""
    m = _m()
    with name_scope(name, "InverseTimeDecay") as scope:
        lr, dtype = _start(learning_rate)
        decay_rate, p = _rate_and_progress(global_step, decay_steps, decay_rate, dtype, staircase)
        const = _cast(constant(1), dtype)
        denom = m.add(const, m.multiply(decay_rate, p))
        return m.divide(lr, denom, name=scope)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False, name=None):
    """(learning_rate - end) * (1 - step / decay_steps) ^ power + end, with step capped at
    decay_steps; with cycle, decay_steps grows to the first multiple of itself above the step."""
    m = _m()
    with name_scope(name, "PolynomialDecay") as scope:
        lr, dtype = _start(learning_rate)
        end_learning_rate = _cast(end_learning_rate, dtype)
        power = _cast(power, dtype)
        step = _cast(global_step, dtype)
        decay_steps_t = _cast(decay_steps, dtype)
        if cycle:
            from ..ops import array_ops
            multiplier = array_ops.where_v2(m.equal(step, 0), 1.0, m.ceil(step / decay_steps))
            decay_steps_t = m.multiply(decay_steps_t, multiplier)
        else:
            step = m.minimum(step, decay_steps_t)
        p = m.divide(step, decay_steps_t)
        return m.add(m.multiply(lr - end_learning_rate, m.pow(1 - p, power)), end_learning_rate, name=scope)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha)."""
    m = _m()
    with name_scope(name, "CosineDecay"):
        lr, dtype = _start(learning_rate)
        decay_steps = _cast(decay_steps, dtype)
        step = m.minimum(_cast(global_step, dtype), decay_steps)
        completed_fraction = step / decay_steps
        cosine_decayed = 0.5 * (1.0 + m.cos(constant(math.pi) * completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return m.multiply(lr, decayed)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001,
                        name=None):
    """learning_rate * ((alpha + linear) * cosine + beta) with linear = (decay_steps - step) /
    decay_steps and cosine = 0.5 * (1 + cos(pi * 2 * num_periods * step / decay_steps))."""
    m = _m()
    with name_scope(name, "LinearCosineDecay") as scope:
        lr, dtype = _start(learning_rate)
        decay_steps = _cast(decay_steps, dtype)
        num_periods = _cast(num_periods, dtype)
        alpha = _cast(alpha, dtype)
        beta = _cast(beta, dtype)
        step = m.minimum(_cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + m.cos(constant(math.pi) * fraction))
        linear_cosine_decayed = (alpha + linear_decayed) * cosine_decayed + beta
        return m.multiply(lr, linear_cosine_decayed, name=scope)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """linear_cosine_decay with Gaussian noise added to the linear term: its variance is
    initial_variance / (1 + step)^variance_decay (unseeded, like TF's)."""
    m = _m()
    from ..ops import random_ops
    with name_scope(name, "NoisyLinearCosineDecay") as scope:
        lr, dtype = _start(learning_rate)
        decay_steps = _cast(decay_steps, dtype)
        initial_variance = _cast(initial_variance, dtype)
        variance_decay = _cast(variance_decay, dtype)
        num_periods = _cast(num_periods, dtype)
        alpha = _cast(alpha, dtype)
        beta = _cast(beta, dtype)
        step = m.minimum(_cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        variance = initial_variance / (m.pow(1.0 + step, variance_decay))
        std = m.sqrt(variance)
        noisy_linear_decayed = linear_decayed + random_ops.random_normal(linear_decayed.shape, stddev=std)
        completed_fraction = step / decay_steps
        fraction = 2.0 * num_periods * completed_fraction
        cosine_decayed = 0.5 * (1.0 + m.cos(constant(math.pi) * fraction))
        noisy_linear_cosine_decayed = (alpha + noisy_linear_decayed) * cosine_decayed + beta
        return m.multiply(lr, noisy_linear_cosine_decayed, name=scope)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    """SGDR (cosine decay with warm restarts): periods grow by t_mul, restart peaks scale by m_mul."""
    m = _m()
    with name_scope(name, "SGDRDecay") as scope:
        lr, dtype = _start(learning_rate)
        first_decay_steps = _cast(first_decay_steps, dtype)
        alpha = _cast(alpha, dtype)
        t_mul_t = _cast(t_mul, dtype)
        m_mul = _cast(m_mul, dtype)
        completed_fraction = _cast(global_step, dtype) / first_decay_steps
        def arithmetic(fraction):
            i = m.floor(fraction)
            return i, fraction - i

        def geometric(fraction):
            i = m.floor(m.log(1.0 - fraction * (1.0 - t_mul_t)) / m.log(t_mul_t))
            sum_r = (1.0 - t_mul_t ** i) / (1.0 - t_mul_t)
            return i, (fraction - sum_r) / t_mul_t ** i

        # TF picks the branch with a cond on t_mul == 1 at run time (a Python t_mul too)
        from ..ops import control_flow_ops
        fraction = completed_fraction
        i_restart, completed_fraction = control_flow_ops.cond(
            m.equal(t_mul_t, 1.0), lambda: arithmetic(fraction), lambda: geometric(fraction))
        m_fac = m_mul ** i_restart
        # TF's pi is a float32 constant whatever the learning rate's dtype (float64 is a TypeError)
        cosine_decayed = 0.5 * m_fac * (1.0 + m.cos(constant(math.pi) * completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return m.multiply(lr, decayed, name=scope)


def _flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for e in x:
            out.extend(_flatten(e))
        return out
    return [x]


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] while x <= boundaries[0], values[1] while boundaries[0] < x <= boundaries[1], ...,
    values[-1] once x > boundaries[-1] (TF's exact `<=` semantics)."""
    m = _m()
    from ..ops import array_ops
    boundaries = [convert_to_tensor(b) for b in _flatten(boundaries)]
    values = [convert_to_tensor(v) for v in _flatten(values)]
    x_recomp = convert_to_tensor(x)
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype != x_recomp.dtype.base_dtype:
            # int32 boundaries (Python ints) are promoted to an int64 step without loss.
            if b.dtype.base_dtype == _dtypes.int32 and x_recomp.dtype.base_dtype == _dtypes.int64:
                boundaries[i] = m.cast(b, x_recomp.dtype.base_dtype)
            else:
                raise ValueError("Boundaries (%s) must have the same dtype as x (%s)." % (
                    b.dtype.base_dtype, x_recomp.dtype.base_dtype))
    for v in values[1:]:
        if v.dtype.base_dtype != values[0].dtype.base_dtype:
            raise ValueError("Values must have elements all with the same dtype (%s vs %s)." % (
                values[0].dtype.base_dtype, v.dtype.base_dtype))
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with name_scope(name, "PiecewiseConstant"):
        if not boundaries:
            # (TF's first case compares x with boundaries[0])
            raise IndexError("list index out of range")
        # The number of boundaries strictly below x picks the value: x <= b[0] -> values[0], ...
        count = None
        for b in boundaries:
            above = m.cast(m.greater(x_recomp, b), _dtypes.int32)
            count = above if count is None else m.add(count, above)
        picked = array_ops.gather(array_ops.stack(values), count)
        # TF builds this with tf.case; its result is named "<scope>/case/cond/Merge".
        with name_scope("case"), name_scope("cond"):
            return array_ops.identity(picked, name="Merge")
