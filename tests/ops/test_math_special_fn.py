"""tf.math.special: the Bessel, Dawson, exponential-integral, Fresnel and Spence functions against
SciPy, their names (recorded from TensorFlow 2.21: "bessel_j0/BesselJ0") and gradients by finite
differences in float64."""

import numpy as np
import pytest
import scipy.special as sp

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

X = np.array([0.3, 0.9, 1.7, 2.5, 4.0])
S = tf.math.special


@pytest.mark.parametrize("fn,ref", [
    (S.bessel_j0, sp.j0), (S.bessel_j1, sp.j1), (S.bessel_y0, sp.y0), (S.bessel_y1, sp.y1),
    (S.bessel_k0, sp.k0), (S.bessel_k0e, sp.k0e), (S.bessel_k1, sp.k1), (S.bessel_k1e, sp.k1e),
    (S.bessel_i0, sp.i0), (S.bessel_i1e, sp.i1e), (S.dawsn, sp.dawsn), (S.expint, sp.expi),
    (S.fresnel_cos, lambda x: sp.fresnel(x)[1]), (S.fresnel_sin, lambda x: sp.fresnel(x)[0]),
    (S.spence, sp.spence)])
def test_values_and_gradients(fn, ref):
    check_op(fn, [X], ref, rtol=1e-12)
    check_op(fn, [X.astype(np.float32)], lambda x: ref(x.astype(np.float64)).astype(np.float32), rtol=1e-6)
    check_gradients(fn, [X])


def test_names_domain_and_dtypes():
    with tf.Graph().as_default():
        j0 = S.bessel_j0(tf.constant(1.0))
        assert (j0.name, j0.op.type) == ("bessel_j0/BesselJ0:0", "BesselJ0")
        assert S.dawsn(tf.constant(1.0)).name == "dawsn/Dawsn:0"
        assert tf.math.bessel_i0(tf.constant(1.0)).name == "bessel_i0/BesselI0:0"
        # TF 2.21: Ei is NaN below 0 and -inf at 0
        with tf.Session() as s:
            e = s.run(S.expint(tf.constant([-0.5, 0.0])))
        assert np.isnan(e[0]) and e[1] == -np.inf
        with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
            S.bessel_j0(tf.constant([1, 2]))
