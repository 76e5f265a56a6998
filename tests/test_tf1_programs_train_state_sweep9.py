"""TF1 training programs and variable/state handling, sweep 9: optimizers, schedules, moving
averages, variable scopes, initializers and savers run against TF.

Every expected value was recorded from TF 2.21 (tensorflow.compat.v1, CPU) running the same
program; float results are compared as float32 bit patterns.
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import x86_approx
from tensorweave.ops import training_ops as T


def _hex(a):
    return np.asarray(a).tobytes().hex()


def test_ftrl_power_is_eigens_packet_pow_then_glibc_powf():
    # lr_power != -0.5: TF raises the accumulators with Eigen's packet pow (8 lanes) and glibc's
    # powf on the tail; NumPy's float32 power differs in the last bit, magnified by FTRL
    x = np.linspace(0.05, 3.0, 11).astype(np.float32)
    with tf.Graph().as_default():
        var = tf.Variable(np.sin(x * 7).astype(np.float32))
        acc = tf.Variable(x)
        lin = tf.Variable(np.cos(x * 5).astype(np.float32))
        op = T.apply_ftrl(var, acc, lin, np.tan(x).astype(np.float32), np.float32(0.1),
                          np.float32(0.01), np.float32(0.02), np.float32(-0.3))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(op)
            assert _hex(s.run(var)) == ("d6a372be9d55083d6bf00fbe43a8c6bcc6ed073e400c90bfa52f953e0089993e"
                                        "84e495bd9021a8bb0a3d863d")
            assert _hex(s.run(lin)) == ("16937f3f7c098ebe14c5bf3fe32eae3e423326c079598f420ad5dbc0d0c39ac0"
                                        "f8a7863fb0dda53d3b026dbf")


def test_sparse_ftrl_power_per_row():
    want = {
        9: ("8057093e7cccd33ea6bc273f70d1563fb580713f4df8703faf62383f2244e73ea6d04b3e56312abea708f6be"
            "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797beb999c13c0737f43b2cba833af05ae13b"
            "967cc23c9fbe3c3dad94833d80b9843d6200003d148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
            "72b271bfd7a248bfd85c09bf",
            "79a446c060bf5cc16b120cc2ad6abbc21d3563c44f252bc3c6a746c2ab4294c1e792b9c027d617bfb7a241bf"
            "80db61bf89e876bf45bf7fbfc9ef7bbf55aa6bbff2bc4fbf368929bf004ec3bebc2007be3cdedebc660b09be"
            "cfd1ecbe9da872bf262db6bf30ffc9bf834c5dbf22717f3fdbdb7c3ff1c46d3f72eb523f50a32d3f4489ff3e"
            "5f28973ef2359d3df6fd14be"),
        1: ("e418513e951f5fbfe9131abdd85c09bf", "98fd86c17b3571bf2818323ff6fd14be"),
    }
    for inner, (want_var, want_lin) in want.items():
        with tf.Graph().as_default():
            a = np.linspace(0.1, 4.0, 4 * inner).astype(np.float32).reshape(4, inner)
            var = tf.Variable(np.sin(a * 3))
            acc = tf.Variable(a)
            lin = tf.Variable(np.cos(a * 2))
            op = T.sparse_apply_ftrl(var, acc, lin, np.tan(a[:2]).astype(np.float32),
                                     np.array([2, 0], np.int32), np.float32(0.1), np.float32(0.01),
                                     np.float32(0.02), np.float32(-0.6))
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                s.run(op)
                assert _hex(s.run(var)) == want_var
                assert _hex(s.run(lin)) == want_lin


# TF's rsqrt packets start from the CPU's rsqrtps, whose bits differ between CPU makers: these
# were recorded on an AMD EPYC, and are checked where this CPU's tf.rsqrt of 8 values matches.
RSQRT_GATE = "e8b1e93f6a52643f9a092c3f65c00f3f79fbfb3e1e09e33ed447d03e8f84c13e"
RSQRT_WANT = {
    "adagrad": [
        ("ce61a43efdb41c3f944785bfb8b1353e606f223f304286bfc4e0883e43385c3fe5175ebfa3ace63d9a48583f"),
        ("9e0e573d9cc3f23e50e0983f9d563140dce6124191d4ee4354148a415c0f9b4060d34d40260e3b40ea4c4140"),
    ],
    "proximal_adagrad": [
        ("9abea03ee8e11b3f52eb84bf9cdc343e553e223f8b3d86bf5fb0883e56e75b3f0fb45dbf5135e53d49e3573f"),
        ("9e0e573d9cc3f23e50e0983f9d563140dce6124191d4ee4354148a415c0f9b4060d34d40260e3b40ea4c4140"),
    ],
    "adadelta": [
        ("243584bdb2febfbe3d5f1bc069fdd7bfd3f601c01a9299c0cc682740ea21ef3fffa3e0be783b853edf255b3f"),
        ("8058393da296a53eb2a5213f3036833f3479f33fbff14342c6a54b40cd4c0b407df90f4097331d4017ee2c40"),
        ("cddc2d409db82240605b18400e111240f78519409cb436402217da3f0174753f8b53193fb68aa03e5879383d"),
    ],
    "sparse_adagrad": [
        ("f07e493e6ef2fc3e539e393f8e5d5d3f18d7653f79a1823f1420573fdc97133f15f9833e56312abea708f6be"
         "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797bec69edd3cd400b13e8bee1f3f1c13553f"
         "d4d0713f12be723ff684573f14ed223f091cb53e148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
         "72b271bfd7a248bfd85c09bf"),
        ("c17d8040d17aed406c788241a7ff5e42c00cfd44ea52fb420c94c74105d227410737bd406c2a8d3fb76d9b3f"
         "01b1a93f4cf4b73f9737c63fe17ad43f2cbee23f7601f13fc144ff3ff668074075d8104038311c409ced2940"
         "bae33a40248550403e636d40052b8b40f7a9aa40d6f246407b144e4020365540c5575c406b796340109b6a40"
         "b5bc71405bde784000008040"),
    ],
    "sparse_adadelta": [
        ("506c97c09f8d8ec025888fc05c9a96c0cc9d9ec0a3c8da40d228c540c720a34093fe7b4056312abea708f6be"
         "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797be9b5c2ebd495c453e3df3c23ee78bf93e"
         "cc89f83efa9cb63e786cbd3de2899dbe1b4157bf148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
         "72b271bfd7a248bfd85c09bf"),
        ("c78bf63ed048693f31d0f13f4584bd4061e04a4378785141770347404c5ee03f5235b13f6c2a8d3fb76d9b3f"
         "01b1a93f4cf4b73f9737c63fe17ad43f2cbee23f7601f13fc144ff3f07b5f23f9400004092d70640bbeb0d40"
         "75521540b7301d403ec8254009952f4025963b40d6f246407b144e4020365540c5575c406b796340109b6a40"
         "b5bc71405bde784000008040"),
        ("b768aa407a42ae406427ba40070eca4044d3d7408893d9407ac3ca40c233b440e1b3a04006c40640abe50d40"
         "50071540f6281c409b4a2340406c2a40e68d31408baf384030d13f40883f7e3f653e8c3fb09f993fec57a73f"
         "2887b53fba61c43f8840d43f7ac2e53f5316fa3fcdcccc3dbb80583e884da53eb25ade3eeeb30b3f843a283f"
         "19c1443fae47613f43ce7d3f"),
    ],
    "sparse_rms_prop": [
        ("56076cbe80d89a3dba42a43e0ed9f53e39f1093fd24b0e3f3815d23eba1d3e3ef2f8b4bd56312abea708f6be"
         "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797bedc82933e48db283fafcc7c3f92aa9e3f"
         "2c1fb23f6c04b73fe025ad3f84de953f13e1673f148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
         "72b271bfd7a248bfd85c09bf"),
        ("c78bf63ed048693f31d0f13f4584bd4061e04a4378785141770347404c5ee03f5235b13f6c2a8d3fb76d9b3f"
         "01b1a93f4cf4b73f9737c63fe17ad43f2cbee23f7601f13fc144ff3f07b5f23f9400004092d70640bbeb0d40"
         "75521540b7301d403ec8254009952f4025963b40d6f246407b144e4020365540c5575c406b796340109b6a40"
         "b5bc71405bde784000008040"),
        ("0ca9063fb959043f5ed5003f1ae2f73e2efdea3e5eddba3e38c3a93e8a1f973e5881823ec4efe63ef7b0b23e"
         "9075783e3d74083e130db63c6672b6bd67124cbecb319dbe4367d2bed12082beb26799be3ec5aebe25f1c1be"
         "7ca9d2be0bb3e0be2ed9ebbefeecf3be4cc3f8be46dc7fbfa8367fbfa9667bbf657874bfdc816abfb4a25dbf"
         "ca034ebfb4d63bbf305527bf"),
    ],
    "sparse_centered_rms_prop": [
        ("6a6b6dbe380a983d5a7aa33e33f8f43ee47e093f8ba80e3fe482d23e267d3e3e8eb9b4bd56312abea708f6be"
         "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797bed781933e0bda283f85ca7c3fe7a89e3f"
         "c01cb23f0601b73f2721ad3fefd7953f64ce673f148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
         "72b271bfd7a248bfd85c09bf"),
        ("62d6533e6438933e5a96db3e7a67483fe9879140758a87bf1e58d8beac516cbeb9cc07be7adde13d8baff83d"
         "cec0073ed729133edf921e3ee7fb293ef064353ef8cd403e01374c3e40564c3e874f623e45dc783ec62e883e"
         "e2a8943e0835a23e2b58b13e96e8c23e345dd83eab289f3e2fdda43eb391aa3e3746b03ebcfab53e40afbb3e"
         "c463c13e4918c73ecdcccc3e"),
        ("c78bf63ed048693f31d0f13f4584bd4061e04a4378785141770347404c5ee03f5235b13f6c2a8d3fb76d9b3f"
         "01b1a93f4cf4b73f9737c63fe17ad43f2cbee23f7601f13fc144ff3f07b5f23f9400004092d70640bbeb0d40"
         "75521540b7301d403ec8254009952f4025963b40d6f246407b144e4020365540c5575c406b796340109b6a40"
         "b5bc71405bde784000008040"),
        ("1102073f82b3043f8e39013ff5c2f83ed8e1eb3eec23ba3e8c55a93ed4ef963e7f71823ec4efe63ef7b0b23e"
         "9075783e3d74083e130db63c6672b6bd67124cbecb319dbe4367d2becc1f82be386599beeac0aebe79eac1be"
         "cf9fd2be71a5e0be49c6ebbea9d2f3beef9df8be46dc7fbfa8367fbfa9667bbf657874bfdc816abfb4a25dbf"
         "ca034ebfb4d63bbf305527bf"),
    ],
    "sparse_proximal_adagrad": [
        ("d0c8483ed892fc3e9676393f9b455d3f05d3653f9698823febfc563f526c133f76a7833e56312abea708f6be"
         "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797be17b1d73ca96db03e4d901f3f12a8543f"
         "2762713f0655723fbc29573fb8a5223f35bbb43e148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
         "72b271bfd7a248bfd85c09bf"),
        ("c17d8040d17aed406c788241a7ff5e42c00cfd44ea52fb420c94c74105d227410737bd406c2a8d3fb76d9b3f"
         "01b1a93f4cf4b73f9737c63fe17ad43f2cbee23f7601f13fc144ff3ff668074075d8104038311c409ced2940"
         "bae33a40248550403e636d40052b8b40f7a9aa40d6f246407b144e4020365540c5575c406b796340109b6a40"
         "b5bc71405bde784000008040"),
    ],
}


def _rsqrt_matches_recording():
    gate = np.linspace(0.3, 7.0, 8).astype(np.float32)
    return x86_approx.available() and x86_approx.rsqrt(gate).tobytes().hex() == RSQRT_GATE


def _rsqrt_programs():
    f = np.float32
    x = np.linspace(0.05, 3.0, 11).astype(f)      # one packet and a 3-element tail
    g = np.tan(x).astype(f)
    a = np.linspace(0.1, 4.0, 36).astype(f).reshape(4, 9)    # rows: a packet and a tail each
    gr = np.tan(a[:2]).astype(f)
    idx = np.array([2, 0], np.int32)
    v, va = np.sin(x * 7).astype(f), np.sin(a * 3)
    return {
        "adagrad": (lambda v, a: T.apply_adagrad(v, a, f(0.1), g), v, x),
        "proximal_adagrad": (lambda v, a: T.apply_proximal_adagrad(v, a, f(0.1), f(0.01), f(0.02), g), v, x),
        "adadelta": (lambda v, a, u: T.apply_adadelta(v, a, u, f(1.0), f(0.9), f(1e-6), g), v, x,
                     x[::-1].copy()),
        "sparse_adagrad": (lambda v, acc: T.sparse_apply_adagrad(v, acc, f(0.1), gr, idx), va, a),
        "sparse_adadelta": (lambda v, acc, u: T.sparse_apply_adadelta(v, acc, u, f(1.0), f(0.9), f(1e-6),
                                                                      gr, idx), va, a, a[::-1].copy()),
        "sparse_rms_prop": (lambda v, ms, mom: T.sparse_apply_rms_prop(v, ms, mom, f(0.01), f(0.9), f(0.5),
                                                                       f(1e-6), gr, idx), va, a, np.cos(a)),
        "sparse_centered_rms_prop": (
            lambda v, mg, ms, mom: T.sparse_apply_centered_rms_prop(v, mg, ms, mom, f(0.01), f(0.9), f(0.5),
                                                                    f(1e-6), gr, idx),
            va, a * f(0.1), a, np.cos(a)),
        "sparse_proximal_adagrad": (lambda v, acc: T.sparse_apply_proximal_adagrad(
            v, acc, f(0.1), f(0.01), f(0.02), gr, idx), va, a),
    }


@pytest.mark.skipif(not _rsqrt_matches_recording(), reason="needs the recording CPU's rsqrtps")
@pytest.mark.parametrize("name", sorted(RSQRT_WANT))
def test_training_kernels_take_rsqrt_from_the_cpus_approximation(name):
    # (grad * lr) * accum.rsqrt() and friends: packets use rsqrtps plus a Newton step, as TF
    make, *vals = _rsqrt_programs()[name]
    with tf.Graph().as_default():
        vs = [tf.Variable(v) for v in vals]
        op = make(*vs)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(op)
            assert [_hex(s.run(v)) for v in vs] == RSQRT_WANT[name]


def _make_v1():
    return tf.get_variable("v1", [2, 3])


def test_variable_exists_error_lists_the_creating_frames_innermost_first():
    with tf.Graph().as_default():
        _make_v1()
        try:
            _make_v1()
        except ValueError as e:
            msg = str(e)
    head = ("Variable v1 already exists, disallowed. Did you mean to set reuse=True or "
            "reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n")
    assert msg.startswith(head)
    frames = msg[len(head):].splitlines()
    # (TF: '  File ".../p14.py", line 7, in make' then the caller's frame, no source lines)
    assert frames[0].endswith(", in _make_v1") and frames[1].endswith(
        ", in test_variable_exists_error_lists_the_creating_frames_innermost_first")
    assert all(f.startswith('  File "') for f in frames) and len(frames) <= 5


def test_count_up_to_on_a_resource_variable_is_resource_count_up_to():
    with tf.Graph().as_default():
        c = tf.Variable(0, name="cnt", use_resource=True)
        c64 = tf.get_variable("c64", [], dtype=tf.int64, initializer=tf.zeros_initializer(), use_resource=True)
        cf = tf.Variable(0.0, name="cf", use_resource=True)
        cv = tf.Variable([0, 1], name="cv", use_resource=True)
        up = tf.count_up_to(c, 2)
        up64 = tf.count_up_to(c64, 1, name="myup")
        assert (up.name, up.dtype, up.shape.as_list(), up.op.type) == ("ResourceCountUpTo:0", tf.int32, [],
                                                                       "ResourceCountUpTo")
        assert up.op.get_attr("limit") == 2 and [i.name for i in up.op.inputs] == ["cnt:0"]
        assert (up64.name, up64.dtype) == ("myup:0", tf.int64)
        with pytest.raises(TypeError) as e:
            tf.count_up_to(cf, 2)
        assert str(e.value) == ("Value passed to parameter 'T' has DataType float32 not in list of allowed "
                                "values: int32, int64")
        with pytest.raises(ValueError) as e:
            tf.count_up_to(cv, 2)
        # (the failed float32 call took the name ResourceCountUpTo_1)
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node ResourceCountUpTo_2}} = "
                                "ResourceCountUpTo[T=DT_INT32, limit=2](cv)' with input shapes: [].")
        with tf.Session() as s:
            with pytest.raises(tf.errors.NotFoundError) as e:
                s.run(up)
            assert "Container localhost does not exist. (Could not find resource: localhost/cnt)" in str(e.value)
            s.run(tf.global_variables_initializer())
            assert (s.run(up), s.run(c), s.run(up64)) == (0, 1, 0)
            with pytest.raises(tf.errors.OutOfRangeError) as e:
                s.run(up64)
            assert "Reached limit of 1" in str(e.value)
            assert s.run(up) == 1
            with pytest.raises(tf.errors.OutOfRangeError) as e:
                s.run(up)
            assert "Reached limit of 2" in str(e.value)
            assert s.run(c) == 2


def test_initialized_value_makes_the_is_variable_initialized_op():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        iv = v.initialized_value()
        assert iv.name == "cond/Merge:0"
        assert tf.get_default_graph().get_operation_by_name("IsVariableInitialized").type == "IsVariableInitialized"
        assert tf.is_variable_initialized(v).name == "IsVariableInitialized_1:0"
        w = tf.Variable(iv * 2, name="w")
        with tf.Session() as s:
            s.run(tf.variables_initializer([w]))
            assert s.run(w).tolist() == [2.0, 4.0]


def test_partitioned_variables_follow_use_resource_and_save_and_restore(tmp_path):
    with tf.Graph().as_default():
        with tf.variable_scope("s", use_resource=True):
            p = tf.get_variable("p", [5, 2], initializer=tf.random_uniform_initializer(seed=1),
                                partitioner=tf.fixed_size_partitioner(2))
        assert [x.name for x in p] == ["s/p/part_0:0", "s/p/part_1:0"]
        assert all(getattr(x, "_is_resource_variable", False) for x in p)
        assert p._variable_list[0].dtype == tf.float32       # (not float32_ref)
        sv = tf.train.Saver()
        e = tf.nn.embedding_lookup(p, [0, 4])
        # TF: a ResourceGather per shard, named "Gather"
        types = {op.name: op.type for op in tf.get_default_graph().get_operations()}
        assert types["embedding_lookup/Gather"] == types["embedding_lookup/Gather_1"] == "ResourceGather"
        opt = tf.train.AdagradOptimizer(0.5)
        t = opt.minimize(tf.reduce_sum(e * e))
        with pytest.raises(AttributeError) as err:
            opt.get_slot(p, "accumulator")
        assert "'PartitionedVariable' object has no attribute '_unique_id'" in str(err.value)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(t)
            path = sv.save(s, str(tmp_path / "m"))
            assert tf.train.list_variables(path) == [("s/p", [5, 2])]
            want = s.run(p.as_tensor()).tobytes().hex()
            s.run(tf.global_variables_initializer())
            sv.restore(s, path)
            assert s.run(p.as_tensor()).tobytes().hex() == want
            path2 = tf.train.Saver({"emb": p}).save(s, str(tmp_path / "m2"))
            assert tf.train.list_variables(path2) == [("emb", [5, 2])]
    with tf.Graph().as_default():
        with tf.variable_scope("s", use_resource=True):
            p = tf.get_variable("p", [5, 2], partitioner=tf.fixed_size_partitioner(3))
        with tf.Session() as s:
            tf.train.Saver([p]).restore(s, path)
            assert s.run(p.as_tensor()).tobytes().hex() == want


def test_piecewise_constant_without_boundaries_is_tfs_index_error():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        with pytest.raises(IndexError, match="list index out of range"):
            tf.train.piecewise_constant(gs, [], [1.0])
        p = tf.train.piecewise_constant(gs, [5], [1.0, 0.5])
        assert p.name == "PiecewiseConstant_1/case/cond/Merge:0"


@pytest.mark.skipif(not _rsqrt_matches_recording(), reason="needs the recording CPU's rsqrtps")
def test_float16_adagrad_packets_take_the_float32_rsqrt_rounded_to_half():
    h = np.float16
    x = np.frombuffer(bytes.fromhex("c93e64406f3fbd3e493df33f733d7341"), h)
    g = np.frombuffer(bytes.fromhex("9bae92369c30d13d173aca2f1a375735"), h)
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros(8, h))
        a = tf.Variable(x)
        op = T.apply_adagrad(v, a, h(0.1), g)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(op)
            assert _hex(s.run(v)) == "0b20d6a661a1c5ac12ab67a08ca812a5"


FTRL64_WANT = [
    ("8916a6f37a54cebf7a773698b20aa13f9a07e5ea0cfec1bf2b5065770ad598bf1c016dc6b9fdc03f6a53be28"
     "8801f2bf19cc0d5df3a5d23f1c13b1572031d33fb7eaeb4e8fbcb2bf6237bff5290475bfe5490deca1c7b03f"),
    ("aafd16e462f2ef3f1c11e1782ec1d1bf7ef6b8eca1f8f73f516b8d1ddec5d53f2638975369c604c0b02c7780"
     "2feb514010cb148e9f7a1bc0104f0d2b7a5813c0ab1dc7f6fdd4f03f2806470aafbbb43f16638e9548a0edbf"),
    ("0eb98df4ef2ac13f0025c4b18f79da3f353ec3e694f7e43f94e8cc2e2edaea3fbf0baab01630ee3f965e9f8b"
     "091fee3f66ac00f1550ce73f73482dcf83e8dc3f6f61b73d147ac93f89bae66e2b46c5bf134fff3c15c1debf"
     "478216acb9bbe7bf2106a6ad4376edbffdcf3144ccedefbf420b13a268dceebf19ad701f5d60eabf74852668"
     "c3f8e2bf7ace9776f0eed2bf948b8c303733983f36ee08a3e1867e3f2752fae42577503fa3bb008f642b7c3f"
     "a6de9486904f983f1376b141d397a73fb8d3902c9572b03ff7c375872f97b03fb521b7ec0900a03fdbcad49d"
     "9f51b93f4e445ce3dfd4cdbfa08c832f4541e1bf751edaf74824e9bffb31c1c9bc3eeebf36e9896bfdffefbf"
     "35bc7e3c4e36eebf409698d65a14e9bfa565d7f79a2be1bf"),
    ("a28313148fd408c035825fdaeb972bc0026feec74d8241c0c6a7e5a7556d57c0d2bcec949f668cc0c5519128"
     "a96465c05528b4d3f8d448c0c0e754a5548832c05294f9405c3217c066ff46e4c4fae2bf9ed9f5df5634e8bf"
     "32863c26703becbffe1b8b2a11ddeebf2549bb94e8f7efbfb6dcc61df97defbffc0124b14a75edbfa208fe0f"
     "9ef7e9bf5e202dbd2631e5bfa1e8e31ac069d8bfca73ded617e4c0bfc6aa1799a5db9bbfa67ed2657021c1bf"
     "5ad86f2e379addbf6dab11be1255eebf06447cf1a3c5f6bf5d46ef2de53ff9bfdd6022458ca9ebbfe19a0130"
     "24eeef3ffaa9946c7b9bef3f924c76109eb8ed3f2c5246096e5dea3ff08405306ab4e53f75e9ef6e28f1df3f"
     "17a91e160be5d23fd05bd492c0a6b33f942f63bfbe9fc2bf"),
    ("cbea33551c23ca3fd812d0dff2e3ebbf66a179097d42a3bfa565d7f79a2be1bf"),
    ("c705c304b3df30c04c705777af26eebf32a711c50443e63f942f63bfbe9fc2bf"),
]


def test_float64_ftrl_power_is_eigens_double_packet_pow_then_glibc_pow():
    # 4-lane double packets: generic_pow with accurate_log2<double>; the tail is glibc's pow
    f = np.float64
    x = np.linspace(0.05, 3.0, 11).astype(f)
    got = []
    with tf.Graph().as_default():
        var = tf.Variable(np.sin(x * 7))
        acc = tf.Variable(x)
        lin = tf.Variable(np.cos(x * 5))
        op = T.apply_ftrl(var, acc, lin, np.tan(x), f(0.1), f(0.01), f(0.02), f(-0.3))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(op)
            got += [_hex(s.run(var)), _hex(s.run(lin))]
    for inner in (9, 1):
        with tf.Graph().as_default():
            a = np.linspace(0.1, 4.0, 4 * inner).astype(f).reshape(4, inner)
            var = tf.Variable(np.sin(a * 3))
            acc = tf.Variable(a)
            lin = tf.Variable(np.cos(a * 2))
            op = T.sparse_apply_ftrl(var, acc, lin, np.tan(a[:2]), np.array([2, 0], np.int32), f(0.1), f(0.01),
                                     f(0.02), f(-0.6))
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                s.run(op)
                got += [_hex(s.run(var)), _hex(s.run(lin))]
    assert got == FTRL64_WANT


def test_on_read_get_variable_keeps_an_explicit_trainable_and_getters_without_constraint():
    seen = []

    def getter_without_constraint(getter, name, shape=None, dtype=None, initializer=None, regularizer=None,
                                  reuse=None, trainable=None, collections=None, caching_device=None,
                                  partitioner=None, validate_shape=True, use_resource=None,
                                  synchronization=None, aggregation=None):
        seen.append((name, trainable))
        return getter(name, shape=shape, dtype=dtype, initializer=initializer, trainable=trainable)

    with tf.Graph().as_default():
        with tf.variable_scope("a", custom_getter=getter_without_constraint):
            tf.get_variable("v", [2])
            tf.get_variable("u", [2], synchronization=tf.VariableSynchronization.ON_READ)
        t = tf.get_variable("t", [1], trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
        assert seen == [("a/v", True), ("a/u", False)]
        assert t.name == "t:0"
        assert [x.name for x in tf.trainable_variables()] == ["a/v:0", "t:0"]


def test_caching_device_places_the_read_snapshot():
    with tf.Graph().as_default():
        with tf.device("/job:ps/task:0"):
            v = tf.Variable([1.0, 2.0], name="v", caching_device="/job:worker/cpu:0")
            w = tf.Variable([1.0, 2.0], name="w")
        assert v.value().name == "v/read:0" and v.value().device == "/job:worker/task:0/device:CPU:0"
        assert v.value().op.colocation_groups() == [b"loc:@v/read"]
        assert w.value().device == "/job:ps/task:0" and w.value().op.colocation_groups() == [b"loc:@w"]
        with tf.variable_scope("c", caching_device="/cpu:0"):
            assert tf.get_variable("cv", [1]).value().device == "/device:CPU:0"


def test_saver_from_proto_and_to_proto_with_an_export_scope(tmp_path):
    with tf.Graph().as_default():
        with tf.name_scope("outer"):
            v = tf.Variable(1.0, name="v")
            sv = tf.train.Saver()
        assert (sv.saver_def.filename_tensor_name, sv.saver_def.restore_op_name) == (
            "outer/save/Const:0", "outer/save/restore_all")
        for scope in ("outer", "outer/"):
            sd = sv.to_proto(scope)
            assert (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name) == (
                "save/Const:0", "save/control_dependency:0", "save/restore_all")
        assert sv.to_proto("other") is None
        s2 = tf.train.Saver.from_proto(sv.to_proto())
        assert type(s2).__name__ == "Saver" and s2.saver_def.save_tensor_name == "outer/save/control_dependency:0"
        with tf.Session() as s:
            s.run(v.initializer)
            path = s2.save(s, str(tmp_path / "m"))
            s.run(v.assign(5.0))
            s2.restore(s, path)
            assert s.run(v) == 1.0


def test_a_custom_optimizer_needs_its_own_resource_updates_as_in_tf():
    class OnlyDense(tf.train.Optimizer):
        def __init__(self):
            super().__init__(False, "OnlyDense")

        def _apply_dense(self, grad, var):
            return tf.assign_sub(var, 0.1 * grad)

        def _apply_sparse(self, grad, var):
            raise NotImplementedError("Sparse gradient updates are not supported.")

    with tf.Graph().as_default():
        w = tf.get_variable("w", [2], use_resource=True)
        with pytest.raises(NotImplementedError) as e:
            OnlyDense().minimize(tf.reduce_sum(w * w))
        assert str(e.value) == ""           # (the base class's, not _apply_dense's)
        r = tf.get_variable("r", [2])       # a reference variable still takes _apply_dense
        OnlyDense().minimize(tf.reduce_sum(r * r), var_list=[r])


def test_resource_variable_keeps_its_static_shape_without_validate_shape():
    # recorded from TF 2.21: a resource variable's static shape is the initial value's even with
    # validate_shape=False (a ref variable's is unknown), so a mismatched assign fails at build
    with tf.Graph().as_default():
        u = tf.Variable(tf.zeros([2, 2]), validate_shape=False, use_resource=True, name="u")
        w = tf.Variable(tf.zeros([2, 2]), validate_shape=False, name="w")
        v = tf.Variable(tf.placeholder(tf.float32, [None, 3]), validate_shape=False, use_resource=True)
        assert (str(u.shape), str(u.read_value().shape), str(w.shape), str(v.shape)) == \
            ("(2, 2)", "(2, 2)", "<unknown>", "(?, 3)")
        with pytest.raises(ValueError, match=r"Cannot assign value to variable ' u:0': Shape mismatch\.The "
                                             r"variable shape \(2, 2\), and the assigned value shape \(3,\)"):
            u.assign(tf.ones([3]))
