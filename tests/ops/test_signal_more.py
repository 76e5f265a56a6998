"""tf.signal: N-D FFTs, Kaiser/KBD/Vorbis windows, mdct/inverse_mdct (signal_more_ops)."""

import numpy as np

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients, check_op, run_op


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape)


def test_fftnd_default_axes_and_names():
    x = (_x([2, 3, 4]) + 1j * _x([2, 3, 4], 1)).astype(np.complex64)
    g = tf.Graph()
    with g.as_default():
        f = tf.signal.fftnd(tf.constant(x))
        assert f.name == "fftnd:0" and f.shape.as_list() == [2, 3, 4] and f.dtype == tf.complex64
        with tf.Session() as s:
            np.testing.assert_allclose(s.run(f), np.fft.fftn(x), rtol=1e-4, atol=1e-4)
    assert tf.fftnd is tf.signal.fftnd


def test_fftnd_lengths_axes_norm():
    x = (_x([2, 3, 4]) + 1j * _x([2, 3, 4], 1)).astype(np.complex128)
    check_op(lambda t: tf.signal.fftnd(t, fft_length=[3, 4], axes=[1, 2]), [x],
             lambda v: np.fft.fftn(v, s=[3, 4], axes=[1, 2]))
    check_op(lambda t: tf.signal.fftnd(t, fft_length=[2, 3, 4], axes=[0, 1, 2], norm="ortho"), [x],
             lambda v: np.fft.fftn(v, norm="ortho"))
    check_op(lambda t: tf.signal.ifftnd(t, fft_length=[2, 4], axes=[0, 2], norm="forward"), [x],
             lambda v: np.fft.ifftn(v, s=[2, 4], axes=[0, 2], norm="forward"))


def test_rfftnd_irfftnd_roundtrip():
    x = _x([2, 3, 4])
    out, (r, back) = run_op(lambda t: [tf.signal.rfftnd(t, [3, 4], [1, 2]),
                                       tf.signal.irfftnd(tf.signal.rfftnd(t, [3, 4], [1, 2]), [3, 4], [1, 2])],
                            [x])
    np.testing.assert_allclose(r, np.fft.rfftn(x, axes=[1, 2]), atol=1e-10)
    np.testing.assert_allclose(back, x, atol=1e-10)
    # TF's shape function keeps the input's static shape (recorded from TF 2.21).
    assert out[0].shape.as_list() == [2, 3, 4] and out[0].dtype == tf.complex128


def _blur(t):
    """t with its static dimensions erased: the N-D FFTs carry TF's static shape (the input's,
    even where fft_length changes it), so a loss built on them must not rely on static shapes."""
    dims = tf.placeholder_with_default(np.array(t.shape.as_list(), np.int32), [t.shape.ndims])
    return tf.reshape(t, dims)


def test_nd_fft_gradients():
    x = _x([2, 3, 4])
    check_gradients(lambda t: tf.abs(tf.signal.rfftnd(_blur(t), [3, 4], [1, 2])), [x])
    check_gradients(lambda t: tf.signal.irfftnd(tf.cast(_blur(t), tf.complex128), [3, 6], [1, 2]), [x])
    check_gradients(lambda t: tf.math.real(tf.signal.fftnd(tf.complex(t, 2 * t), [2, 4], [0, 2])), [x])
    check_gradients(lambda t: tf.math.imag(tf.signal.ifftnd(tf.complex(t, t * t), [3, 4], [1, 2])), [x])
    # cropping and padding (the static shapes erased, see _blur)
    check_gradients(lambda t: tf.math.real(tf.signal.fftnd(tf.complex(_blur(t), 2 * _blur(t)), [2, 3], [0, 2])), [x])
    check_gradients(lambda t: tf.math.imag(tf.signal.ifftnd(tf.complex(_blur(t), _blur(t * t)), [3, 5], [1, 2])), [x])



def test_windows():
    check_op(lambda: tf.signal.kaiser_window(8), [], np.kaiser(8, 12.0).astype(np.float32), rtol=1e-4)
    check_op(lambda: tf.signal.kaiser_window(7, 5.0, dtype=tf.float64), [], np.kaiser(7, 5.0), rtol=1e-10)
    check_op(lambda: tf.signal.kaiser_window(1), [], np.ones(1, np.float32))
    n = 6
    check_op(lambda: tf.signal.vorbis_window(n, dtype=tf.float64), [],
             np.sin(np.pi / 2 * np.sin(np.pi * (np.arange(n) + 0.5) / n) ** 2))
    k = np.kaiser(5, 12.0)
    half = np.sqrt(np.cumsum(k)[:-1] / k.sum())
    check_op(lambda: tf.signal.kaiser_bessel_derived_window(8, dtype=tf.float64), [],
             np.concatenate([half, half[::-1]]), rtol=1e-10)


def test_window_errors():
    for fn in (tf.signal.kaiser_window, tf.signal.vorbis_window, tf.signal.kaiser_bessel_derived_window):
        try:
            fn(4, dtype=tf.int32)
            raise AssertionError("no error")
        except ValueError as e:
            assert "dtype must be a floating point type" in str(e)


def _np_mdct(x, L):
    n = np.arange(L)
    w = np.sin(np.pi / 2 * np.sin(np.pi * (n + 0.5) / L) ** 2)
    frames = [x[i:i + L] * w for i in range(0, len(x) - L + 1, L // 2)]
    k = np.arange(L // 2)
    basis = np.cos(np.pi / (L // 2) * (n[None, :] + 0.5 + L / 4) * (k[:, None] + 0.5))
    return np.stack([basis @ f for f in frames]) * 2


def test_mdct_definition_and_perfect_reconstruction():
    x = _x([32])
    check_op(lambda t: tf.signal.mdct(t, 8), [x], lambda v: _np_mdct(v, 8), rtol=1e-8, atol=1e-8)
    out, back = run_op(lambda t: tf.signal.inverse_mdct(tf.signal.mdct(t, 8)), [x])
    assert out.shape.as_list() == [32]
    # The first and last half frame lack their overlap partner; the inside is exact.
    np.testing.assert_allclose(back[4:-4], x[4:-4], atol=1e-10)
    _, back2 = run_op(lambda t: tf.signal.inverse_mdct(tf.signal.mdct(t, 8, window_fn=None, norm="ortho"),
                                                       window_fn=None, norm="ortho"), [x])
    np.testing.assert_allclose(back2[4:-4], x[4:-4], atol=1e-10)


def test_mdct_errors_and_gradient():
    try:
        tf.signal.mdct(tf.zeros([16]), 6)
        raise AssertionError("no error")
    except ValueError as e:
        assert str(e) == "The frame length must be a multiple of 4."
    check_gradients(lambda t: tf.signal.mdct(t, 8), [_x([2, 16])])
    check_gradients(lambda t: tf.signal.inverse_mdct(t), [_x([3, 4])])
