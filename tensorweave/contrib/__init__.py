"""A minimal `tf.contrib`: only the pieces TF1 programs commonly use for parameter-server training
(`tf.contrib.training.GreedyLoadBalancingStrategy`, `byte_size_load_fn`)."""

from . import training  # noqa: F401
