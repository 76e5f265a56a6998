"""tf.io.gfile's TF2 functions, tf.random.split / fold_in, and the small TF1 API extras.

Values and messages marked "TF 2.21" were recorded by running the same calls under
tensorflow.compat.v1 in graph mode."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


def test_io_gfile_round_trip_and_errors(tmp_path):
    g, d = tf.io.gfile, str(tmp_path)
    g.makedirs(d + "/b/c/d")
    g.makedirs(d + "/b/c/d")                         # existing: fine
    g.mkdir(d + "/a")
    with pytest.raises(tf.errors.NotFoundError, match="x/y; No such file or directory"):
        g.mkdir(d + "/x/y")
    with g.GFile(d + "/a/f.txt", "w") as f:
        f.write("hello\nworld\n")
    with pytest.raises(tf.errors.FailedPreconditionError, match="is not a directory"):
        g.makedirs(d + "/a/f.txt")
    assert g.isdir(d + "/a") and not g.isdir(d + "/a/f.txt") and g.exists(d + "/a/f.txt")
    assert sorted(g.listdir(d)) == ["a", "b"]
    with pytest.raises(tf.errors.NotFoundError, match="Could not find directory"):
        g.listdir(d + "/nope")
    assert sorted(g.glob(d + "/*/*")) == [d + "/a/f.txt", d + "/b/c"]
    assert g.glob(d + "/nope/*") == []
    st = g.stat(d + "/a/f.txt")
    assert (type(st).__name__, st.length, st.is_directory) == ("FileStatistics", 12, False)
    assert st.mtime_nsec % 1000000000 == 0           # TF's POSIX stat: whole seconds
    g.copy(d + "/a/f.txt", d + "/a/g.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        g.copy(d + "/a/f.txt", d + "/a/g.txt")
    g.rename(d + "/a/g.txt", d + "/a/h.txt")
    g.remove(d + "/a/h.txt")
    with pytest.raises(tf.errors.NotFoundError):
        g.remove(d + "/a/h.txt")
    with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
        g.remove(d + "/b")
    walk = sorted((t[len(d):], sorted(s), f) for t, s, f in g.walk(d))
    assert walk == [("", ["a", "b"], []), ("/a", [], ["f.txt"]), ("/b", ["c"], []), ("/b/c", ["d"], []),
                    ("/b/c/d", [], [])]
    assert [t for t, _, _ in g.walk(d, topdown=False)][-1] == d
    assert list(g.walk(d + "/nope")) == []
    assert g.join("gs://bucket", "x") == "gs://bucket/x" and g.join("a", "b") == "a/b"
    g.rmtree(d + "/b")
    with pytest.raises(tf.errors.NotFoundError, match="not found"):
        g.rmtree(d + "/b")


def test_gfile_is_lazy_and_checks_modes(tmp_path):
    p = str(tmp_path / "f.txt")
    missing = tf.io.gfile.GFile(str(tmp_path / "missing"))     # TF opens on first use
    with pytest.raises(tf.errors.NotFoundError):
        missing.read()
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.gfile.GFile(p, "q")
    with tf.io.gfile.GFile(p, "w") as f:
        f.write(b"abc")
        f.write("d\u00e9f\n")
        assert f.tell() == 8
    with tf.io.gfile.GFile(p) as f:
        assert (f.read(4), f.tell(), f.readline(), f.readline()) == ("abcd", 4, "\u00e9f\n", "")
        f.seek(0)
        assert f.readlines() == ["abcd\u00e9f\n"]
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        tf.io.gfile.GFile(p).write("x")
    with pytest.raises(TypeError):
        tf.io.gfile.GFile(p, "a").write(1)


def test_split_and_fold_in_equal_tf():
    s = tf.random.split([1, 2])
    f = tf.random.fold_in([1, 2], 7)
    s64 = tf.random.split(tf.constant([3, 4], tf.int64), num=3)
    assert (s.name, s.shape.as_list(), f.name) == ("stateless_random_uniform:0", [2, 2], "stack:0")
    assert s.op.type == "StatelessRandomUniformFullIntV2"
    with tf.Session() as sess:
        sv, fv, s64v = sess.run([s, f, s64])
        full32 = sess.run(tf.random.stateless_uniform([4], seed=[5, 6], minval=None, maxval=None, dtype=tf.int32))
    # TF 2.21
    np.testing.assert_array_equal(sv, [[1105988140, 1738052849], [-335576002, 370444179]])
    np.testing.assert_array_equal(fv, [1105988140, 7])
    np.testing.assert_array_equal(s64v[0], [-2882898006462487541, 4520458231610095266])
    np.testing.assert_array_equal(full32, [-180254357, -1901470197, 1629830848, -1475124591])
    assert [a.value for a in tf.random.Algorithm] == [1, 2, 3]


def test_type_spec_from_value_and_misc():
    x = tf.placeholder(tf.float32, [None, 3])
    # TF 2.21 reprs
    assert str(tf.type_spec_from_value(x)) == "TensorSpec(shape=(?, 3), dtype=tf.float32, name=None)"
    assert str(tf.type_spec_from_value(3)) == "TensorSpec(shape=(), dtype=tf.int32, name=None)"
    assert str(tf.type_spec_from_value(None)) == "NoneTensorSpec()"
    with pytest.raises(TypeError, match="Could not build a TypeSpec for {'a': 1} of unsupported type"):
        tf.type_spec_from_value({"a": 1})
    assert tf.OpError is tf.errors.OpError
    with tf.errors.raise_exception_on_not_ok_status() as status:
        assert type(status).__name__ == "TF_Status"
    with pytest.raises(NotImplementedError):
        tf.logging.flush()
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    assert not tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()


def test_grad_pass_through_is_straight_through():
    y = tf.placeholder(tf.float32, [3])
    z = tf.grad_pass_through(tf.round)(y * 2.0)
    g = tf.gradients(z, y)[0]
    with tf.Session() as sess:
        zv, gv = sess.run([z, g], {y: [0.2, 0.7, 1.4]})
    # TF 2.21: round's forward values, the multiply's gradient passed straight through
    np.testing.assert_array_equal(zv, [0., 1., 3.])
    np.testing.assert_array_equal(gv, [2., 2., 2.])

