"""Convolutional networks: a LeNet-style CNN for the 8x8 digits and the single-machine benchmark
models of the TensorFlow paper (Table 1, after github.com/soumith/convnet-benchmarks): AlexNet,
Overfeat (fast), OxfordNet (VGG model A) and GoogLeNet (Inception v1), for 224x224x3 images.

Every builder is `build(tf, images, num_classes, training=False) -> logits` and uses only the
public TF1 API, with `tf` the module (tensorweave or tensorflow.compat.v1), NHWC layout.

    import tensorweave as tf
    from tensorweave.models import convnets
    images = tf.placeholder(tf.float32, [None, 224, 224, 3])
    logits = convnets.alexnet(tf, images)
    train_op = convnets.train_op(tf, logits, labels)   # softmax cross-entropy + SGD
"""

__all__ = ["lenet", "alexnet", "overfeat", "vgg_a", "oxfordnet", "googlenet", "MODELS", "train_op",
           "IMAGE_SIZE"]

IMAGE_SIZE = 224


def _conv(tf, x, filters, k, s=1, padding="same", name=None):
    return tf.layers.conv2d(x, filters, k, strides=s, padding=padding, activation=tf.nn.relu, name=name)


def _pool(tf, x, k, s, padding="valid", name=None):
    return tf.layers.max_pooling2d(x, k, s, padding=padding, name=name)


def _fc(tf, x, units, relu=True, name=None):
    return tf.layers.dense(x, units, activation=tf.nn.relu if relu else None, name=name)


def lenet(tf, images, num_classes=10, training=False, dropout=0.0):
    """LeNet-style CNN for small images: conv5x5(32)-pool-conv5x5(64)-pool-fc(256)-fc(classes)."""
    x = _conv(tf, images, 32, 5, name="conv1")
    x = _pool(tf, x, 2, 2, name="pool1")
    x = _conv(tf, x, 64, 5, name="conv2")
    x = _pool(tf, x, 2, 2, name="pool2")
    x = tf.layers.flatten(x)
    x = _fc(tf, x, 256, name="fc1")
    if dropout:
        x = tf.layers.dropout(x, rate=dropout, training=training)
    return _fc(tf, x, num_classes, relu=False, name="logits")


def alexnet(tf, images, num_classes=1000, training=False):
    """AlexNet (one tower, as convnet-benchmarks): 5 convolutions, 3 max pools, 3 dense layers."""
    x = _conv(tf, images, 64, 11, 4, padding="valid", name="conv1")
    x = _pool(tf, x, 3, 2, name="pool1")
    x = _conv(tf, x, 192, 5, name="conv2")
    x = _pool(tf, x, 3, 2, name="pool2")
    x = _conv(tf, x, 384, 3, name="conv3")
    x = _conv(tf, x, 256, 3, name="conv4")
    x = _conv(tf, x, 256, 3, name="conv5")
    x = _pool(tf, x, 3, 2, name="pool5")
    x = tf.layers.flatten(x)
    x = _fc(tf, x, 4096, name="fc6")
    x = _fc(tf, x, 4096, name="fc7")
    return _fc(tf, x, num_classes, relu=False, name="fc8")


def overfeat(tf, images, num_classes=1000, training=False):
    """Overfeat, fast model: 5 convolutions, 3 max pools, 3 dense layers."""
    x = _conv(tf, images, 96, 11, 4, padding="valid", name="conv1")
    x = _pool(tf, x, 2, 2, name="pool1")
    x = _conv(tf, x, 256, 5, padding="valid", name="conv2")
    x = _pool(tf, x, 2, 2, name="pool2")
    x = _conv(tf, x, 512, 3, name="conv3")
    x = _conv(tf, x, 1024, 3, name="conv4")
    x = _conv(tf, x, 1024, 3, name="conv5")
    x = _pool(tf, x, 2, 2, name="pool5")
    x = tf.layers.flatten(x)
    x = _fc(tf, x, 3072, name="fc6")
    x = _fc(tf, x, 4096, name="fc7")
    return _fc(tf, x, num_classes, relu=False, name="fc8")


def vgg_a(tf, images, num_classes=1000, training=False):
    """OxfordNet / VGG model A: 8 3x3 convolutions in 5 blocks, 5 max pools, 3 dense layers."""
    x = images
    n = 0
    for block, (filters, convs) in enumerate([(64, 1), (128, 1), (256, 2), (512, 2), (512, 2)]):
        for _ in range(convs):
            n += 1
            x = _conv(tf, x, filters, 3, name="conv%d" % n)
        x = _pool(tf, x, 2, 2, name="pool%d" % (block + 1))
    x = tf.layers.flatten(x)
    x = _fc(tf, x, 4096, name="fc6")
    x = _fc(tf, x, 4096, name="fc7")
    return _fc(tf, x, num_classes, relu=False, name="fc8")


oxfordnet = vgg_a


def _inception(tf, x, name, c1, c3r, c3, c5r, c5, pp):
    with tf.variable_scope(name):
        b1 = _conv(tf, x, c1, 1, name="b1_1x1")
        b2 = _conv(tf, _conv(tf, x, c3r, 1, name="b2_1x1"), c3, 3, name="b2_3x3")
        b3 = _conv(tf, _conv(tf, x, c5r, 1, name="b3_1x1"), c5, 5, name="b3_5x5")
        b4 = _conv(tf, _pool(tf, x, 3, 1, padding="same", name="b4_pool"), pp, 1, name="b4_1x1")
        return tf.concat([b1, b2, b3, b4], 3)


def googlenet(tf, images, num_classes=1000, training=False):
    """GoogLeNet / Inception v1 (without the auxiliary classifiers, as convnet-benchmarks)."""
    x = _conv(tf, images, 64, 7, 2, name="conv1")
    x = _pool(tf, x, 3, 2, padding="same", name="pool1")
    x = _conv(tf, x, 64, 1, name="conv2")
    x = _conv(tf, x, 192, 3, name="conv3")
    x = _pool(tf, x, 3, 2, padding="same", name="pool3")
    x = _inception(tf, x, "inception3a", 64, 96, 128, 16, 32, 32)
    x = _inception(tf, x, "inception3b", 128, 128, 192, 32, 96, 64)
    x = _pool(tf, x, 3, 2, padding="same", name="pool4")
    x = _inception(tf, x, "inception4a", 192, 96, 208, 16, 48, 64)
    x = _inception(tf, x, "inception4b", 160, 112, 224, 24, 64, 64)
    x = _inception(tf, x, "inception4c", 128, 128, 256, 24, 64, 64)
    x = _inception(tf, x, "inception4d", 112, 144, 288, 32, 64, 64)
    x = _inception(tf, x, "inception4e", 256, 160, 320, 32, 128, 128)
    x = _pool(tf, x, 3, 2, padding="same", name="pool5")
    x = _inception(tf, x, "inception5a", 256, 160, 320, 32, 128, 128)
    x = _inception(tf, x, "inception5b", 384, 192, 384, 48, 128, 128)
    x = tf.layers.average_pooling2d(x, 7, 1, name="pool6")
    x = tf.layers.flatten(x)
    return _fc(tf, x, num_classes, relu=False, name="fc")


MODELS = {"alexnet": alexnet, "overfeat": overfeat, "oxfordnet": vgg_a, "vgg_a": vgg_a,
          "googlenet": googlenet, "lenet": lenet}


def train_op(tf, logits, labels, learning_rate=0.01, optimizer=None):
    """(loss, train_op): mean sparse softmax cross-entropy minimized by SGD (or `optimizer`),
    running the UPDATE_OPS (batch-norm statistics) with each step."""
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    opt = optimizer or tf.train.GradientDescentOptimizer(learning_rate)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        op = opt.minimize(loss)
    return loss, op
