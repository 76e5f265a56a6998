"""Learning-rate schedules: names, dtypes and values against TF recordings and the formulas.

TF_VALUES were recorded from real TensorFlow (tf.compat.v1, graph mode) at the steps in STEPS."""

import math

import numpy as np
import pytest

import tensorweave as tf

STEPS = [0, 1, 5, 9, 10, 11, 15, 19, 20, 21, 25, 29, 30, 31, 45, 61, 100]

SCHEDULES = {
    "exp": lambda gs: tf.train.exponential_decay(0.1, gs, 10, 0.5),
    "exp_st": lambda gs: tf.train.exponential_decay(0.1, gs, 10, 0.5, staircase=True),
    "pc": lambda gs: tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5, 0.1]),
    "pc_int32b": lambda gs: tf.train.piecewise_constant(gs, [np.int32(10)], [1.0, 0.5]),
    "poly": lambda gs: tf.train.polynomial_decay(0.1, gs, 30, end_learning_rate=0.01, power=2.0),
    "poly_cyc": lambda gs: tf.train.polynomial_decay(0.1, gs, 30, end_learning_rate=0.01, power=0.5, cycle=True),
    "cos": lambda gs: tf.train.cosine_decay(0.1, gs, 30, alpha=0.1),
    "nat": lambda gs: tf.train.natural_exp_decay(0.1, gs, 10, 0.5),
    "nat_st": lambda gs: tf.train.natural_exp_decay(0.1, gs, 10, 0.5, staircase=True),
    "inv": lambda gs: tf.train.inverse_time_decay(0.1, gs, 10, 0.5),
    "inv_st": lambda gs: tf.train.inverse_time_decay(0.1, gs, 10, 0.5, staircase=True),
    "lincos": lambda gs: tf.train.linear_cosine_decay(0.1, gs, 30),
    "cosr": lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 10, alpha=0.1),
    "cosr1": lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 10, t_mul=1.0, m_mul=0.5),
    "exp64": lambda gs: tf.train.exponential_decay(np.float64(0.1), gs, 10, 0.5),
}

# Recorded from TF: the name of each schedule's result when built in this order in one graph.
NAMES = {
    "exp": "ExponentialDecay:0", "exp_st": "ExponentialDecay_1:0", "pc": "PiecewiseConstant/case/cond/Merge:0",
    "pc_int32b": "PiecewiseConstant_1/case/cond/Merge:0", "poly": "PolynomialDecay:0",
    "poly_cyc": "PolynomialDecay_1:0", "cos": "CosineDecay/Mul_3:0", "nat": "ExponentialDecay_2:0",
    "nat_st": "ExponentialDecay_3:0", "inv": "InverseTimeDecay:0", "inv_st": "InverseTimeDecay_1:0",
    "lincos": "LinearCosineDecay:0", "cosr": "SGDRDecay:0", "cosr1": "SGDRDecay_1:0",
    "exp64": "ExponentialDecay_4:0",
}

TF_VALUES = {
    'exp': [
        0.10000000149011612, 0.09330330044031143, 0.0707106813788414, 0.05358866974711418,
        0.05000000074505806, 0.046651650220155716, 0.0353553406894207, 0.02679433859884739,
        0.02500000037252903, 0.02332582138478756, 0.01767767034471035, 0.013397167436778545,
        0.012500000186264515, 0.01166291069239378, 0.0044194175861775875, 0.001457864185795188,
        9.765625145519152e-05,
    ],
    'exp_st': [
        0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
        0.05000000074505806, 0.05000000074505806, 0.05000000074505806, 0.05000000074505806,
        0.02500000037252903, 0.02500000037252903, 0.02500000037252903, 0.02500000037252903,
        0.012500000186264515, 0.012500000186264515, 0.0062500000931322575, 0.0015625000232830644,
        9.765625145519152e-05,
    ],
    'pc': [
        1.0, 1.0, 1.0, 1.0,
        1.0, 0.5, 0.5, 0.5,
        0.5, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
        0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
        0.10000000149011612,
    ],
    'pc_int32b': [
        1.0, 1.0, 1.0, 1.0,
        1.0, 0.5, 0.5, 0.5,
        0.5, 0.5, 0.5, 0.5,
        0.5, 0.5, 0.5, 0.5,
        0.5,
    ],
    'poly': [
        0.10000000149011612, 0.0940999910235405, 0.07249999791383743, 0.054099999368190765,
        0.04999999701976776, 0.04609999805688858, 0.032499998807907104, 0.022099995985627174,
        0.019999999552965164, 0.01809999719262123, 0.01249999925494194, 0.010099999606609344,
        0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582,
        0.009999999776482582,
    ],
    'poly_cyc': [
        0.10000000149011612, 0.09848728775978088, 0.09215838462114334, 0.08529940247535706,
        0.08348468691110611, 0.08162402361631393, 0.07363960891962051, 0.06449770927429199,
        0.061961524188518524, 0.059295035898685455, 0.04674234986305237, 0.02643168345093727,
        0.009999999776482582, 0.07256995886564255, 0.054999999701976776, 0.061088159680366516,
        0.04674234986305237,
    ],
    'cos': [
        0.10000000149011612, 0.0997534841299057, 0.0939711481332779, 0.08145033568143845,
        0.07750000059604645, 0.07330314815044403, 0.05499998852610588, 0.036696843802928925,
        0.03249999135732651, 0.02854965627193451, 0.01602885127067566, 0.010246514342725277,
        0.010000000707805157, 0.010000000707805157, 0.010000000707805157, 0.010000000707805157,
        0.010000000707805157,
    ],
    'nat': [
        0.10000000149011612, 0.09512294828891754, 0.07788007706403732, 0.06376281380653381,
        0.060653068125247955, 0.05769498273730278, 0.04723665863275528, 0.03867410495877266,
        0.03678794577717781, 0.03499377518892288, 0.02865048125386238, 0.023457027971744537,
        0.022313017398118973, 0.021224796772003174, 0.01053992286324501, 0.004735893104225397,
        0.0006737948278896511,
    ],
    'nat_st': [
        0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
        0.060653068125247955, 0.060653068125247955, 0.060653068125247955, 0.060653068125247955,
        0.03678794577717781, 0.03678794577717781, 0.03678794577717781, 0.03678794577717781,
        0.022313017398118973, 0.022313017398118973, 0.013533529825508595, 0.004978707060217857,
        0.0006737948278896511,
    ],
    'inv': [
        0.10000000149011612, 0.0952381044626236, 0.07999999821186066, 0.06896551698446274,
        0.06666667014360428, 0.06451613456010818, 0.05714285746216774, 0.05128205195069313,
        0.05000000074505806, 0.04878048226237297, 0.04444444552063942, 0.040816325694322586,
        0.03999999910593033, 0.039215683937072754, 0.03076923079788685, 0.024691356346011162,
        0.01666666753590107,
    ],
    'inv_st': [
        0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
        0.06666667014360428, 0.06666667014360428, 0.06666667014360428, 0.06666667014360428,
        0.05000000074505806, 0.05000000074505806, 0.05000000074505806, 0.05000000074505806,
        0.03999999910593033, 0.03999999910593033, 0.03333333507180214, 0.02500000037252903,
        0.01666666753590107,
    ],
    'lincos': [
        0.10010000318288803, 0.0965018942952156, 0.0778510645031929, 0.05567248538136482,
        0.05009999871253967, 0.04464665800333023, 0.025099996477365494, 0.010976492427289486,
        0.008433329872786999, 0.006283219438046217, 0.0012164541985839605, 0.00010913014557445422,
        0.00010000000474974513, 0.00010000000474974513, 0.00010000000474974513, 0.00010000000474974513,
        0.00010000000474974513,
    ],
    'cosr': [
        0.10000000149011612, 0.09779754281044006, 0.05499999597668648, 0.01220245286822319,
        0.10000000149011612, 0.09944597631692886, 0.08681981265544891, 0.06203955411911011,
        0.05499999597668648, 0.047960441559553146, 0.023180196061730385, 0.010554024018347263,
        0.10000000149011612, 0.099861279129982, 0.07222075760364532, 0.020781729370355606,
        0.07222075760364532,
    ],
    'cosr1': [
        0.10000000149011612, 0.0975528284907341, 0.04999999701976776, 0.0024471699725836515,
        0.05000000074505806, 0.04877641424536705, 0.02499999850988388, 0.0012235880130901933,
        0.02500000037252903, 0.024388205260038376, 0.01249999925494194, 0.0006117917946539819,
        0.012500000186264515, 0.012194102630019188, 0.003124999813735485, 0.0015242629451677203,
        9.765625145519152e-05,
    ],
    'exp64': [
        0.1, 0.09330329915368074, 0.07071067811865477, 0.05358867312681466,
        0.05, 0.04665164957684037, 0.03535533905932738, 0.02679433656340733,
        0.025, 0.023325824788420185, 0.01767766952966369, 0.013397168281703661,
        0.0125, 0.011662912394210093, 0.004419417382415923, 0.0014578640492762611,
        9.765625e-05,
    ],
}


def _formula(key, t):
    """The schedules' formulas in float64."""
    if key == "exp":
        return 0.1 * 0.5 ** (t / 10)
    if key == "exp_st":
        return 0.1 * 0.5 ** (t // 10)
    if key == "pc":
        return 1.0 if t <= 10 else (0.5 if t <= 20 else 0.1)
    if key == "pc_int32b":
        return 1.0 if t <= 10 else 0.5
    if key == "poly":
        s = min(t, 30)
        return (0.1 - 0.01) * (1 - s / 30) ** 2 + 0.01
    if key == "poly_cyc":
        steps = 30 * max(1, math.ceil(t / 30))
        return (0.1 - 0.01) * (1 - t / steps) ** 0.5 + 0.01
    if key == "cos":
        s = min(t, 30)
        return 0.1 * (0.9 * 0.5 * (1 + math.cos(math.pi * s / 30)) + 0.1)
    if key == "nat":
        return 0.1 * math.exp(-0.5 * t / 10)
    if key == "nat_st":
        return 0.1 * math.exp(-0.5 * (t // 10))
    if key == "inv":
        return 0.1 / (1 + 0.5 * t / 10)
    if key == "inv_st":
        return 0.1 / (1 + 0.5 * (t // 10))
    if key == "lincos":
        s = min(t, 30)
        return 0.1 * (((30 - s) / 30) * 0.5 * (1 + math.cos(math.pi * 2 * 0.5 * s / 30)) + 0.001)
    if key in ("cosr", "cosr1"):
        t_mul, m_mul, alpha = (2.0, 1.0, 0.1) if key == "cosr" else (1.0, 0.5, 0.0)
        frac = t / 10
        if t_mul == 1.0:
            i = math.floor(frac)
            frac -= i
        else:
            i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
            frac = (frac - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i
        return 0.1 * ((1 - alpha) * 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac)) + alpha)
    if key == "exp64":
        return 0.1 * 0.5 ** (t / 10)
    raise KeyError(key)


def test_schedules_names_dtypes_and_values():
    gs = tf.train.get_or_create_global_step()
    built = {k: make(gs) for k, make in SCHEDULES.items()}
    for k, t in built.items():
        assert t.name == NAMES[k]
        assert t.shape.as_list() == []
        assert t.dtype == (tf.float64 if k == "exp64" else tf.float32)
    assert tf.train.exponential_decay(0.1, gs, 10, 0.5, name="my_lr").name == "my_lr:0"
    step = tf.placeholder(tf.int64, [])
    set_step = tf.assign(gs, step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = {k: [] for k in built}
        for s in STEPS:
            sess.run(set_step, {step: s})
            values = sess.run(built)
            for k, v in values.items():
                got[k].append(v)
    for k in built:
        rtol = 1e-12 if k == "exp64" else 2e-6
        np.testing.assert_allclose(got[k], TF_VALUES[k], rtol=rtol, atol=1e-7, err_msg=k)
        np.testing.assert_allclose(got[k], [_formula(k, s) for s in STEPS], rtol=1e-5, atol=1e-7, err_msg=k)


def test_piecewise_constant_boundaries_are_inclusive():
    x = tf.placeholder(tf.float32, [])
    lr = tf.train.piecewise_constant(x, [1.0, 2.5], [10, 20, 30])
    assert lr.dtype == tf.int32
    with tf.Session() as sess:
        got = [sess.run(lr, {x: v}) for v in [0.0, 1.0, 1.0001, 2.5, 2.50001, 100.0]]
    assert got == [10, 10, 20, 20, 30, 30]


def test_schedule_with_a_placeholder_step():
    step = tf.placeholder(tf.int32, [])
    lr = tf.train.inverse_time_decay(1.0, step, 2, 1.0, staircase=True)
    with tf.Session() as sess:
        got = [sess.run(lr, {step: s}) for s in (0, 1, 2, 5)]
    np.testing.assert_allclose(got, [1.0, 1.0, 0.5, 1 / 3.0], rtol=1e-7)


def test_schedule_errors():
    gs = tf.train.get_or_create_global_step()
    # Messages recorded from TF.
    with pytest.raises(ValueError, match="None values not supported."):
        tf.train.exponential_decay(0.1, None, 10, 0.5)
    for fn in (tf.train.polynomial_decay, tf.train.cosine_decay):
        with pytest.raises(ValueError, match="None values not supported."):
            fn(0.1, None, 10)
    with pytest.raises(ValueError, match="The length of boundaries should be 1 less than the length of values"):
        tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5])
    with pytest.raises(ValueError, match=r"Values must have elements all with the same dtype \(<dtype: 'float32'> "
                                         r"vs <dtype: 'int32'>\)\."):
        tf.train.piecewise_constant(gs, [10], [1.0, 1])
    with pytest.raises(ValueError, match=r"Boundaries \(<dtype: 'float32'>\) must have the same dtype as x "
                                         r"\(<dtype: 'int64'>\)\."):
        tf.train.piecewise_constant(gs, [10.0], [1.0, 2.0])
