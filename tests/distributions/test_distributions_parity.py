"""tf.distributions against values recorded from TF 2.21 (tf.compat.v1, graph mode): entropies
and log-probs that go through lgamma/digamma print TF's float32 digits."""

import numpy as np

import tensorweave as tf

tfd = tf.distributions


def _run(fetches):
    with tf.Session() as s:
        return s.run(fetches)


def test_lgamma_digamma_float32_as_tf():
    # Recorded from TF 2.21: glibc's lgammaf (not correctly rounded: 1.5 -> -0.120782234)
    # and Eigen's float digamma.
    x = np.array([1.5, 15., 123.4, -2.5, 0.1, 7.3], np.float32)
    with tf.Graph().as_default():
        lg, dg = _run([tf.lgamma(x), tf.digamma(x)])
    np.testing.assert_array_equal(lg, np.array(
        [-0.12078223377466202, 25.19122314453125, 469.33612060546875, -0.056243713945150375,
         2.2527127265930176, 7.147892951965332], np.float32))
    np.testing.assert_array_equal(dg, np.array(
        [0.03648996353149414, 2.674346685409546, 4.811374187469482, 1.1031568050384521,
         -10.423754692077637, 1.9178203344345093], np.float32))


def test_lgamma_digamma_other_dtypes_and_poles():
    with tf.Graph().as_default():
        x = np.array([-2., 0., 0.5, 3.], np.float64)
        lg, dg, h = _run([tf.lgamma(x), tf.digamma(x), tf.digamma(x.astype(np.float16))])
    assert np.isinf(lg[0]) and np.isinf(lg[1])
    np.testing.assert_allclose(lg[2:], [np.log(np.sqrt(np.pi)), np.log(2.)], rtol=1e-15)
    assert np.isnan(dg[0]) and np.isnan(dg[1])  # Eigen's poles: NaN, not -inf
    # Recorded from TF 2.21 (Eigen's double digamma; SciPy's differs in the last digits).
    np.testing.assert_array_equal(dg[2:], [-1.9635100260214227, 0.9227843350984675])
    assert h.dtype == np.float16 and np.isnan(h[0])


def test_entropies_float32_as_tf():
    # Recorded from TF 2.21.
    with tf.Graph().as_default():
        ds = [tfd.Beta(2., [3., 0.5]), tfd.Gamma(concentration=[0.5, 3.], rate=2.),
              tfd.Dirichlet([1., 2., 3.]), tfd.StudentT(df=[3., 30.], loc=0., scale=1.)]
        got = _run([d.entropy() for d in ds])
    want = [[-0.23490667343139648, -0.7652791142463684], [-0.6025376319885254, 1.1544315814971924],
            -1.2443442344665527, [1.77347731590271, 1.4525467157363892]]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, np.array(w, np.float32))


def test_mixed_parameter_dtypes_message_as_tf():
    # TF 2.21's check_ops.assert_same_float_dtype message.
    with tf.Graph().as_default():
        tfd.Normal(0., 1.)
        tfd.Normal(0., 1.)
        tfd.Normal(0., 1.)
        try:
            tfd.Normal(0, 1.)
        except ValueError as e:
            assert str(e) == ("Normal_3/scale:0, type=<dtype: 'float32'>, must be of the same type "
                              "(<dtype: 'int32'>) as Normal_3/loc:0.")
        else:
            raise AssertionError("no error")
