"""Sampled losses: `tf.nn.sampled_softmax_loss` and `tf.nn.nce_loss`, built as TF builds them
(`_compute_sampled_logits`): the true and the sampled classes' weight rows and biases are looked
up with `embedding_lookup` (so their gradients are IndexedSlices touching only those rows), the
logits are corrected by log Q (the sampler's expected counts), accidental hits can be removed,
and the loss is softmax (resp. logistic) cross-entropy over [true | sampled] columns.
"""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import name_scope

__all__ = ["sampled_softmax_loss", "nce_loss"]


def _ops():
    from . import array_ops, candidate_sampling_ops, embedding_ops, math_ops, nn_ops, sparse_ops
    return array_ops, math_ops, embedding_ops, candidate_sampling_ops, nn_ops, sparse_ops


def _sum_rows(x):
    """Row sums as a matmul with a ones column (TF's _sum_rows; its gradient is cheaper)."""
    array_ops, math_ops = _ops()[:2]
    cols = array_ops.shape(x)[1]
    ones_shape = array_ops.stack([cols, 1])
    ones = array_ops.ones(ones_shape, x.dtype.base_dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _as_list(weights):
    try:
        from .partitioned_variables import PartitionedVariable
        if isinstance(weights, PartitionedVariable):
            return list(weights)
    except ImportError:
        pass
    return list(weights) if isinstance(weights, (list, tuple)) else [weights]


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                            sampled_values=None, subtract_log_q=True, remove_accidental_hits=False,
                            partition_strategy="mod", name=None, seed=None):
    array_ops, math_ops, embedding_ops, cs_ops, _, sparse_ops = _ops()
    weights = _as_list(weights)
    with name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = convert_to_tensor(labels, name="labels")
        inputs = convert_to_tensor(inputs, name="inputs")
        if labels.dtype.base_dtype != _dtypes.int64:
            labels = math_ops.cast(labels, _dtypes.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = cs_ops.log_uniform_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
                range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (
            array_ops.stop_gradient(s) for s in sampled_values)
        sampled = math_ops.cast(sampled, _dtypes.int64)
        all_ids = array_ops.concat([labels_flat, sampled], 0)

        all_w = embedding_ops.embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype.base_dtype != inputs.dtype.base_dtype:
            all_w = math_ops.cast(all_w, inputs.dtype.base_dtype)
        true_w = array_ops.slice(all_w, [0, 0], array_ops.stack([array_ops.shape(labels_flat)[0], -1]))
        sampled_w = array_ops.slice(all_w, array_ops.stack([array_ops.shape(labels_flat)[0], 0]), [-1, -1])
        sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)

        all_b = embedding_ops.embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype.base_dtype != inputs.dtype.base_dtype:
            all_b = math_ops.cast(all_b, inputs.dtype.base_dtype)
        true_b = array_ops.slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = array_ops.slice(all_b, array_ops.shape(labels_flat), [-1])

        dim = array_ops.shape(true_w)[1:2]
        new_true_w_shape = array_ops.concat([[-1, num_true], dim], 0)
        row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                          array_ops.reshape(true_w, new_true_w_shape))
        dots_as_matrix = array_ops.reshape(row_wise_dots, array_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_b = array_ops.reshape(true_b, [-1, num_true])
        true_logits += true_b
        sampled_logits += sampled_b

        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = cs_ops.compute_accidental_hits(labels, sampled,
                                                                               num_true=num_true)
            acc_indices_2d = array_ops.reshape(acc_indices, [-1, 1])
            acc_ids_2d_int32 = array_ops.reshape(math_ops.cast(acc_ids, _dtypes.int32), [-1, 1])
            sparse_indices = array_ops.concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices")
            sampled_logits_shape = array_ops.concat(
                [array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
            if sampled_logits.dtype.base_dtype != acc_weights.dtype.base_dtype:
                acc_weights = math_ops.cast(acc_weights, sampled_logits.dtype.base_dtype)
            sampled_logits += sparse_ops.sparse_to_dense(sparse_indices, sampled_logits_shape, acc_weights,
                                                         default_value=0.0, validate_indices=False)

        if subtract_log_q:
            true_logits -= math_ops.log(true_expected_count)
            sampled_logits -= math_ops.log(sampled_expected_count)

        out_logits = array_ops.concat([true_logits, sampled_logits], 1)
        out_labels = array_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                       array_ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    """Noise-contrastive estimation loss per example ([batch_size]): logistic regression telling
    the true classes from `num_sampled` classes drawn by the sampler (log-uniform by default).

    weights: [num_classes, dim] (or a list of shards); biases: [num_classes]; labels: int
    [batch_size, num_true]; inputs: [batch_size, dim]."""
    nn_ops = _ops()[4]
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy, name=name)
    sampled_losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                              name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
                         name="sampled_softmax_loss", seed=None):
    """Softmax cross-entropy over the true classes and `num_sampled` sampled ones ([batch_size]),
    a cheap training-time estimate of the full softmax loss for many classes. Use the full
    softmax for evaluation.

    weights: [num_classes, dim] (or a list of shards); biases: [num_classes]; labels: int
    [batch_size, num_true]; inputs: [batch_size, dim]."""
    array_ops, nn_ops = _ops()[0], _ops()[4]
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy, name=name,
        seed=seed)
    labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return nn_ops.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
