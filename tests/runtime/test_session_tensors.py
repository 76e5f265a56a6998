"""tf.get_session_handle / get_session_tensor / delete_session_tensor. Handles, op names and
messages recorded from TF 2.21."""

import numpy as np
import pytest

import tensorweave as tf


def test_handle_round_trip_and_delete():
    with tf.Graph().as_default():
        c = tf.multiply(tf.constant(3.0), tf.constant([1.0, 2.0]))
        h = tf.get_session_handle(c)
        assert (h.op.type, h.dtype, h.shape.as_list()) == ("GetSessionHandle", tf.string, [])
        with tf.Session() as sess:
            hv = sess.run(h)
            assert type(hv).__name__ == "TensorHandle"
            assert hv.handle == str(hv) == "GetSessionHandle;0;/job:localhost/replica:0/task:0/device:CPU:0"
            p, x = tf.get_session_tensor(hv.handle, tf.float32)
            assert (p.name, x.name, x.dtype) == ("Placeholder:0", "GetSessionTensor:0", tf.float32)
            assert p.device == x.device == "/job:localhost/replica:0/task:0/device:CPU:0"
            np.testing.assert_array_equal(sess.run(x * 10, {p: hv.handle}), [30.0, 60.0])
            np.testing.assert_array_equal(hv.eval(), [3.0, 6.0])
            named = sess.run({"k": tf.get_session_handle(tf.constant(5), name="x")})["k"]
            assert named.handle.startswith("x;1;")
            dp, d = tf.delete_session_tensor(hv.handle)
            sess.run(d, {dp: hv.handle})
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(x, {p: hv.handle})
            assert e.value.message.endswith(
                "The tensor with handle 'GetSessionHandle;0;/job:localhost/replica:0/task:0/device:CPU:0' is "
                "not in the session store.\n\t [[{{node GetSessionTensor}}]]")
            with pytest.raises(tf.errors.InvalidArgumentError, match="Failed to delete a tensor with handle "
                                                                     "'GetSessionHandle;0;"):
                sess.run(d, {dp: hv.handle})
            named.delete()
            with pytest.raises(tf.errors.InvalidArgumentError, match="is not in the session store"):
                named.eval()


def test_stored_value_is_a_snapshot_and_the_store_is_per_session():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0])
        h = tf.get_session_handle(v.read_value())
        with tf.Session() as sess:
            sess.run(v.initializer)
            hv = sess.run(h)
            sess.run(v.assign([5.0, 5.0]))
            np.testing.assert_array_equal(hv.eval(), [1.0, 2.0])
        with tf.Session() as other:
            p, x = tf.get_session_tensor(hv.handle, tf.float32)
            with pytest.raises(tf.errors.InvalidArgumentError, match="not in the session store"):
                other.run(x, {p: hv.handle})
