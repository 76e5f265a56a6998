"""tf.layers conv/pooling layers: variables, names, collections and shapes as TF makes them
(recorded from TensorFlow's legacy tf.layers), and values against tf.nn."""

import numpy as np

import tensorweave as tf


def _names(g, key):
    return [v.name for v in g.get_collection(key)]


def test_conv_and_pool_layers_names_shapes_collections():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 8, 8, 3])
        c = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        assert (c.name, c.shape.as_list()) == ("conv2d/Relu:0", [None, 8, 8, 4])
        c2 = tf.layers.conv2d(c, 5, (3, 3), strides=2, name="c2")
        assert (c2.name, c2.shape.as_list()) == ("c2/BiasAdd:0", [None, 3, 3, 5])
        assert tf.layers.conv2d(c2, 5, 1, use_bias=False).name == "conv2d_1/Conv2D:0"
        p = tf.layers.max_pooling2d(c, 2, 2)
        assert (p.name, p.shape.as_list()) == ("max_pooling2d/MaxPool:0", [None, 4, 4, 4])
        a = tf.layers.average_pooling2d(c, 3, 2, padding="same")
        assert (a.name, a.shape.as_list()) == ("average_pooling2d/AvgPool:0", [None, 4, 4, 4])
        t = tf.layers.conv2d_transpose(c, 6, 3, strides=2, padding="same")
        assert (t.name, t.shape.as_list()) == ("conv2d_transpose/BiasAdd:0", [None, 16, 16, 6])
        t2 = tf.layers.conv2d_transpose(c, 6, 3, strides=2, padding="valid")
        assert (t2.name, t2.shape.as_list()) == ("conv2d_transpose_1/BiasAdd:0", [None, 17, 17, 6])
        assert g.get_tensor_by_name("conv2d_transpose/conv2d_transpose:0").op.type == "Conv2DBackpropInput"
        cf = tf.layers.conv2d(tf.placeholder(tf.float32, [None, 3, 8, 8]), 4, 3,
                              data_format="channels_first")
        assert (cf.name, cf.shape.as_list()) == ("conv2d_2/BiasAdd:0", [None, 4, 6, 6])
        assert [o.name for o in g.get_operations() if o.name.startswith("conv2d/") and
                "Initializer" not in o.name] == [
            "conv2d/kernel", "conv2d/kernel/Assign", "conv2d/kernel/read", "conv2d/bias",
            "conv2d/bias/Assign", "conv2d/bias/read", "conv2d/Conv2D", "conv2d/BiasAdd", "conv2d/Relu"]
        expected = ["conv2d/kernel:0", "conv2d/bias:0", "c2/kernel:0", "c2/bias:0", "conv2d_1/kernel:0",
                    "conv2d_transpose/kernel:0", "conv2d_transpose/bias:0", "conv2d_transpose_1/kernel:0",
                    "conv2d_transpose_1/bias:0", "conv2d_2/kernel:0", "conv2d_2/bias:0"]
        assert _names(g, tf.GraphKeys.GLOBAL_VARIABLES) == expected
        assert _names(g, tf.GraphKeys.TRAINABLE_VARIABLES) == expected
        shapes = {v.name: v.shape.as_list() for v in tf.global_variables()}
        assert shapes["conv2d/kernel:0"] == [3, 3, 3, 4]
        assert shapes["conv2d_transpose/kernel:0"] == [3, 3, 6, 4]
        assert tf.layers.Conv2D(4, 3).name == "conv2d_4"  # TF: tf.layers names count from 1
        assert tf.layers.MaxPooling2D(2, 2).name == "max_pooling2d_2"
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            xv = np.random.RandomState(0).rand(2, 8, 8, 3).astype(np.float32)
            out, want_in = sess.run([t2, c], {x: xv})
            assert out.shape == (2, 17, 17, 6)


def test_layer_matches_nn_ops_and_reuse():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 6, 6, 2])
        layer = tf.layers.Conv2D(3, 3, strides=2, padding="same", activation=tf.nn.relu, name="cv")
        y = layer(x)
        layer(x)                                  # a second call shares the variables
        assert len(tf.global_variables()) == 2
        want = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, layer.kernel, 2, "SAME"), layer.bias))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            xv = np.random.RandomState(1).randn(2, 6, 6, 2).astype(np.float32)
            a, b = sess.run([y, want], {x: xv})
            np.testing.assert_allclose(a, b, rtol=1e-6)
