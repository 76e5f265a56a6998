"""tf.contrib.training: load-balancing ps strategies for `tf.train.replica_device_setter`."""

from ..train.device_setter import GreedyLoadBalancingStrategy, byte_size_load_fn

__all__ = ["GreedyLoadBalancingStrategy", "byte_size_load_fn"]
