"""Candidate samplers: TF's names, dtypes and shapes (recorded from real TensorFlow 2.21
compat.v1), the expected-count formulas, the sampled distributions, seeds, errors; and
compute_accidental_hits against a reference and TF's recorded output."""

import numpy as np
import pytest

import tensorweave as tf


def _log_uniform_p(c, range_max):
    c = np.asarray(c, np.float64)
    return np.log((c + 2.0) / (c + 1.0)) / np.log(range_max + 1.0)


def test_names_dtypes_shapes():
    tc = tf.constant([[1, 2], [5, 0]], tf.int64)
    s = tf.nn.log_uniform_candidate_sampler(tc, 2, 5, True, 10, seed=3)
    assert type(s).__name__ == "LogUniformCandidateSampler"
    assert s._fields == ("sampled_candidates", "true_expected_count", "sampled_expected_count")
    assert [t.name for t in s] == ["LogUniformCandidateSampler:0", "LogUniformCandidateSampler:1",
                                   "LogUniformCandidateSampler:2"]
    assert [t.dtype for t in s] == [tf.int64, tf.float32, tf.float32]
    assert [t.shape.as_list() for t in s] == [[5], [2, 2], [5]]
    u = tf.nn.uniform_candidate_sampler(tc, 2, 5, False, 10)
    assert u.sampled_candidates.name == "UniformCandidateSampler:0"
    assert tf.random.uniform_candidate_sampler(tc, 2, 5, True, 10)[0].name == "UniformCandidateSampler_1:0"
    assert tf.random.log_uniform_candidate_sampler is tf.nn.log_uniform_candidate_sampler
    ah = tf.nn.compute_accidental_hits(tc, tf.constant([2, 2, 5, 7], tf.int64), 2)
    assert [t.name for t in ah] == ["ComputeAccidentalHits:0", "ComputeAccidentalHits:1", "ComputeAccidentalHits:2"]
    assert [t.dtype for t in ah] == [tf.int32, tf.int64, tf.float32]
    assert [t.shape.as_list() for t in ah] == [[None]] * 3


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("kind", ["log_uniform", "uniform"])
def test_expected_counts_follow_tf_formulas(kind, unique):
    range_max, num_sampled = 50, 20
    true = np.array([[0, 3], [7, 49], [12, 1]], np.int64)
    fn = getattr(tf.nn, kind + "_candidate_sampler")
    s = fn(tf.constant(true), 2, num_sampled, unique, range_max, seed=1)
    p = _log_uniform_p if kind == "log_uniform" else (lambda c, r: np.full(np.shape(c), 1.0 / r))
    with tf.Session() as sess:
        for _ in range(3):
            cand, te, se = sess.run(s)
            assert cand.dtype == np.int64 and cand.shape == (num_sampled,)
            assert cand.min() >= 0 and cand.max() < range_max
            if not unique:
                np.testing.assert_allclose(te, p(true, range_max) * num_sampled, rtol=1e-6)
                np.testing.assert_allclose(se, p(cand, range_max) * num_sampled, rtol=1e-6)
                continue
            assert len(set(cand.tolist())) == num_sampled
            # expected = 1 - (1 - p)^num_tries for one num_tries >= num_sampled shared by all
            n = np.log1p(-se.astype(np.float64)) / np.log1p(-p(cand, range_max))
            num_tries = int(round(n[0]))
            assert num_tries >= num_sampled
            np.testing.assert_allclose(n, num_tries, rtol=1e-4)
            np.testing.assert_allclose(te, -np.expm1(num_tries * np.log1p(-p(true, range_max))), rtol=1e-5)


def test_tf_recorded_expected_counts():
    # TF: sampled [0, 6, 4, 1, 5] (unique, range 10) gave sampled_expected_count
    # [0.87088406, 0.29091868, 0.37779146, 0.670908, 0.32878873] -- i.e. num_tries = 6.
    p = _log_uniform_p([0, 6, 4, 1, 5], 10)
    np.testing.assert_allclose(-np.expm1(6 * np.log1p(-p)),
                               [0.87088406, 0.29091868, 0.37779146, 0.670908, 0.32878873], rtol=1e-6)


def test_log_uniform_distribution():
    s = tf.nn.log_uniform_candidate_sampler(tf.zeros([1, 1], tf.int64), 1, 20000, False, 10, seed=5)
    with tf.Session() as sess:
        cand = sess.run(s.sampled_candidates)
    freq = np.bincount(cand, minlength=10) / cand.size
    np.testing.assert_allclose(freq, _log_uniform_p(np.arange(10), 10), atol=0.01)


def test_seeds_and_fresh_draws():
    tc = tf.constant([[1]], tf.int64)
    a = tf.nn.uniform_candidate_sampler(tc, 1, 8, True, 1000, seed=7)
    b = tf.nn.uniform_candidate_sampler(tc, 1, 8, True, 1000, seed=7, name="other")
    with tf.Session() as s1:
        first, again = s1.run(a.sampled_candidates), s1.run(a.sampled_candidates)
    with tf.Session() as s2:
        assert s2.run(a.sampled_candidates).tolist() == first.tolist()   # same seed, new session
    assert first.tolist() != again.tolist()                               # the stream moves on
    assert b.sampled_candidates.name == "other:0"


def test_sampler_errors():
    tc = tf.constant([[1, 2]], tf.int64)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Sampler's range is too small"):
            sess.run(tf.nn.uniform_candidate_sampler(tc, 2, 20, True, 10))
    with pytest.raises(TypeError, match="int64"):
        tf.nn.uniform_candidate_sampler(tf.constant([[1]], tf.int32), 1, 2, True, 10)
    with pytest.raises(ValueError):
        tf.nn.uniform_candidate_sampler(tc, 3, 2, True, 10)


def test_compute_accidental_hits():
    true = np.array([[1, 2], [5, 0], [7, 7]], np.int64)
    sampled = np.array([2, 2, 5, 7, 9], np.int64)
    ah = tf.nn.compute_accidental_hits(tf.constant(true), tf.constant(sampled), 2)
    with tf.Session() as sess:
        idx, ids, w = sess.run(ah)
    # each sampled value counts at its last position (TF: [2, 2, 5, 7] hits row 0 at id 1)
    assert idx.tolist() == [0, 1, 2, 2] and ids.tolist() == [1, 2, 3, 3]
    assert (w == -np.finfo(np.float32).max).all()
    with tf.Session() as sess:
        r = sess.run(tf.nn.compute_accidental_hits(tf.constant([[1, 2], [5, 0]], tf.int64),
                                                   tf.constant([2, 2, 5, 7], tf.int64), 2))
    assert r.indices.tolist() == [0, 1] and r.ids.tolist() == [1, 2]     # recorded from TF


# -- TF's random streams: values recorded from real TensorFlow 2.21 compat.v1 -------------------

_TC = [[1, 2], [5, 3], [7, 0]]
_UNIGRAMS = [5., 3, 1, 7, 2, 2, 8, 1, 1, 4]


def test_seeded_samplers_give_tf_values():
    tc1 = tf.constant([[1], [5], [7]], tf.int64)
    u = tf.nn.uniform_candidate_sampler(tc1, 1, 6, True, 20, seed=3)
    lu = tf.nn.log_uniform_candidate_sampler(tc1, 1, 6, False, 50, seed=4)
    with tf.Session() as sess:
        first, second = sess.run(u), sess.run(u)
        lu_out = sess.run(lu)
    assert first.sampled_candidates.tolist() == [15, 0, 3, 8, 17, 14]
    assert second.sampled_candidates.tolist() == [12, 11, 13, 8, 17, 3]
    np.testing.assert_array_equal(second.true_expected_count, np.float32(0.3016627))
    assert lu_out.sampled_candidates.tolist() == [12, 46, 1, 18, 8, 2]
    np.testing.assert_allclose(lu_out.sampled_expected_count, np.array(  # printed to 8 digits
        [0.11308941, 0.03212769, 0.6187433, 0.07827401, 0.16078106, 0.43900532], np.float32), rtol=1e-6)


def test_fixed_unigram_sampler_tf_values():
    tc = tf.constant(_TC, tf.int64)
    s = tf.nn.fixed_unigram_candidate_sampler(tc, 2, 6, True, 10, unigrams=_UNIGRAMS, seed=3)
    assert type(s).__name__ == "FixedUnigramCandidateSampler"
    assert s.sampled_candidates.name == "FixedUnigramCandidateSampler:0"
    with tf.Session() as sess:
        out = sess.run(s)
    assert out.sampled_candidates.tolist() == [3, 0, 6, 2, 4, 9]
    np.testing.assert_allclose(out.true_expected_count, np.array(
        [[0.4761832, 0.18858103], [0.34581974, 0.8008437], [0.18858103, 0.671577]], np.float32), rtol=1e-6)


def test_learned_unigram_sampler_learns_across_runs_like_tf():
    tc = tf.constant(_TC, tf.int64)
    s = tf.nn.learned_unigram_candidate_sampler(tc, 2, 5, True, 10, seed=11)
    with tf.Session() as sess:
        runs = [sess.run(s) for _ in range(2)]
    assert runs[0].sampled_candidates.tolist() == [1, 2, 9, 3, 4]
    np.testing.assert_array_equal(runs[0].sampled_expected_count, np.float32(0.5217031))
    assert runs[1].sampled_candidates.tolist() == [1, 9, 4, 6, 3]  # counts now include the true classes
    np.testing.assert_array_equal(runs[1].sampled_expected_count,
                                  np.array([0.625, 0.3125, 0.3125, 0.3125, 0.625], np.float32))


def test_all_candidate_sampler_and_range_errors():
    tc = tf.constant(_TC, tf.int64)
    a = tf.random.all_candidate_sampler(tc, 2, 8, True, seed=1)
    bad = tf.nn.all_candidate_sampler(tc, 2, 5, True)
    with tf.Session() as sess:
        out = sess.run(a)
        with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
            sess.run(bad)
    assert out.sampled_candidates.tolist() == list(range(8))
    np.testing.assert_array_equal(out.true_expected_count, np.ones((3, 2), np.float32))
    np.testing.assert_array_equal(out.sampled_expected_count, np.ones(8, np.float32))


def test_expected_counts_are_the_c_librarys_bits_on_either_path():
    """_expected_count takes NumPy's loops only where they are the C library's log1pf/expm1f;
    either way its values are libm's, value by value (TF calls those functions)."""
    from tensorweave.kernels.cpu import candidate_sampling as cs
    if cs._LIBM is None:
        return      # (no C library to compare with: the float64 fallback is tested above)
    rng = np.random.RandomState(3)
    p = np.concatenate([rng.rand(3000), 10.0 ** -rng.uniform(1, 9, 3000), [0.5, 1e-30]]).astype(np.float32)
    for tries in (65, 173, 1000):
        want = np.array([-cs._LIBM.expm1f(float(np.float32(tries) * np.float32(cs._LIBM.log1pf(float(-x)))))
                         for x in p], np.float32)
        got = cs._expected_count(p, 64, tries)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
