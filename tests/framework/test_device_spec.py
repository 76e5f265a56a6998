"""Device strings and scopes, against values recorded from TensorFlow 2.21
(tf.compat.v1.DeviceSpec, tf.device, tf.colocate_with; probe script in the issue notes)."""

import pytest

import tensorweave as tf

DS = tf.DeviceSpec

# (input, to_string(), job, replica, task, device_type, device_index) recorded from TF
RECORDED = [
    ("/cpu:0", "/device:CPU:0", None, None, None, "CPU", 0),
    ("/CPU:0", "/device:CPU:0", None, None, None, "CPU", 0),
    ("/gpu:1", "/device:GPU:1", None, None, None, "GPU", 1),
    ("/device:GPU:1", "/device:GPU:1", None, None, None, "GPU", 1),
    ("/job:ps/task:1", "/job:ps/task:1", "ps", None, 1, None, None),
    ("/job:worker/replica:2/task:3/device:CPU:4", "/job:worker/replica:2/task:3/device:CPU:4", "worker", 2, 3, "CPU", 4),
    ("/device:CPU:*", "/device:CPU:*", None, None, None, "CPU", None),
    ("cpu:0", "/device:CPU:0", None, None, None, "CPU", 0),
    ("/job:foo/cpu", "/job:foo/device:CPU:*", "foo", None, None, "CPU", None),
    ("/gpu:*", "/device:GPU:*", None, None, None, "GPU", None),
    ("", "", None, None, None, None, None),
    ("/task:2/gpu:0", "/task:2/device:GPU:0", None, None, 2, "GPU", 0),
    ("/replica:1", "/replica:1", None, 1, None, None, None),
    ("CPU:1", "/device:CPU:1", None, None, None, "CPU", 1),
    ("/device:XLA_CPU:0", "/device:XLA_CPU:0", None, None, None, "XLA_CPU", 0),
    ("/job:ps/device:gpu:0", "/job:ps/device:GPU:0", "ps", None, None, "GPU", 0),
    ("/job:a/job:b", "/job:b", "b", None, None, None, None),
]


@pytest.mark.parametrize("spec,string,job,replica,task,dtype,index", RECORDED)
def test_parse_and_print_like_tf(spec, string, job, replica, task, dtype, index):
    d = DS.from_string(spec)
    assert d.to_string() == string
    assert (d.job, d.replica, d.task, d.device_type, d.device_index) == (job, replica, task, dtype, index)


@pytest.mark.parametrize("spec,msg", [
    ("/foo:0", "Unknown attribute 'foo' is encountered while parsing the device spec: '/foo:0'."),
    ("/cpu:0:1", "Unknown attribute 'cpu' is encountered while parsing the device spec: '/cpu:0:1'."),
    ("/device:CPU:x", "invalid literal for int() with base 10: 'x'"),
    ("/task:x", "invalid literal for int() with base 10: 'x'"),
])
def test_parse_errors_like_tf(spec, msg):
    with pytest.raises(ValueError) as e:
        DS.from_string(spec)
    assert str(e.value) == msg


def test_merge_replace_and_construct():
    a = DS.from_string("/job:ps/task:1")
    b = DS.from_string("/device:GPU:0")
    assert a.make_merged_spec(b).to_string() == "/job:ps/task:1/device:GPU:0"
    assert a.to_string() == "/job:ps/task:1"  # make_merged_spec leaves `a` alone
    assert a.replace(job="worker", device_type="CPU", device_index=3).to_string() == "/job:worker/task:1/device:CPU:3"
    assert DS(job="w", replica=0, task=1, device_type="gpu", device_index=2).to_string() == "/job:w/replica:0/task:1/device:GPU:2"
    assert DS(device_type="cpu").to_string() == "/device:CPU:*"
    assert DS(device_index=1).to_string() == ""  # TF prints no index without a type
    assert DS.from_string("/cpu:0") == DS.from_string("/device:CPU:0")
    assert hash(DS.from_string("/cpu:0")) == hash(DS.from_string("/device:CPU:0"))
    c = DS.from_string("/job:ps")
    c.merge_from(b)
    assert c.to_string() == "/job:ps/device:GPU:0"
    assert DS().parse_from_string("/gpu:3").to_string() == "/device:GPU:3"
    assert repr(DS.from_string("/job:ps/gpu:0")) == \
        "<DeviceSpec(job=ps, replica=None, task=None, device_type=GPU, device_index=0)>"
    d = DS()
    d.device_type = "gpu"
    d.task = "2"
    assert d.to_string() == "/task:2/device:GPU:*"


def test_device_scopes_like_tf():
    with tf.Graph().as_default() as g:
        with tf.device("/cpu:0"):
            tf.constant(1, name="a")
            with tf.device("/job:ps/task:1"):
                tf.constant(1, name="b")
                with tf.device("/gpu:2"):
                    tf.constant(1, name="c")
            with tf.device(None):
                tf.constant(1, name="d")
            with tf.device("/device:CPU:*"):
                tf.constant(1, name="e")
            with tf.device(""):
                tf.constant(1, name="e2")
        with tf.device(tf.DeviceSpec(job="w", device_type="GPU", device_index=0)):
            tf.constant(1, name="f")
            with tf.device(lambda op: "/cpu:3"):
                tf.constant(1, name="h")
            with tf.device(lambda op: tf.DeviceSpec(task=4)):
                tf.constant(1, name="h3")
        with tf.device("/job:ps"):
            with tf.device(lambda op: "/task:2"):
                tf.constant(1, name="h4")
        got = {op.name: op.device for op in g.get_operations()}
    assert got == {  # recorded from TF
        "a": "/device:CPU:0", "b": "/job:ps/task:1/device:CPU:0", "c": "/job:ps/task:1/device:GPU:2",
        "d": "", "e": "/device:CPU:0", "e2": "/device:CPU:0", "f": "/job:w/device:GPU:0",
        "h": "/job:w/device:CPU:3", "h3": "/job:w/task:4/device:GPU:0", "h4": "/job:ps/task:2"}


def test_device_function_returning_none_is_a_type_error_like_tf():
    with tf.Graph().as_default():
        with tf.device(lambda op: None):
            with pytest.raises(TypeError, match="Expected binary or unicode string, got None"):
                tf.constant(1)


def test_colocate_with_like_tf():
    with tf.Graph().as_default() as g:
        with tf.device("/gpu:0"):
            v = tf.Variable(1.0, name="v")
        with tf.device("/cpu:1"):
            with tf.colocate_with(v.op):
                x = tf.identity(v, name="x")
                with tf.device("/cpu:2"):
                    x2 = tf.identity(v, name="x2")
            with tf.colocate_with(x.op):
                y = tf.identity(x, name="y")
            with tf.colocate_with(v):
                with tf.colocate_with(x.op, ignore_existing=True):
                    z = tf.identity(x, name="z")
            with tf.colocate_with(None, ignore_existing=True):
                w = tf.identity(x, name="w")
        read = g.get_operation_by_name("v/read")
        for op in (x.op, x2.op, y.op, z.op, v.initializer, read):
            assert op.device == "/device:GPU:0", op.name
            assert op.colocation_groups() == [b"loc:@v"], op.name
        assert v.op.colocation_groups() == [b"loc:@v"]
        assert w.op.device == "" and w.op.colocation_groups() == [b"loc:@w"]
        with pytest.raises(ValueError, match="ignore_existing is not True"):
            with tf.colocate_with(None):
                pass
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="b")
        with tf.colocate_with(a), tf.colocate_with(b):
            c = tf.add(a, b, name="c")
        assert c.op.colocation_groups() == [b"loc:@a", b"loc:@b"]
