"""Op-builder parity found in the 2026-12-07 sweep; expected names, classes and messages recorded
from TF 2.21 (tensorflow.compat.v1, graph mode)."""
import pytest

import tensorweave as tf


def test_unstack_num_is_an_int_attr_as_tf_makes_it():
    with tf.Graph().as_default():
        x = tf.constant([[1., 2.], [3., 4.]])
        assert [u.name for u in tf.unstack(x, num=2.5)] == ["unstack:0", "unstack:1"]
        with pytest.raises(TypeError, match=r"^Expected int for argument 'num' not '2'\.$"):
            tf.unstack(x, num="2")
        assert [u.name for u in tf.unstack(x, num=2, axis=1.0)] == ["unstack_1:0", "unstack_1:1"]
        with pytest.raises(ValueError, match=r"^Attr 'num' of 'Unpack' Op passed -1 less than minimum 0\.$"):
            tf.unstack(x, num=-1)
        # The failed build above took the name "unstack_2", as TF's op builder does.
        with pytest.raises(ValueError, match=r"Dimension must be 3 but is 2 for '\{\{node unstack_3\}\}"):
            tf.unstack(x, num=3)
