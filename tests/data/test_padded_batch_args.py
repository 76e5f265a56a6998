"""padded_batch's argument handling, unbatch of scalars and a map returning nothing, as in TF.

Expected shapes and messages recorded from TF 2.21 (`tensorflow.compat.v1`, v2 behaviour
disabled).
"""

import numpy as np
import pytest

import tensorweave as tf

D = tf.data.Dataset


def _fill():
    return D.range(3).map(lambda x: tf.fill([x], x))


def _run(ds):
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


def test_padded_shapes_as_tensors_and_minus_one():
    assert str(_fill().padded_batch(2, padded_shapes=[-1]).output_shapes) == "(?, ?)"
    assert str(_fill().padded_batch(2, padded_shapes=5).output_shapes) == "(?, 5)"
    four = _fill().padded_batch(2, padded_shapes=tf.constant([4], tf.int64))
    assert str(four.output_shapes) == "(?, 4)"
    assert [b.tolist() for b in _run(four)] == [[[0, 0, 0, 0], [1, 0, 0, 0]], [[2, 2, 0, 0]]]
    assert str(_fill().padded_batch(2, padded_shapes=tf.placeholder(tf.int64, [1])).output_shapes) == "(?, ?)"
    assert str(_fill().padded_batch(2, padded_shapes=tf.placeholder(tf.int64)).output_shapes) == "<unknown>"
    with pytest.raises(TypeError, match=r"must be a `tf.int64` vector tensor, but its element type was float32"):
        _fill().padded_batch(2, padded_shapes=tf.constant([4.]))
    with pytest.raises(ValueError, match=r"must be a `tf.int64` vector tensor, but its shape was \(1, 1\)"):
        _fill().padded_batch(2, padded_shapes=tf.constant([[4]], tf.int64))
    with pytest.raises(ValueError, match="Padded shape x must be a `tf.int64` vector tensor, but its shape was"):
        _fill().padded_batch(2, padded_shapes="x")
    with pytest.raises(ValueError, match="because component 0 has unknown rank"):
        D.from_generator(lambda: iter([[1]]), tf.int64).padded_batch(2)


def test_padded_shapes_structure_must_match():
    pair = D.from_tensors((np.int64(1), [1., 2.]))
    with pytest.raises(TypeError, match="If shallow structure is a sequence, input must also be a sequence. "
                                        "Input has type: 'list'."):
        pair.padded_batch(2, padded_shapes=[3])
    with pytest.raises(ValueError, match="Input structure has length 1, while shallow structure has length 2."):
        pair.padded_batch(2, padded_shapes=([],))
    with pytest.raises(ValueError, match="Input structure has length 1, while shallow structure has length 2."):
        D.from_tensors({"a": [1, 2], "b": 3.0}).padded_batch(2, padded_shapes={"a": [5]})


def test_padding_values_types_and_structure():
    pair = D.from_tensors((np.int64(1), [1., 2.]))
    mismatch = "`padding_values` values type <dtype: '{}'> does not match type <dtype: '{}'>"
    with pytest.raises(TypeError, match=mismatch.format("int32", "int64")):
        _fill().padded_batch(2, padding_values=0)  # (a Python int is int32: no conversion, as in TF)
    with pytest.raises(TypeError, match=mismatch.format("float32", "int64")):
        _fill().padded_batch(2, padding_values=1.5)
    with pytest.raises(TypeError, match=mismatch.format("int32", "int64")):
        _fill().padded_batch(2, padding_values=tf.constant(5))
    with pytest.raises(TypeError, match=mismatch.format("int64", "float32")):
        pair.padded_batch(2, padding_values=np.int64(1))
    with pytest.raises(ValueError, match=r"values should be scalars, but got \(2,\)"):
        _fill().padded_batch(2, padding_values=np.array([1, 2], np.int64))
    with pytest.raises(ValueError, match="Input structure has length 2, while shallow structure has length 1."):
        pair.padded_batch(2, padding_values=(np.int64(1),))
    with pytest.raises(TypeError, match="Input structure has type 'tuple', while shallow structure has type 'dict'"):
        pair.padded_batch(2, padding_values={"a": 1})
    assert pair.padded_batch(2, padding_values=(None, 2.0)).output_shapes[1].as_list() == [None, 2]
    assert [b.tolist() for b in _run(_fill().padded_batch(2, padding_values=tf.constant(5, tf.int64)))] == \
        [[[5], [1]], [[2, 2]]]


def test_string_padding_is_bytes():
    strings = D.range(4).map(lambda x: tf.fill([x], tf.as_string(x)))
    out = _run(strings.padded_batch(2, padding_values="pad"))
    assert out[0].tolist() == [[b"pad"], [b"1"]]
    assert out[1].tolist() == [[b"2", b"2", b"pad"], [b"3", b"3", b"3"]]
    assert _run(strings.padded_batch(2))[0].tolist() == [[b""], [b"1"]]


def test_unbatch_scalars_and_empty_map():
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        D.range(3).unbatch()
    with pytest.raises(ValueError, match="Attr 'output_types' of 'MapDataset' Op passed list of length 0"):
        D.range(3).map(lambda x: None)
    with pytest.raises(ValueError, match="of 'ParallelMapDatasetV2' Op passed list of length 0"):
        D.range(3).map(lambda x: (), num_parallel_calls=2)
