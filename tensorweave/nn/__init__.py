"""The tf.nn namespace: activations, softmax, cross-entropies, bias_add, dropout, moments, ...

The math functions TF also exposes here (tf.nn.sigmoid, tf.nn.tanh, ...) are the math ops' own
functions, resolved on first use so this module does not depend on import order.
"""

from ..ops.nn_ops import (bias_add, crelu, dropout, elu, l2_loss, l2_normalize, leaky_relu,  # noqa: F401
                          log_poisson_loss, log_softmax, moments, relu, relu6, relu_layer, selu,
                          sigmoid_cross_entropy_with_logits, softmax,
                          softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2,
                          softplus, softsign, sparse_softmax_cross_entropy_with_logits, swish,
                          weighted_cross_entropy_with_logits, xw_plus_b, zero_fraction)

silu = swish

from . import rnn_cell  # noqa: E402,F401  (tf.nn.rnn_cell)

# tf.nn names that live in other op families: name -> (module under tensorweave.ops, attribute).
_ELSEWHERE = {
    "sigmoid": ("math_ops", "sigmoid"),
    "tanh": ("math_ops", "tanh"),
    "embedding_lookup": ("embedding_ops", "embedding_lookup"),
    "embedding_lookup_sparse": ("embedding_ops", "embedding_lookup_sparse"),
    "sampled_softmax_loss": ("nn_sampled_ops", "sampled_softmax_loss"),
    "nce_loss": ("nn_sampled_ops", "nce_loss"),
    "log_uniform_candidate_sampler": ("candidate_sampling_ops", "log_uniform_candidate_sampler"),
    "uniform_candidate_sampler": ("candidate_sampling_ops", "uniform_candidate_sampler"),
    "learned_unigram_candidate_sampler": ("candidate_sampling_ops", "learned_unigram_candidate_sampler"),
    "fixed_unigram_candidate_sampler": ("candidate_sampling_ops", "fixed_unigram_candidate_sampler"),
    "all_candidate_sampler": ("candidate_sampling_ops", "all_candidate_sampler"),
    "compute_accidental_hits": ("candidate_sampling_ops", "compute_accidental_hits"),
    "static_rnn": ("rnn", "static_rnn"),
    "dynamic_rnn": ("rnn_dynamic", "dynamic_rnn"), "bidirectional_dynamic_rnn": ("rnn_dynamic", "bidirectional_dynamic_rnn"),
    "static_bidirectional_rnn": ("rnn", "static_bidirectional_rnn"), "raw_rnn": ("rnn_dynamic", "raw_rnn"),
    "in_top_k": ("nn_ops", "in_top_k"),
    "top_k": ("nn_ops", "top_k"),
    "space_to_depth": ("array_extra_ops", "space_to_depth"),
    "depth_to_space": ("array_extra_ops", "depth_to_space"),
    "space_to_batch": ("array_extra_ops", "space_to_batch"),
    "ctc_loss": ("ctc_ops", "ctc_loss"), "ctc_greedy_decoder": ("ctc_ops", "ctc_greedy_decoder"),
    "ctc_beam_search_decoder": ("ctc_ops", "ctc_beam_search_decoder"),
    "ctc_beam_search_decoder_v2": ("ctc_ops", "ctc_beam_search_decoder_v2"),
    "collapse_repeated": ("ctc_ops", "collapse_repeated"),
    "ctc_unique_labels": ("ctc_ops", "ctc_unique_labels"),
    "compute_average_loss": ("nn_extra2", "compute_average_loss"),
    "scale_regularization_loss": ("nn_extra2", "scale_regularization_loss"),
    "conv1d_transpose": ("nn_extra2", "conv1d_transpose"),
    "depthwise_conv2d_backprop_filter": ("nn_extra2", "depthwise_conv2d_backprop_filter"),
    "depthwise_conv2d_backprop_input": ("nn_extra2", "depthwise_conv2d_backprop_input"),
    "fractional_max_pool": ("nn_fractional_pool_ops", "fractional_max_pool"),
    "fractional_avg_pool": ("nn_fractional_pool_ops", "fractional_avg_pool"),
    "dilation2d": ("nn_morphology_ops", "dilation2d"), "erosion2d": ("nn_morphology_ops", "erosion2d"),
    "conv_transpose": ("nn_misc_ops", "conv_transpose"),
    "atrous_conv2d_transpose": ("nn_misc_ops", "atrous_conv2d_transpose"),
    "with_space_to_batch": ("nn_misc_ops", "with_space_to_batch"),
    "safe_embedding_lookup_sparse": ("nn_misc_ops", "safe_embedding_lookup_sparse"),
}

__all__ = ["bias_add", "crelu", "dropout", "elu", "l2_loss", "l2_normalize", "leaky_relu",
           "log_poisson_loss", "log_softmax", "moments", "relu", "relu6", "relu_layer", "selu",
           "sigmoid_cross_entropy_with_logits", "softmax", "softmax_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits_v2", "softplus", "softsign",
           "sparse_softmax_cross_entropy_with_logits", "swish", "silu",
           "weighted_cross_entropy_with_logits", "xw_plus_b", "zero_fraction", "sigmoid", "tanh"]

# Convolution, pooling and normalization ops (issue 3).
from ..ops import conv_ops as _conv_ops, nn_ops_extra as _nn_ops_extra  # noqa: E402
from ..ops import normalization_ops as _normalization_ops, pooling_ops as _pooling_ops  # noqa: E402
from ..ops import nn_moments as _nn_moments  # noqa: E402
from ..ops import conv3d_ops as _conv3d_ops  # noqa: E402
for _m in (_conv_ops, _pooling_ops, _normalization_ops, _nn_ops_extra, _nn_moments, _conv3d_ops):
    globals().update({_n: getattr(_m, _n) for _n in _m.__all__})
    __all__ += list(_m.__all__)
del _m


def __getattr__(name):
    where = _ELSEWHERE.get(name)
    if where is not None:
        import importlib
        try:
            mod = importlib.import_module(f"tensorweave.ops.{where[0]}")
            value = getattr(mod, where[1])
        except (ImportError, AttributeError):
            value = None
        if value is not None:
            globals()[name] = value
            return value
    raise AttributeError(f"module 'tensorweave.nn' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(__all__))
