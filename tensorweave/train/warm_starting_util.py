"""tf.train.warm_start: make variables' initializers load their values from a checkpoint, as TF's
warm_starting_util does, including the vocabulary remapping of `tf.train.VocabInfo`.

Without vocabularies this is `init_from_checkpoint` over the selected variables (partitioned
variables grouped under their full names). With a `VocabInfo`, the rows (axis 0) or columns
(axis 1) of the checkpoint tensor are matched to the new vocabulary by token; cells with no old
token (new tokens, OOV buckets) are filled, in row-major order, from `backup_initializer` called
with the 1-D count of missing cells (zeros when None), as TF's LoadAndRemapMatrix does. The old
tensor and vocabulary files are read when `warm_start` is called (TF reads them when the
initializer runs); the remapped values are built into the graph as constants."""

import collections

import numpy as np

from ..platform import tf_logging as logging
from . import checkpoint_utils

__all__ = ["warm_start", "WarmStartSettings"]


class WarmStartSettings(collections.namedtuple(
        "WarmStartSettings", ["ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info",
                              "var_name_to_prev_var_name"])):
    """The arguments of `warm_start` in one value (TF's estimator WarmStartSettings)."""

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
                var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, ckpt_to_initialize_from, vars_to_warm_start, var_name_to_vocab_info or {},
                               var_name_to_prev_var_name or {})


def _infer_var_name(var):
    """The checkpoint name of a variable, or of the full variable a list of shards belongs to."""
    names = set()
    for v in var:
        info = getattr(v, "_save_slice_info", None)
        names.add(info.full_name if info is not None else v.op.name)
    if len(names) > 1:
        raise TypeError(f"`var` = {var} passed as arg violates the constraints.  name_to_var_dict = {sorted(names)}")
    return names.pop()


def _get_grouped_variables(vars_to_warm_start):
    from ..framework.graph import GraphKeys, get_collection
    from ..ops.partitioned_variables import PartitionedVariable
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        logging.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        list_of_vars = get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            list_of_vars = []
            for v in vars_to_warm_start:
                list_of_vars += get_collection(GraphKeys.GLOBAL_VARIABLES, scope=v)
        elif all(checkpoint_utils._is_variable(v) for v in vars_to_warm_start):
            list_of_vars = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given "
                             f"types are {[type(v) for v in vars_to_warm_start]}")
    else:
        raise ValueError(f"`vars_to_warm_start must be a `list` or `str`.  Given type is {type(vars_to_warm_start)}")
    grouped = {}
    for v in list_of_vars:
        shards = list(v) if isinstance(v, (list, PartitionedVariable)) else [v]
        grouped.setdefault(_infer_var_name(shards), []).extend(shards)
    return grouped


def _read_vocab(path, size):
    with open(path, "rb") as f:
        words = [line.rstrip(b"\r\n") for line in f]
    if size is not None and size >= 0:
        if size > len(words):
            raise ValueError(f"Vocab file {path} has {len(words)} lines, fewer than the vocab size {size}")
        words = words[:size]
    return words


def _remap(old_ids, n):
    """Index into the old vocabulary of each of `n` new ids (-1: no old value)."""
    out = np.full(n, -1, np.int64)
    out[:len(old_ids)] = old_ids[:n]
    return out


def _warm_start_var_with_vocab(shards, vocab_info, prev_ckpt, prev_tensor_name):
    from ..ops import array_ops, embedding_ops, state_ops
    from ..ops.init_ops import zeros_initializer
    new_words = _read_vocab(vocab_info.new_vocab, vocab_info.new_vocab_size)
    old_words = _read_vocab(vocab_info.old_vocab, vocab_info.old_vocab_size)
    old_index = {w: i for i, w in enumerate(old_words)}
    vocab_map = np.array([old_index.get(w, -1) for w in new_words], np.int64)
    old = np.asarray(checkpoint_utils.load_variable(prev_ckpt, prev_tensor_name))
    initializer = vocab_info.backup_initializer or zeros_initializer()
    axis = vocab_info.axis
    for v in shards:
        info = getattr(v, "_save_slice_info", None)
        shape = v.get_shape().as_list()
        if len(shape) not in (1, 2):
            raise ValueError(f"Vocabulary warm-starting supports 1-D and 2-D variables; {v.name} has shape {shape}")
        off_r, off_c = (list(info.var_offset) + [0])[:2] if info is not None else (0, 0)
        rows, cols = shape[0], (shape[1] if len(shape) == 2 else 1)
        old2 = old.reshape(old.shape[0], -1)          # a 1-D tensor is one column
        if axis == 0:
            row_map = _remap(vocab_map[off_r:], rows)
            col_map = np.arange(off_c, off_c + cols)
        else:
            row_map = np.arange(off_r, off_r + rows)
            col_map = _remap(vocab_map[off_c:], cols)
        known = (row_map[:, None] >= 0) & (col_map[None, :] >= 0)
        r_idx, c_idx = np.nonzero(known)
        values = old2[row_map[r_idx], col_map[c_idx]].astype(v.dtype.base_dtype.as_numpy_dtype)
        flat_known = np.flatnonzero(known.ravel()).astype(np.int32)
        flat_missing = np.flatnonzero(~known.ravel()).astype(np.int32)
        g = v.graph
        with g.as_default(), g.control_dependencies(None), g.name_scope("warm_start"):
            parts_idx, parts_val = [flat_known], [values]
            if flat_missing.size:
                parts_idx.append(flat_missing)
                parts_val.append(initializer([int(flat_missing.size)], dtype=v.dtype.base_dtype))
            value = array_ops.reshape(embedding_ops.dynamic_stitch(parts_idx, parts_val), shape)
            init = state_ops.assign(v._ref(), value)
        v._initializer_op = init.op
        v._initial_value = value


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Warm-starts variables from `ckpt_to_initialize_from` (a checkpoint prefix or directory): their
    initializers load the checkpoint's values instead (run the initializer afterwards).

    vars_to_warm_start: a regex over TRAINABLE_VARIABLES (".*" all, None only those with a vocab
    info), a list of scope strings (over GLOBAL_VARIABLES), or a list of variables.
    var_name_to_vocab_info: {variable name: tf.train.VocabInfo} to remap rows/columns by vocabulary.
    var_name_to_prev_var_name: {variable name: its name in the checkpoint}."""
    logging.info("Warm-starting from: %s", ckpt_to_initialize_from)
    grouped = _get_grouped_variables(vars_to_warm_start)
    var_name_to_vocab_info = var_name_to_vocab_info or {}
    var_name_to_prev_var_name = var_name_to_prev_var_name or {}
    warmstarted = 0
    prev_used, vocab_used = set(), set()
    vocabless = {}
    for var_name, shards in grouped.items():
        prev = var_name_to_prev_var_name.get(var_name)
        if prev:
            prev_used.add(var_name)
        vocab_info = var_name_to_vocab_info.get(var_name)
        if vocab_info:
            vocab_used.add(var_name)
            warmstarted += 1
            logging.debug("Warm-starting variable: %s; current_vocab: %s current_vocab_size: %s prev_vocab: %s "
                          "prev_vocab_size: %s current_oov: %s prev_tensor: %s initializer: %s", var_name,
                          vocab_info.new_vocab, vocab_info.new_vocab_size, vocab_info.old_vocab,
                          vocab_info.old_vocab_size, vocab_info.num_oov_buckets, prev or var_name,
                          vocab_info.backup_initializer or "zeros")
            _warm_start_var_with_vocab(shards, vocab_info, ckpt_to_initialize_from, prev or var_name)
        elif vars_to_warm_start:
            warmstarted += 1
            logging.debug("Warm-starting variable: %s; prev_var_name: %s", var_name, prev or "Unchanged")
            var = shards[0] if len(shards) == 1 else shards
            prev = prev or var_name
            if prev in vocabless:
                # init_from_checkpoint maps a tensor to one variable: flush before reusing a name.
                checkpoint_utils.init_from_checkpoint(ckpt_to_initialize_from, vocabless)
                vocabless = {}
            vocabless[prev] = var
    checkpoint_utils.init_from_checkpoint(ckpt_to_initialize_from, vocabless)
    logging.info("Warm-started %d variables.", warmstarted)
    unused_prev = set(var_name_to_prev_var_name) - prev_used
    if unused_prev:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name that were not used: "
                         f"{unused_prev}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
    unused_vocab = set(var_name_to_vocab_info) - vocab_used
    if unused_vocab:
        raise ValueError(f"You provided the following variables in var_name_to_vocab_info that were not used: "
                         f"{unused_vocab}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
