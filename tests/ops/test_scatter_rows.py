"""scatter_rows.rows_at: row scatters with repeated indices, bit-equal to NumPy's sequential
ufunc.at (TF's CPU scatter kernels apply updates one after another in index order)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu.scatter_rows import rows_at

_UFUNCS = [np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.minimum]


# (integer ScatterDiv truncates: state._int_div_at, not a ufunc)
@pytest.mark.parametrize("dtype,ufunc", [
    (d, u) for d in (np.float32, np.float64, np.float16, np.int32, np.int64) for u in _UFUNCS
    if not (u is np.true_divide and np.dtype(d).kind == "i")], ids=str)
def test_rows_at_equals_ufunc_at_bit_for_bit(dtype, ufunc):
    rng = np.random.RandomState(len(ufunc.__name__) + np.dtype(dtype).itemsize)
    for trial in range(40):
        rows = rng.randint(1, 30)
        shape = (rows,) + tuple(rng.randint(1, 5, size=1 + trial % 2))
        ishape = (rng.randint(1, 200),) if trial % 3 else (rng.randint(1, 100), 2)
        ids = (rng.zipf(1.5, size=ishape) % rows).astype(np.int32)     # many repeats
        if np.dtype(dtype).kind == "i":
            out = rng.randint(-100, 100, size=shape).astype(dtype)
            upd = rng.randint(-5, 6, size=ids.shape + shape[1:]).astype(dtype)
        else:
            out = (rng.randn(*shape) * 10).astype(dtype)
            upd = rng.randn(*(ids.shape + shape[1:])).astype(dtype)
            if ufunc is np.multiply:
                upd = (1 + upd * 0.01).astype(dtype)
            if trial % 5 == 0:
                upd.flat[::11] = np.nan
                out.flat[::7] = np.inf
                upd.flat[::13] = -0.0
        want, got = out.copy(), out.copy()
        with np.errstate(all="ignore"):
            ufunc.at(want, ids, upd)
            rows_at(ufunc, got, ids, upd)
        assert want.tobytes() == got.tobytes(), (trial, shape, ishape)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply], ids=lambda u: u.__name__)
def test_rows_at_long_runs_of_one_row_fold_in_order(ufunc):
    # 5000 updates of one row: a pairwise sum would round differently from the sequential one
    rng = np.random.RandomState(0)
    upd = (1 + rng.rand(5000, 16) * 1e-4).astype(np.float32)
    ids = np.zeros(5000, np.int32)
    ids[::3] = 2
    want, got = np.ones((3, 16), np.float32), np.ones((3, 16), np.float32)
    ufunc.at(want, ids, upd)
    rows_at(ufunc, got, ids, upd)
    assert want.tobytes() == got.tobytes()
    if ufunc is np.add:
        seq = np.ones(16, np.float32)
        for u in upd[ids == 0]:
            seq = seq + u
        assert seq.tobytes() == got[0].tobytes()


def test_scatter_sub_with_repeated_ids_applies_updates_in_order():
    rng = np.random.RandomState(1)
    init = rng.randn(50, 8).astype(np.float32)
    ids = rng.zipf(1.3, size=300) % 50
    upd = rng.randn(300, 8).astype(np.float32)
    with tf.Graph().as_default():
        v = tf.Variable(init)
        out = tf.scatter_sub(v, tf.constant(ids, tf.int32), tf.constant(upd))
        seg = tf.unsorted_segment_sum(tf.constant(upd), tf.constant(ids, tf.int32), 50)
        with tf.Session() as sess:
            sess.run(v.initializer)
            got, got_seg = sess.run([out, seg])
    want = init.copy()
    want_seg = np.zeros_like(init)
    for i, u in zip(ids, upd):
        want[i] = want[i] - u
        want_seg[i] = want_seg[i] + u
    assert got.tobytes() == want.tobytes()
    assert got_seg.tobytes() == want_seg.tobytes()
