"""String ops against values, names and errors recorded from TensorFlow 2.21
(`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors
from tensorweave.lib.farmhash import fingerprint64


def run(t, feed=None):
    with tf.Session(graph=t.graph if not isinstance(t, tf.SparseTensor) else t.values.graph) as sess:
        return sess.run(t, feed)


def b(*xs):
    return np.array([x.encode() if isinstance(x, str) else x for x in xs], dtype=object)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def test_as_string_formats_like_tf():
    f = tf.constant([1.5, -2.25, 3e10, 0.1], tf.float32)
    cases = [  # (kwargs, TF's output)
        ({}, ["1.500000", "-2.250000", "30000001024.000000", "0.100000"]),
        ({"precision": 2}, ["1.50", "-2.25", "30000001024.00", "0.10"]),
        ({"scientific": True}, ["1.500000e+00", "-2.250000e+00", "3.000000e+10", "1.000000e-01"]),
        ({"shortest": True}, ["1.5", "-2.25", "3e+10", "0.1"]),
        ({"width": 12, "fill": "0"}, ["00001.500000", "-0002.250000", "30000001024.000000", "00000.100000"]),
        ({"precision": 3, "width": 10}, ["     1.500", "    -2.250", "30000001024.000", "     0.100"]),
    ]
    outs = [tf.as_string(f, **kw) for kw, _ in cases]
    assert [o.name for o in outs[:2]] == ["AsString:0", "AsString_1:0"]
    assert outs[0].dtype == tf.string and outs[0].shape.as_list() == [4]
    with tf.Session() as sess:
        got = sess.run(outs)
    for (kw, want), g in zip(cases, got):
        np.testing.assert_array_equal(g, b(*want), err_msg=str(kw))
        assert g.dtype == object
    ints = tf.constant([1, -22, 333])
    assert list(run(tf.as_string(ints, width=5))) == [b"    1", b"  -22", b"  333"]
    assert list(run(tf.as_string(ints, width=5, fill="0"))) == [b"00001", b"-0022", b"00333"]
    assert list(run(tf.as_string([True, False]))) == [b"true", b"false"]
    assert list(run(tf.as_string(tf.constant([1.5, 2.0], tf.float64), shortest=True))) == [b"1.5", b"2"]
    assert list(run(tf.as_string(tf.constant([np.nan, np.inf, -np.inf])))) == [b"nan", b"inf", b"-inf"]
    assert list(run(tf.as_string(tf.constant([1e-5, 1e16, 123456789.0], tf.float64), shortest=True))) == \
        [b"1e-05", b"1e+16", b"1.23457e+08"]
    assert list(run(tf.as_string(tf.constant([1 + 2j], tf.complex64)))) == [b"(1.000000,2.000000)"]


@pytest.mark.parametrize("kwargs,dtype,msg", [
    ({"precision": 2}, tf.int32, "precision not supported for datatype int32"),
    ({"fill": "ab"}, tf.float32, "Fill string must be one or fewer characters"),
    ({"scientific": True, "shortest": True}, tf.float32, "Cannot select both scientific and shortest notation"),
])
def test_as_string_errors(kwargs, dtype, msg):
    t = tf.as_string(tf.constant([1], dtype), **kwargs)
    with pytest.raises(errors.InvalidArgumentError, match=msg):
        run(t)


def test_string_join_broadcasts_scalars_and_checks_shapes():
    t = tf.string_join(["a", tf.constant(["x", "y"])], separator="-")
    assert t.name == "StringJoin:0" and t.shape.as_list() == [2]
    assert list(run(t)) == [b"a-x", b"a-y"]
    assert list(run(tf.strings.join([["a", "b"], ["c", "d"]]))) == [b"ac", b"bd"]
    assert run(tf.strings.join(["a", "b"], separator=",")) == b"a,b"
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 3"):
        tf.string_join([["a", "b"], ["c", "d", "e"]])
    p, q = tf.placeholder(tf.string, [None]), tf.placeholder(tf.string, [None])
    with pytest.raises(errors.InvalidArgumentError, match=r"Input shapes do not match: \[2\] vs. \[3\]"):
        run(tf.string_join([p, q]), {p: ["a", "b"], q: ["c", "d", "e"]})


def test_reduce_join_axis_order_keepdims_separator():
    m = [["a", "b"], ["c", "d"]]
    t = tf.reduce_join(m)
    assert t.name == "ReduceJoin/ReduceJoin:0" and t.shape.as_list() == []
    assert run(t) == b"abcd"
    assert list(run(tf.reduce_join(m, axis=0))) == [b"ac", b"bd"]
    t = tf.reduce_join(m, axis=1, keep_dims=True, separator="-")
    assert t.shape.as_list() == [2, 1]
    np.testing.assert_array_equal(run(t), np.array([[b"a-b"], [b"c-d"]], dtype=object))
    np.testing.assert_array_equal(run(tf.strings.reduce_join(m, axis=-1, keepdims=True)),
                                  np.array([[b"ab"], [b"cd"]], dtype=object))
    assert run(tf.reduce_join(m, axis=[0, 1], separator=",")) == b"a,c,b,d"  # first axis fastest (TF)
    x = np.array([[["a", "b"], ["c", "d"]], [["e", "f"], ["g", "h"]]])
    assert list(run(tf.reduce_join(x, axis=[2, 0]))) == [b"abef", b"cdgh"]
    assert list(run(tf.reduce_join(x, axis=[0, 2]))) == [b"aebf", b"cgdh"]
    with pytest.raises(ValueError, match="Invalid reduction dimension 3 for input with 3 dimensions"):
        tf.reduce_join(x, axis=3)


def test_length_and_substr_units():
    t = tf.strings.length(["héllo", ""])
    assert t.name == "StringLength:0" and t.dtype == tf.int32
    assert list(run(t)) == [6, 0]
    assert list(run(tf.strings.length(["héllo", ""], unit="UTF8_CHAR"))) == [5, 0]
    assert list(run(tf.strings.length([b"\xff\xfe"], unit="UTF8_CHAR"))) == [2]
    with pytest.raises(ValueError, match="Attr 'unit' of 'StringLength' Op passed string 'X'"):
        tf.strings.length(["a"], unit="X")
    t = tf.substr(["hello", "world"], 1, 3)
    assert t.name == "Substr:0" and [i.name for i in t.op.inputs] == ["Substr/input:0", "Substr/pos:0",
                                                                      "Substr/len:0"]
    assert list(run(t)) == [b"ell", b"orl"]
    assert list(run(tf.strings.substr(["héllo"], 1, 2, unit="UTF8_CHAR"))) == ["él".encode()]
    assert list(run(tf.strings.substr(["hello", "world"], [0, 2], [2, 10]))) == [b"he", b"rld"]
    assert run(tf.strings.substr("hello", -3, 2)) == b"ll"
    assert list(run(tf.substr(["hello"], 5, 1))) == [b""]
    with pytest.raises(errors.InvalidArgumentError, match=r"pos 7 out of range for string b'hello' at index 0"):
        run(tf.substr(["hello"], 7, 1))
    with pytest.raises(errors.InvalidArgumentError, match=r"pos -6 out of range"):
        run(tf.substr(["hello"], -6, 1))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):   # (recorded from TF 2.21)
        tf.substr(["hello", "ab"], [1, 2, 3], 1)


def _sp(st):
    v = run(st)
    return v.indices.tolist(), list(v.values), v.dense_shape.tolist()


def test_string_split_v1_sparse():
    st = tf.string_split(["a b  c", "d"])
    assert isinstance(st, tf.SparseTensor)
    assert (st.indices.name, st.values.name, st.dense_shape.name) == \
        ("StringSplit/StringSplit:0", "StringSplit/StringSplit:1", "StringSplit/StringSplit:2")
    assert st.values.dtype == tf.string and st.indices.dtype == tf.int64
    assert _sp(st) == ([[0, 0], [0, 1], [0, 2], [1, 0]], [b"a", b"b", b"c", b"d"], [2, 3])
    assert _sp(tf.string_split(["a,b,,c", "d"], delimiter=",", skip_empty=False)) == \
        ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]], [b"a", b"b", b"", b"c", b"d"], [2, 4])
    assert _sp(tf.string_split(["a b", "cd"], delimiter="")) == \
        ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [b"a", b" ", b"b", b"c", b"d"], [2, 3])
    assert _sp(tf.string_split(["a;b,c"], delimiter=";,"))[1] == [b"a", b"b", b"c"]  # a set of bytes
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.string_split([["a b"]])


def test_strings_split_v1_returns_sparse_and_refuses_ragged():
    st = tf.strings.split(["a b  c", "d"])
    assert st.values.name == "StringSplit/StringSplitV2:1"
    assert _sp(st) == ([[0, 0], [0, 1], [0, 2], [1, 0]], [b"a", b"b", b"c", b"d"], [2, 3])
    assert _sp(tf.strings.split(["a,b,,c", "d"], sep=","))[1] == [b"a", b"b", b"", b"c", b"d"]
    assert _sp(tf.strings.split(["a b c d"], maxsplit=2)) == ([[0, 0], [0, 1], [0, 2]], [b"a", b"b", b"c d"],
                                                              [1, 3])
    with pytest.raises(ValueError, match="result_type must be"):
        tf.strings.split(["a b"], result_type="Dense")


def test_string_to_number():
    t = tf.string_to_number(["1.5", "-2"])
    assert t.name == "StringToNumber:0" and t.dtype == tf.float32
    np.testing.assert_array_equal(run(t), np.array([1.5, -2], np.float32))
    got = run(tf.strings.to_number(["12", "-3", " 5 ", "+5"], out_type=tf.int64))
    assert got.dtype == np.int64 and got.tolist() == [12, -3, 5, 5]
    got = run(tf.strings.to_number(["1e3", " 2.5", "inf", "nan", "0x10", ".5", "1."], out_type=tf.float64))
    np.testing.assert_array_equal(got, [1000, 2.5, np.inf, np.nan, 16, 0.5, 1.0])
    assert run(tf.strings.to_number(["1e40"])).tolist() == [np.inf]
    for s, out_type in [("abc", tf.float32), ("1.5x", tf.int32), ("99999999999", tf.int32), ("1.0", tf.int32),
                        ("", tf.float32), ("1_0", tf.int32), ("1e", tf.float32)]:
        with pytest.raises(errors.InvalidArgumentError,
                           match=f"StringToNumberOp could not correctly convert string: {s}\n"):
            run(tf.strings.to_number(["1", s], out_type=out_type))
    with pytest.raises(TypeError, match="'out_type' has DataType string not in list"):
        tf.string_to_number(["1"], out_type=tf.string)


def test_regex_replace_and_full_match():
    t = tf.regex_replace(["hello world", "aaa"], "a|o", "X")
    assert t.name == "StaticRegexReplace:0"
    assert list(run(t)) == [b"hellX wXrld", b"XXX"]
    assert list(run(tf.strings.regex_replace(["hello world", "aaa"], "a|o", "X", replace_global=False))) == \
        [b"hellX world", b"Xaa"]
    t = tf.strings.regex_replace(["hello world"], tf.constant("(l+)"), "<\\1>")
    assert t.op.type == "RegexReplace"
    assert list(run(t)) == [b"he<ll>o wor<l>d"]
    assert list(run(tf.strings.regex_replace(["abc"], "b", "\\0\\0"))) == [b"abbc"]
    assert list(run(tf.strings.regex_replace(["a.b"], "\\.", "\\\\"))) == [b"a\\b"]
    t = tf.strings.regex_full_match(["abc", "abd", "xabc"], "ab.")
    assert t.name == "StaticRegexFullMatch:0" and t.dtype == tf.bool
    assert run(t).tolist() == [True, True, False]
    assert run(tf.strings.regex_full_match(["abc"], tf.constant("ab."))).tolist() == [True]
    with pytest.raises(errors.InvalidArgumentError, match=r"Invalid pattern: \("):
        run(tf.strings.regex_replace(["abc"], "(", "x"))


def test_strip_case():
    assert tf.strings.strip(["a"]).name == "StringStrip:0"
    assert list(run(tf.strings.strip(["  a b \n", "x"]))) == [b"a b", b"x"]
    assert list(run(tf.strings.lower(["HeLLo"]))) == [b"hello"]
    assert list(run(tf.strings.upper(["HeLLo"]))) == [b"HELLO"]
    assert list(run(tf.strings.lower(["ÀB"]))) == ["Àb".encode()]  # ASCII only by default (TF)
    assert list(run(tf.strings.lower(["ÀB"], encoding="utf-8"))) == ["àb".encode()]


def test_hash_bucket_fast_is_tf_fingerprint64():
    t = tf.string_to_hash_bucket_fast(["hello", "world", "", "a" * 100], 1000)
    assert t.name == "StringToHashBucketFast:0" and t.dtype == tf.int64
    assert run(t).tolist() == [296, 598, 263, 618]  # TF's values
    assert run(tf.strings.to_hash_bucket_fast(["hello"], 10)).tolist() == [6]
    # Fingerprint64 itself, every length branch, against TF's buckets mod 2**63 - 1.
    nb = (1 << 63) - 1
    want = {0: 1936946117179621456, 1: 8054779267362739308, 17: 5208358686242071065,  # TF's
            40: 58919849639078125, 65: 1015004244932328761, 200: 9096950473068486530}
    rng = np.random.RandomState(0)
    strs = {n: bytes(rng.randint(0, 256, size=n).astype(np.uint8)) for n in range(201)}
    got = {n: fingerprint64(strs[n]) % nb for n in want}
    assert got == want
    with pytest.raises(ValueError, match="less than minimum 1"):
        tf.string_to_hash_bucket_fast(["a"], 0)


def test_legacy_hash_bucket_and_strong_are_tf_bit_exact():
    from tensorweave.kernels.cpu.string import hash64, siphash24
    s = ["", "a", "hello", "abcdefgh", "abcdefghijklmnopq", "\xff\x80xyz"]
    t = tf.string_to_hash_bucket(s, 1000)
    u = tf.strings.to_hash_bucket(input=s, num_buckets=1000)
    v = tf.string_to_hash_bucket_strong(s, 1000, key=[0x0706050403020100, 0x0f0e0d0c0b0a0908])
    w = tf.strings.to_hash_bucket_strong(s, 2 ** 62, [1, 2])
    # names and values recorded from TF 2.21
    assert [x.name for x in (t, u, v, w)] == ["StringToHashBucket:0", "StringToHashBucket_1:0",
                                              "StringToHashBucketStrong:0", "StringToHashBucketStrong_1:0"]
    assert t.dtype == tf.int64 and v.dtype == tf.int64
    assert run(t).tolist() == [899, 868, 938, 306, 845, 906]
    assert run(u).tolist() == [899, 868, 938, 306, 845, 906]
    assert run(v).tolist() == [353, 994, 937, 632, 506, 205]
    assert run(w).tolist() == [x for x in [443797209252341627, 546566331822570742, 2957200328589801622,
                                                  2649018002260510108, 2589293315738655589, 2965681896658129826]]
    # every tail length, against TF's buckets mod 2**63 - 1 (TF 2.21)
    nb = (1 << 63) - 1
    rng = np.random.RandomState(0)
    strs = [bytes(rng.randint(0, 256, size=n).astype(np.uint8)) for n in range(101)]
    want_h = {0: 105434511174508092, 1: 8626537984497469035, 7: 4385009259555837130, 8: 4211249728530117993,
              9: 2314577512505880787, 15: 1509700804720640074, 16: 4035873757396003088,
              23: 3808494782150675411, 100: 3806844220311208020}
    want_s = {0: 2485238625977559269, 1: 8315209550265452412, 7: 2883361475354534734, 8: 7016484734170076293,
              9: 574549212722724484, 15: 5528798716377312801, 16: 3173081982391912959,
              23: 8594444873767333719, 100: 3124364348548343222}
    assert {n: hash64(strs[n]) % nb for n in want_h} == want_h
    assert {n: siphash24(123456789, (-5) & ((1 << 64) - 1), strs[n]) % nb for n in want_s} == want_s
    got = run(tf.string_to_hash_bucket_strong([strs[n] for n in want_s], nb, key=[123456789, -5]))
    assert got.tolist() == list(want_s.values())
    with pytest.raises(ValueError, match="less than minimum 1"):
        tf.string_to_hash_bucket(["a"], 0)
    with pytest.raises(ValueError, match="less than minimum 1"):
        tf.string_to_hash_bucket_strong(["a"], 0, key=[1, 2])
    with pytest.raises(TypeError):
        tf.string_to_hash_bucket(tf.constant([1]), 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Key must have 2 elements"):
        run(tf.string_to_hash_bucket_strong(["a"], 10, key=[1]))


def test_string_format_and_not_differentiable():
    t = tf.strings.format("x={} y={}", [tf.constant(1), tf.constant([1.5, 2.0])])
    assert t.name == "StringFormat:0"
    assert run(t) == b"x=1 y=[1.5 2]"
    x = tf.constant([1.0])
    assert tf.gradients(tf.string_to_number(tf.as_string(x)), x) == [None]


def test_graph_def_round_trip_keeps_output_dtypes():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1.5, 2.0])
        s = tf.as_string(x, precision=1)
        outs = [tf.strings.length(s), tf.string_to_hash_bucket_fast(s, 7), tf.strings.regex_full_match(s, "1.*"),
                tf.substr(s, 0, 1)]
        sp = tf.string_split(s, delimiter=".")
    with tf.Graph().as_default() as g2:
        names = [t.name for t in outs] + [sp.indices.name, sp.values.name]
        got = tf.import_graph_def(g.as_graph_def(), return_elements=names, name="")
        assert [t.dtype for t in got] == [tf.int32, tf.int64, tf.bool, tf.string, tf.int64, tf.string]
        with tf.Session(graph=g2) as sess:
            vals = sess.run(got)
    assert vals[0].tolist() == [3, 3] and vals[2].tolist() == [True, False]
    assert list(vals[5]) == [b"1", b"5", b"2", b"0"]
