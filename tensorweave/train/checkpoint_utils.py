"""Reading checkpoints from Python: NewCheckpointReader, load_checkpoint, load_variable,
list_variables, and init_from_checkpoint (variables initialized from a checkpoint)."""

import bisect
import os

from ..framework import errors
from ..platform import tf_logging as logging
from . import checkpoint_format as _fmt
from .checkpoint_management import latest_checkpoint

__all__ = ["NewCheckpointReader", "CheckpointReader", "load_checkpoint", "load_variable", "list_variables",
           "init_from_checkpoint"]


# -- the order of TF's variable maps -------------------------------------------------------------
# TF's CheckpointReader builds its name -> shape and name -> dtype maps as C++ std::unordered_maps
# (the bundle's keys inserted in sorted order) and hands them to Python as dicts in the maps'
# iteration order. That order is libstdc++'s: std::hash<string> (MurmurHash2, 64-bit), prime bucket
# counts, new nodes at the front of their bucket or of the list. It is reproduced here, so a program
# printing `reader.get_variable_to_shape_map()` prints what it prints under TF.

_M64 = (1 << 64) - 1
_MUL = (0xc6a4a793 << 32) + 0x5bd1e995
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
           103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
           337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109,
           1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469,
           3739, 4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113,
           12011, 12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727,
           33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229,
           92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409,
           218971, 236897, 256279, 277261, 299951, 324503, 351061, 379787, 410857, 444487, 480881,
           520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483, 976369)
_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _string_hash(b):
    """libstdc++'s std::_Hash_bytes(b, len(b), 0xc70f6907) on a 64-bit machine."""
    def shift_mix(v):
        return v ^ (v >> 47)
    n = len(b)
    aligned = n & ~7
    h = (0xc70f6907 ^ (n * _MUL)) & _M64
    for i in range(0, aligned, 8):
        d = (shift_mix((int.from_bytes(b[i:i + 8], "little") * _MUL) & _M64) * _MUL) & _M64
        h = ((h ^ d) * _MUL) & _M64
    if n & 7:
        h = ((h ^ int.from_bytes(b[aligned:], "little")) * _MUL) & _M64
    return shift_mix((shift_mix(h) * _MUL) & _M64)


def _unordered_map_order(keys):
    """`keys` in the iteration order of a std::unordered_map<string, ...> they were emplaced
    into in the given order (sorted order where the map would outgrow the table here)."""
    keys = list(keys)
    if len(keys) >= _PRIMES[-1]:
        return keys
    head = object()
    nxt = {head: None}
    buckets = {}
    hashes = {}
    n_buckets, next_resize = 1, 0
    for count, k in enumerate(keys):
        hashes[k] = _string_hash(k.encode("utf-8"))
        if count + 1 > next_resize:  # _Prime_rehash_policy::_M_need_rehash (max load factor 1)
            least = max(count + 1, 0 if next_resize else 11)
            if least >= n_buckets:
                want = max(least + 1, n_buckets * 2)
                grown = _FAST_BUCKETS[want] if want < len(_FAST_BUCKETS) else \
                    _PRIMES[bisect.bisect_left(_PRIMES, want, 6)]
                next_resize = grown
                fresh = {}
                p, nxt[head], first_bucket = nxt[head], None, 0
                while p is not None:  # _M_rehash_aux: relink every node, in list order
                    q, b = nxt[p], hashes[p] % grown
                    if b not in fresh:
                        nxt[p], nxt[head] = nxt[head], p
                        fresh[b] = head
                        if nxt[p] is not None:
                            fresh[first_bucket] = p
                        first_bucket = b
                    else:
                        nxt[p], nxt[fresh[b]] = nxt[fresh[b]], p
                    p = q
                buckets, n_buckets = fresh, grown
            else:
                next_resize = n_buckets
        b = hashes[k] % n_buckets
        if b in buckets:  # _M_insert_bucket_begin
            nxt[k], nxt[buckets[b]] = nxt[buckets[b]], k
        else:
            nxt[k], nxt[head] = nxt[head], k
            if nxt[k] is not None:
                buckets[hashes[nxt[k]] % n_buckets] = k
            buckets[b] = head
    out, p = [], nxt[head]
    while p is not None:
        out.append(p)
        p = nxt[p]
    return out


class CheckpointReader:
    """Reads a checkpoint by prefix (`tf.train.NewCheckpointReader`). A path to a bare
    safetensors file is read too (no index, no checksums)."""

    def __init__(self, filepattern):
        filepattern = os.fspath(filepattern)
        if isinstance(filepattern, bytes):
            filepattern = filepattern.decode()
        self._prefix = filepattern
        self._plain = None
        if not _fmt.bundle_exists(filepattern) and os.path.isfile(filepattern):
            try:
                self._plain = _fmt.load_file(filepattern)
            except errors.DataLossError:
                self._plain = None
        if self._plain is None:
            self._bundle = _fmt.BundleReader(filepattern)

    def _names(self):
        return list(self._plain) if self._plain is not None else list(self._bundle.entries)

    def has_tensor(self, tensor_str):
        return tensor_str in (self._plain if self._plain is not None else self._bundle.entries)

    def get_tensor(self, tensor_str):
        """The tensor's value (NumPy array; a NumPy scalar for a 0-d tensor, as TF)."""
        if self._plain is not None:
            if tensor_str not in self._plain:
                raise errors.NotFoundError(None, None, f"Key {tensor_str} not found in checkpoint")
            value = self._plain[tensor_str].copy()
        else:
            value = self._bundle.read(tensor_str)
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self):
        if self._plain is not None:
            return {n: list(v.shape) for n, v in self._plain.items()}
        return {n: self._bundle.shape(n) for n in _unordered_map_order(sorted(self._bundle.entries))}

    def get_variable_to_dtype_map(self):
        from ..framework import dtypes
        if self._plain is not None:
            return {n: dtypes.as_dtype(v.dtype) for n, v in self._plain.items()}
        return {n: self._bundle.dtype(n) for n in _unordered_map_order(sorted(self._bundle.entries))}

    def debug_string(self):
        """One line per tensor, "name (dtype) [shape]", sorted by name (bytes, as TF)."""
        dt = self.get_variable_to_dtype_map()
        shapes = self.get_variable_to_shape_map()
        from ..protos import types_pb2
        lines = [f"{n} ({types_pb2.DataType.Name(dt[n].as_datatype_enum)}) "  # "DT_FLOAT", as TF
                 f"[{','.join(str(d) for d in shapes[n])}]" for n in sorted(shapes)]
        return ("\n".join(lines) + "\n").encode() if lines else b""


def NewCheckpointReader(filepattern):  # noqa: N802 - TF's name
    return CheckpointReader(filepattern)


def _get_checkpoint_filename(ckpt_dir_or_file):
    ckpt_dir_or_file = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(ckpt_dir_or_file):
        return latest_checkpoint(ckpt_dir_or_file)
    return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix, or the latest checkpoint in a directory."""
    filename = _get_checkpoint_filename(ckpt_dir_or_file)
    if filename is None:
        raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                         f"{ckpt_dir_or_file}")
    return NewCheckpointReader(filename)


def load_variable(ckpt_dir_or_file, name):
    """The value of variable `name` in the checkpoint (a trailing ":0" is dropped)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file):
    """[(name, shape)] of the checkpoint's tensors, sorted by name."""
    reader = load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


# -- init_from_checkpoint ---------------------------------------------------------------------------

def _is_variable(x):
    from ..ops.variables import Variable
    return isinstance(x, Variable)


def _store_vars():
    from ..ops import variable_scope
    try:
        return dict(variable_scope._store().vars)
    except Exception:  # noqa: BLE001 - no variable store yet
        return {}


def _saveable_restore(variable, restored):
    """Assigns `restored` as TF's saveable restore does and returns what TF stores as the
    initializer: a ref variable's Assign tensor, or a resource variable's Identity +
    AssignVariableOp operation."""
    from ..ops import state_ops
    g = variable.graph
    with g.as_default(), g.control_dependencies(None):
        if getattr(variable, "_is_resource_variable", False):
            from .saver import _ResourceRef
            return _ResourceRef(variable).assign(restored, g)[0]
        return state_ops.assign(variable._ref(), restored)


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name):
    """Replaces `variable`'s initializer with an assignment of the checkpoint's tensor."""
    from ..ops import io_ops
    g = variable.graph
    base = variable.dtype.base_dtype
    with g.as_default(), g.control_dependencies(None):
        with g.device(variable.device or None), g.device("/cpu:0"):
            restore = io_ops.restore_v2(ckpt_file, [tensor_name], [""], [base], name="checkpoint_initializer",
                                        shapes=[variable.shape])[0]
    variable._initializer_op = _saveable_restore(variable, restore)
    restore.set_shape(variable.shape)
    variable._initial_value = restore


def _set_slice_initializer(variable, ckpt_file, tensor_name):
    """A shard of a partitioned variable: its initializer loads its slice of the full tensor."""
    from ..ops import array_ops, io_ops
    info = variable._save_slice_info
    g = variable.graph
    base = variable.dtype.base_dtype
    with g.as_default(), g.control_dependencies(None):
        with g.device(variable.device or None), g.device("/cpu:0"):
            full = io_ops.restore_v2(ckpt_file, [tensor_name], [""], [base], name="checkpoint_initializer",
                                     shapes=[info.full_shape])[0]
            restore = array_ops.slice(full, list(info.var_offset), list(info.var_shape))
    variable._initializer_op = _saveable_restore(variable, restore)
    restore.set_shape(variable.shape)
    variable._initial_value = restore


def _set_variable_or_list_initializer(var, ckpt_file, tensor_name):
    if _is_variable(var):
        _set_checkpoint_initializer(var, ckpt_file, tensor_name)
        return
    slice_name = None
    for v in var:
        info = getattr(v, "_save_slice_info", None)
        if info is None:
            raise ValueError(f"Variable {v.name} in the list has no save_slice_info (not a partition)")
        if slice_name is None:
            slice_name = info.full_name
        elif slice_name != info.full_name:
            raise ValueError(f"Slices must all be from the same tensor: {slice_name} != {info.full_name}")
        _set_slice_initializer(v, ckpt_file, tensor_name)


def _collect_partitioned_variable(name, all_vars):
    if name + "/part_0" in all_vars:
        var = []
        i = 0
        while name + "/part_%d" % i in all_vars:
            var.append(all_vars[name + "/part_%d" % i])
            i += 1
        return var
    return None


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Makes the mapped variables' initializers load their values from a checkpoint.

    assignment_map: {checkpoint name or scope ("scope/"): current variable, its name, or scope}.
    Run the (global variables) initializer afterwards to load the values."""
    ckpt_file = _get_checkpoint_filename(ckpt_dir_or_file)
    if ckpt_file is None:
        raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {ckpt_dir_or_file}")
    reader = load_checkpoint(ckpt_dir_or_file)
    variable_map = reader.get_variable_to_shape_map()
    items = sorted(assignment_map.items(), key=lambda x: x[0]) if isinstance(assignment_map, dict) \
        else list(assignment_map)
    store_vars = _store_vars()
    for tensor_name_in_ckpt, current in items:
        from ..ops.partitioned_variables import PartitionedVariable
        var = None
        if _is_variable(current):
            var = current
        elif isinstance(current, PartitionedVariable):
            var = list(current)
        elif isinstance(current, (list, tuple)) and all(_is_variable(v) for v in current):
            var = list(current)
        else:
            var = store_vars.get(current)
            if var is None:
                var = _collect_partitioned_variable(current, store_vars)
        if var is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError(f"Tensor {tensor_name_in_ckpt} is not found in {ckpt_dir_or_file} checkpoint "
                                 f"{variable_map}")
            if not _is_variable(var):
                _set_variable_or_list_initializer(var, ckpt_file, tensor_name_in_ckpt)
                continue
            if not var.get_shape().is_compatible_with(variable_map[tensor_name_in_ckpt]):
                raise ValueError(f"Shape of variable {var.name} ({var.get_shape()}) doesn't match with shape of "
                                 f"tensor {tensor_name_in_ckpt} ({variable_map[tensor_name_in_ckpt]}) from "
                                 f"checkpoint reader.")
            _set_checkpoint_initializer(var, ckpt_file, tensor_name_in_ckpt)
            logging.debug("Initialize variable %s from checkpoint %s with %s", var.name, ckpt_dir_or_file,
                          tensor_name_in_ckpt)
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scopes} should map to scope only "
                             f"{tensor_name_in_ckpt}. Should be 'scope/': 'other_scope/'.")
        scope_variables = sorted(set(n[:n.index("/part_")] if "/part_" in n else n for n in store_vars
                                     if not scopes or n.startswith(scopes + "/")))
        for var_name in scope_variables:
            full_tensor_name = var_name[len(scopes):]
            if current != "/":
                full_tensor_name = full_tensor_name[1:]
            if tensor_name_in_ckpt != "/":
                full_tensor_name = tensor_name_in_ckpt + full_tensor_name
            if full_tensor_name.endswith("/"):
                full_tensor_name = full_tensor_name[:-1]
            if full_tensor_name not in variable_map:
                raise ValueError(f"Tensor {full_tensor_name} ({var_name[len(scopes) + 1:]} in {tensor_name_in_ckpt}) "
                                 f"is not found in {ckpt_dir_or_file} checkpoint")
            var = store_vars.get(var_name)
            if var is None:
                var = _collect_partitioned_variable(var_name, store_vars)
            _set_variable_or_list_initializer(var, ckpt_file, full_tensor_name)

