"""`tf.train.Saver`: saves and restores variables with graph ops, like TensorFlow's.

The Saver builds, under the name scope "save":

    save/filename/input, save/filename, save/Const   the filename tensor ("save/Const:0")
    save/SaveV2, save/control_dependency             the save op; fetching
                                                     "save/control_dependency:0" returns the prefix
    save/RestoreV2, save/Assign, save/Assign_1, ...  save/restore_all

With `sharded=True` it builds one SaveV2/RestoreV2 per device of the variables (each device, a
parameter-server task when distributed, writes its own data shard under "<prefix>_temp/") and a
MergeV2Checkpoints that moves the shards into place and writes the merged index.

`save()` then records the checkpoint in the `checkpoint` state file (written last, atomically)
and deletes checkpoints beyond `max_to_keep`, keeping one every `keep_checkpoint_every_n_hours`.
"""

import os
import re
import time

import numpy as np

from ..framework import errors
from ..framework.graph import GraphKeys, Operation, Tensor, get_default_graph
from ..framework.tensor_shape import TensorShape
from ..platform import tf_logging as logging
from . import checkpoint_management
from .checkpoint_management import (checkpoint_exists, get_checkpoint_mtimes, get_checkpoint_state,
                                    latest_checkpoint, update_checkpoint_state)

__all__ = ["Saver", "SaverDef", "latest_checkpoint", "get_checkpoint_state", "update_checkpoint_state",
           "checkpoint_exists", "get_checkpoint_mtimes"]


def _now():
    """The clock the Saver keeps checkpoint times with (tests replace it)."""
    return time.time()


class _PlainSaverDef:
    """The fields of TF's SaverDef proto (used when protobuf is not available)."""

    LEGACY, V1, V2 = 0, 1, 2

    def __init__(self, filename_tensor_name="", save_tensor_name="", restore_op_name="", max_to_keep=0,
                 sharded=False, keep_checkpoint_every_n_hours=0.0, version=2):
        self.filename_tensor_name = filename_tensor_name
        self.save_tensor_name = save_tensor_name
        self.restore_op_name = restore_op_name
        self.max_to_keep = max_to_keep
        self.sharded = sharded
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self.version = version

    def __repr__(self):
        return (f'filename_tensor_name: "{self.filename_tensor_name}"\nsave_tensor_name: '
                f'"{self.save_tensor_name}"\nrestore_op_name: "{self.restore_op_name}"\nmax_to_keep: '
                f'{self.max_to_keep}\n' + ("sharded: true\n" if self.sharded else "")
                + f"keep_checkpoint_every_n_hours: {self.keep_checkpoint_every_n_hours:g}\nversion: V2\n")


try:
    from ..protos.saver_pb2 import SaverDef  # TF's proto (wire-compatible)
except Exception:  # noqa: BLE001 - protobuf not installed: a plain class with the same fields
    SaverDef = _PlainSaverDef


def _make_saver_def(**fields):
    return SaverDef(**fields)


# -- var_list ------------------------------------------------------------------------------------

def _is_variable(v):
    from ..ops.variables import Variable
    return isinstance(v, Variable)


def _var_ref(v):
    """The reference tensor of a variable (Variable, or a VariableV2 op's output)."""
    if isinstance(v, (_SlicedRef, _ResourceRef)):
        return v
    if getattr(v, "_is_resource_variable", False):
        return _ResourceRef(v)
    if _is_variable(v):
        return v._ref()
    if isinstance(v, Tensor) and v.op.type in ("VariableV2", "Variable"):
        return v
    if isinstance(v, Operation) and v.type in ("VariableV2", "Variable"):
        return v.outputs[0]
    return None


class _SlicedRef:
    """The shards of one partitioned variable, saved as its full tensor (like TF, which writes
    the shards as slices of one checkpoint entry): saving concatenates the shards, restoring
    slices the full tensor back into them."""

    def __init__(self, parts):
        self.parts = sorted(parts, key=lambda r: r[1].var_offset)
        info = self.parts[0][1]
        self.full_shape = list(info.full_shape)
        ref0 = self.parts[0][0]
        self.dtype = ref0.dtype
        self.op = ref0.op
        self.shape = TensorShape(self.full_shape)
        self.axis = next((i for i, (a, b) in enumerate(zip(info.var_shape, self.full_shape)) if a != b), 0)

    def tiles(self):
        """Whether the shards cover the full tensor exactly along one axis."""
        pos = 0
        for _, info in self.parts:
            if list(info.full_shape) != self.full_shape or list(info.var_offset)[self.axis] != pos:
                return False
            if any(o != 0 for i, o in enumerate(info.var_offset) if i != self.axis):
                return False
            if any(d != f for i, (d, f) in enumerate(zip(info.var_shape, self.full_shape)) if i != self.axis):
                return False
            pos += info.var_shape[self.axis]
        return pos == self.full_shape[self.axis]

    def value(self):
        from ..ops import array_ops
        refs = [r.value() if isinstance(r, _ResourceRef) else r for r, _ in self.parts]
        if len(refs) == 1:
            return refs[0]
        return array_ops.concat(refs, self.axis)

    def assign(self, value, graph):
        from ..ops import array_ops, state_ops
        out = []
        for ref, info in self.parts:
            with graph.device(_device_of(ref) or None):
                piece = array_ops.slice(value, list(info.var_offset), list(info.var_shape))
                if isinstance(ref, _ResourceRef):       # (shards of a resource variable)
                    out.extend(ref.assign(piece, graph))
                else:
                    out.append(state_ops.assign(ref, piece, validate_shape=True))
        return out


class _ResourceRef:
    """A resource variable in a checkpoint (TF's ResourceVariableSaveable): saved from its read
    "v/Read/ReadVariableOp", restored through an Identity and an AssignVariableOp."""

    def __init__(self, var):
        self.var = var
        self.handle = var.handle
        self.dtype = var.dtype
        self.op = var.op
        self.shape = var.shape

    def __eq__(self, other):
        return isinstance(other, _ResourceRef) and other.handle is self.handle

    def __hash__(self):
        return hash(self.handle)

    def value(self):
        return self.var._graph_element  # "v/Read/ReadVariableOp:0", as TF's saver writes it

    def assign(self, value, graph):
        from ..ops import array_ops
        from ..ops.resource_variable_ops import assign_variable_op
        with graph.device(_device_of(self) or None):
            value = array_ops.identity(value)
            if not self.shape.is_compatible_with(value.shape):
                raise ValueError(f"Shapes {self.shape} and {value.shape} are incompatible")
            return [assign_variable_op(self.handle, value)]


def _slice_info(var):
    return getattr(var, "_save_slice_info", None) if _is_variable(var) else None


def _group_slices(out, slices):
    """Adds the partitioned variables collected in `slices` ({full name: [(ref, info)]}) to `out`:
    as one full-tensor entry when the shards tile it, else shard by shard under their own names."""
    for full_name, parts in slices.items():
        sliced = _SlicedRef(parts)
        if sliced.tiles():
            if full_name in out:
                raise ValueError(f"Mixing slices and non-slices with the same name: {full_name}")
            out[full_name] = sliced
        else:
            for ref, _ in parts:
                out[ref.op.name] = ref


def _op_list_to_dict(var_list):
    """{checkpoint name: variable reference tensor (or _SlicedRef)}, with TF's checks and messages."""
    if not isinstance(var_list, dict):
        return _list_to_dict(var_list)
    var_list = _expand_partitioned(_expand_partitioned_dict(var_list))
    if isinstance(var_list, dict):
        items = list(var_list.items())
        seen = {}
        out = {}
        for name, var in items:
            if not isinstance(name, str):
                raise TypeError("names_to_saveables must be a dict mapping string names to trackable "
                                f"operations. Name is not a string: {name}")
            ref = _var_ref(var)
            if ref is None:
                if isinstance(var, (list, tuple)):
                    raise NotImplementedError("Saving partitioned variables (a list per name) is not "
                                              "supported yet")
                if not isinstance(var, (Tensor, Operation)):
                    from ..framework.constant_op import convert_to_tensor
                    var = convert_to_tensor(var)  # TF converts the value first (a Const op is made)
                raise TypeError("names_to_saveables must be a dict mapping string names to "
                                f"Tensors/Variables. Not a variable: {var}")
            if ref in seen:
                raise ValueError(f"The same saveable will be restored with two names: {name}")
            seen[ref] = name
            out[str(name)] = ref
        return out
    return _list_to_dict(var_list)


def _list_to_dict(var_list):
    from ..ops.partitioned_variables import PartitionedVariable
    if isinstance(var_list, (set, frozenset)):
        var_list = list(var_list)
    if not isinstance(var_list, (list, tuple)):
        raise TypeError(f"Variables to save should be passed in a dict or a list. Got {var_list}")
    flat = []
    for var in var_list:
        flat.extend(list(var) if isinstance(var, PartitionedVariable) else [var])
    out = {}
    slices = {}
    for var in sorted(flat, key=lambda x: x.name):
        ref = _var_ref(var)
        if ref is None:
            raise TypeError(f"Variable to save is not a Variable: {var}")
        info = _slice_info(var)
        if info is not None:
            slices.setdefault(info.full_name, []).append((ref, info))
            continue
        name = ref.op.name
        if name in out:  # TF raises for a variable listed twice too
            raise ValueError(f"At least two variables have the same name: {name}")
        out[name] = ref
    _group_slices(out, slices)
    return out


def _expand_partitioned_dict(var_list):
    from ..ops.partitioned_variables import PartitionedVariable
    out = {}
    for key, var in var_list.items():
        if isinstance(var, PartitionedVariable):
            parts = [(_var_ref(p), p._save_slice_info) for p in var]
            sliced = _SlicedRef(parts)
            if sliced.tiles():
                out[key] = sliced
                continue
        out[key] = var
    return out


def _expand_partitioned(var_list):
    """A PartitionedVariable is saved as its shards: in a list, under the shards' own names
    ("w/part_0", ...); in a dict under "<key>/part_<i>" (the same names when key is its name).
    TF instead writes one full tensor "w" with slice specs; tensorweave does not (yet)."""
    from ..ops.partitioned_variables import PartitionedVariable
    if isinstance(var_list, dict):
        if not any(isinstance(v, PartitionedVariable) for v in var_list.values()):
            return var_list
        out = {}
        for key, var in var_list.items():
            if isinstance(var, PartitionedVariable):
                for i, part in enumerate(var):
                    out[f"{key}/part_{i}"] = part
            else:
                out[key] = var
        return out
    if isinstance(var_list, (list, tuple)) and any(isinstance(v, PartitionedVariable) for v in var_list):
        out = []
        for var in var_list:
            out.extend(list(var) if isinstance(var, PartitionedVariable) else [var])
        return out
    return var_list


def _all_saveable_objects(graph):
    return graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + graph.get_collection(GraphKeys.SAVEABLE_OBJECTS)


def _device_of(ref):
    return ref.op.device or ""


# -- building -------------------------------------------------------------------------------------

class _Builder:
    """Adds the save and restore ops to the graph (BaseSaverBuilder)."""

    def __init__(self, names_to_refs, sharded, reshape, filename):
        self.items = sorted(names_to_refs.items())
        self.sharded = sharded
        self.reshape = reshape
        self.filename = filename

    def build(self, graph, name):
        from ..ops import array_ops, control_flow_ops
        with graph.as_default(), graph.name_scope(name or "save") as scope:
            filename = array_ops.placeholder_with_default(self.filename or "model", shape=(), name="filename")
            filename = array_ops.placeholder_with_default(filename, shape=(), name="Const")
            if self.sharded:
                save_tensor, restore_op = self._build_sharded(graph, filename)
            else:
                save_tensor = self._add_save(graph, filename, self.items)
                restore_op = control_flow_ops.group(*self._add_restore(graph, filename, self.items, "/device:CPU:0"),
                                                    name="restore_all")
        del scope
        return filename, save_tensor, restore_op

    def _add_save(self, graph, prefix, items, device=None):
        from ..ops import control_flow_ops, io_ops
        with graph.device(device) if device else _nullcontext():
            save = io_ops.save_v2(prefix, [n for n, _ in items], [""] * len(items),
                                  [r.value() if isinstance(r, (_SlicedRef, _ResourceRef)) else r
                                   for _, r in items])
            return control_flow_ops.with_dependencies([save], prefix)

    def _add_restore(self, graph, prefix, items, device):
        from ..ops import io_ops
        with graph.device(device):
            # (as TF's, RestoreV2 checks dtypes only: a shape mismatch is the Assign's error, and
            # a resource variable takes the stored shape)
            restored = io_ops.restore_v2(prefix, [n for n, _ in items], [""] * len(items),
                                         [r.dtype.base_dtype for _, r in items])
        return self._assign_restored(graph, items, restored, [])

    def _build_sharded(self, graph, filename):
        from ..framework.constant_op import constant
        from ..ops import array_ops, control_flow_ops, io_ops
        by_device = {}
        for name, ref in self.items:
            by_device.setdefault(_device_of(ref), []).append((name, ref))
        devices = sorted(by_device)
        last_device = devices[-1] or None
        from ..ops import array_misc_ops, string_ops
        with graph.device("/device:CPU:0"):
            # TF's suffix choice (".part" for s3:// prefixes), op for op
            tmp = array_misc_ops.where(string_ops.regex_full_match(filename, "^s3://.*"),
                                       constant(".part"), constant("_temp/part"))
            tmp_prefix = io_ops.string_join([filename, tmp])
        num_shards = constant(len(devices), name="num_shards")
        deps, shard_prefixes = [], []
        for i, dev in enumerate(devices):
            with graph.device(dev or None):
                shard_prefix = io_ops.sharded_filename(tmp_prefix, i, num_shards)
                shard_prefixes.append(shard_prefix)
                deps.append(self._add_save(graph, shard_prefix, by_device[dev]))
        with graph.device(last_device):
            with graph.control_dependencies(deps):
                prefixes = array_ops.stack(shard_prefixes, name="MergeV2Checkpoints/checkpoint_prefixes")
            merge = io_ops.merge_v2_checkpoints(prefixes, filename)
            with graph.control_dependencies(deps + [merge]):
                save_tensor = array_ops.identity(filename, name="Identity")
        # Every shard's reads are verified before any variable is assigned: the Assigns of each
        # shard wait for all the RestoreV2 ops.
        restores, shard_ops = [], []
        for dev in devices:
            items = by_device[dev]
            with graph.device(dev or "/device:CPU:0"):
                restores.append(io_ops.restore_v2(filename, [n for n, _ in items], [""] * len(items),
                                                  [r.dtype.base_dtype for _, r in items]))
        all_reads = [r[0].op for r in restores]
        for dev, restored in zip(devices, restores):
            assigns = self._assign_restored(graph, by_device[dev], restored, all_reads)
            with graph.device(dev or None):
                shard_ops.append(control_flow_ops.group(*assigns, name="restore_shard"))
        restore_op = control_flow_ops.group(*shard_ops, name="restore_all")
        return save_tensor, restore_op

    def _assign_restored(self, graph, items, restored, control):
        from ..ops import array_ops, state_ops
        assigns = []
        with graph.control_dependencies(control):
            for (_, ref), value in zip(items, restored):
                if isinstance(ref, _SlicedRef):
                    if self.reshape:
                        value = array_ops.reshape(value, ref.full_shape)
                    assigns.extend(ref.assign(value, graph))
                    continue
                if isinstance(ref, _ResourceRef):
                    if self.reshape:
                        value = array_ops.reshape(value, ref.shape.as_list())
                    assigns.extend(ref.assign(value, graph))
                    continue
                validate = ref.shape.is_fully_defined()
                with graph.device(_device_of(ref) or None):
                    if self.reshape:
                        value = array_ops.reshape(value, ref.shape.as_list() if validate else array_ops.shape(ref))
                        validate = False
                    assigns.append(state_ops.assign(ref, value, validate_shape=validate))
        return assigns


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


# -- the Saver ------------------------------------------------------------------------------------

class Saver:
    """Saves and restores variables (`tf.train.Saver`)."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False, write_version=2,
                 pad_step_number=False, save_relative_paths=False, filename=None):
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. Either set "
                             "defer_build=False or var_list=None.")
        if write_version not in (None, 2):
            logging.warning("tensorweave writes V2 checkpoints only (write_version=%s ignored)", write_version)
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._name = name
        self._restore_sequentially = restore_sequentially
        self.saver_def = saver_def
        self._builder = builder
        self._is_built = False
        self._allow_empty = allow_empty
        self._is_empty = None
        self._write_version = 2
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._save_relative_paths = save_relative_paths
        self._graph = get_default_graph()
        self._next_checkpoint_time = _now() + keep_checkpoint_every_n_hours * 3600
        if not defer_build:
            self.build()
        if self.saver_def:
            self._check_saver_def()

    # -- building ---------------------------------------------------------------------------------
    def build(self):
        self._build(self._filename, build_save=True, build_restore=True)

    def _build(self, checkpoint_path, build_save, build_restore):
        if self._is_built:
            return
        self._is_built = True
        if self.saver_def:
            self._is_empty = False
            return
        graph = get_default_graph()
        self._graph = graph
        var_list = self._var_list
        if var_list is None:
            var_list = _all_saveable_objects(graph)
        if not var_list:
            if self._allow_empty:
                self._is_empty = True
                return
            raise ValueError("No variables to save")
        self._is_empty = False
        names_to_refs = _op_list_to_dict(var_list)
        if not names_to_refs:
            raise ValueError("No variables to save")
        builder = _Builder(names_to_refs, self._sharded, self._reshape, checkpoint_path)
        filename, save_tensor, restore_op = builder.build(graph, self._name)
        self.saver_def = _make_saver_def(
            filename_tensor_name=filename.name, save_tensor_name=save_tensor.name,
            restore_op_name=restore_op.name, max_to_keep=self._max_to_keep or 0, sharded=bool(self._sharded),
            keep_checkpoint_every_n_hours=self._keep_checkpoint_every_n_hours, version=2)
        self._check_saver_def()

    def _check_saver_def(self):
        sd = self.saver_def
        for field in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
            if not getattr(sd, field):
                raise ValueError(f"saver_def must specify the {field}: {sd}")

    def as_saver_def(self):
        """The SaverDef naming this saver's filename tensor, save tensor and restore op."""
        return self.saver_def

    def to_proto(self, export_scope=None):
        """The SaverDef, with `export_scope` stripped from its names (None if a name is outside it)."""
        sd = self.saver_def
        if export_scope is None:
            return sd
        names = (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name)
        if not all(n.startswith(export_scope) for n in names):
            return None
        scope = export_scope[:-1] if export_scope.endswith("/") else export_scope
        pattern = r"([\^]|loc:@|^)" + scope + r"[\/]+(.*)"
        stripped = [re.sub(pattern, r"\1\2", n, count=1) for n in names]
        return _make_saver_def(filename_tensor_name=stripped[0], save_tensor_name=stripped[1],
                               restore_op_name=stripped[2], max_to_keep=sd.max_to_keep, sharded=sd.sharded,
                               keep_checkpoint_every_n_hours=sd.keep_checkpoint_every_n_hours,
                               version=sd.version)

    @staticmethod
    def from_proto(saver_def, import_scope=None):
        """A Saver over the graph's save/restore ops named by `saver_def`."""
        return Saver(saver_def=saver_def, name=import_scope)

    # -- bookkeeping ------------------------------------------------------------------------------
    @property
    def last_checkpoints(self):
        """The checkpoints not deleted yet, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        if not isinstance(last_checkpoints, list):
            raise AssertionError(f"last_checkpoints must be a list: {last_checkpoints!r}")
        self._last_checkpoints = [(s, float("inf")) for s in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        if not isinstance(last_checkpoints_with_time, list):
            raise AssertionError(f"last_checkpoints_with_time must be a list: {last_checkpoints_with_time!r}")
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        """Adopts `checkpoint_paths` (e.g. a state file's all_model_checkpoint_paths) as the
        checkpoints this saver manages, timed by their files' modification times."""
        checkpoints_with_mtimes = []
        for p in checkpoint_paths:
            mtimes = get_checkpoint_mtimes([p])
            if mtimes:
                checkpoints_with_mtimes.append((p, mtimes[0]))
        self.set_last_checkpoints_with_time(checkpoints_with_mtimes)

    def _record_last_checkpoint(self, latest_save_path):
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != latest_save_path]
        self._last_checkpoints.append((latest_save_path, _now()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _maybe_delete_old_checkpoints(self, meta_graph_suffix="meta"):
        while self._checkpoints_to_be_deleted:
            p, t = self._checkpoints_to_be_deleted.pop(0)
            # Keep one checkpoint every keep_checkpoint_every_n_hours.
            if t > self._next_checkpoint_time:
                self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
                continue
            try:
                checkpoint_management.remove_checkpoint(p, 2, meta_graph_suffix)
            except Exception as e:  # noqa: BLE001 - as TF: a failed delete only warns
                logging.warning("Ignoring: %s", e)

    # -- save / restore ---------------------------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        """Saves the variables to `save_path[-global_step]`; returns that prefix (None when the
        saver is empty)."""
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):
                from .training_util import global_step as _gs_value
                global_step = _gs_value(sess, global_step)
            step = int(global_step)
            checkpoint_file = f"{save_path}-{step:08d}" if self._pad_step_number else f"{save_path}-{step}"
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError(f"'latest_filename' collides with 'save_path': '{latest_filename}' and "
                                 f"'{save_path}'")
        from ..runtime.session import BaseSession
        if not isinstance(sess, BaseSession):
            # TF: a MonitoredSession (not a SessionInterface) is refused too.
            raise TypeError("'sess' must be a Session; %s" % (sess,))
        save_path_parent = os.path.dirname(save_path)
        model_checkpoint_path = None
        if not self._is_empty:
            try:
                value = sess.run(self.saver_def.save_tensor_name,
                                 {self.saver_def.filename_tensor_name: checkpoint_file})
            except (errors.FailedPreconditionError, errors.NotFoundError):
                if save_path_parent and not os.path.isdir(save_path_parent):
                    raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.") from None
                raise
            model_checkpoint_path = value.decode() if isinstance(value, bytes) else str(value)
        if write_meta_graph:
            meta_graph_filename = checkpoint_management.meta_graph_filename(checkpoint_file, meta_graph_suffix)
            self.export_meta_graph(meta_graph_filename, strip_default_attrs=strip_default_attrs)
        if write_state and model_checkpoint_path is not None:
            self._record_last_checkpoint(model_checkpoint_path)
            checkpoint_management.update_checkpoint_state_internal(
                save_dir=save_path_parent or ".", model_checkpoint_path=model_checkpoint_path,
                all_model_checkpoint_paths=self.last_checkpoints, latest_filename=latest_filename,
                save_relative_paths=self._save_relative_paths)
            self._maybe_delete_old_checkpoints(meta_graph_suffix)
        return model_checkpoint_path

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        """Writes the graph, its collections and this saver's SaverDef as a MetaGraphDef
        (written atomically: temporary file, then rename)."""
        try:
            from ..framework.meta_graph import export_meta_graph as _export
        except ImportError:
            try:
                from ..train import export_meta_graph as _export  # where the namespace may re-export it
            except ImportError:
                logging.warning("export_meta_graph is not available yet; no .meta file written")
                return None
        tmp = None
        if filename:
            d = os.path.dirname(os.path.abspath(filename))
            tmp = os.path.join(d, f".{os.path.basename(filename)}.tmp{os.getpid()}")
        try:
            result = _export(filename=tmp, graph_def=None, saver_def=self.saver_def,
                             collection_list=collection_list, as_text=as_text, export_scope=export_scope,
                             clear_devices=clear_devices, clear_extraneous_savers=clear_extraneous_savers,
                             strip_default_attrs=strip_default_attrs, graph=self._graph)
            if tmp is not None and os.path.exists(tmp):
                with open(tmp, "rb+") as f:
                    os.fsync(f.fileno())
                os.replace(tmp, filename)
        finally:
            if tmp is not None and os.path.exists(tmp):
                os.remove(tmp)
        return result

    def restore(self, sess, save_path):
        """Restores the variables from the checkpoint `save_path`. Every tensor is read and
        verified before any variable changes: a failed restore leaves them all as they were."""
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        save_path = os.fspath(save_path)
        if not checkpoint_exists(save_path):
            raise ValueError("The passed save_path is not a valid checkpoint: " + save_path)
        logging.info("Restoring parameters from %s", save_path)
        try:
            sess.run(self.saver_def.restore_op_name, {self.saver_def.filename_tensor_name: save_path})
        except errors.NotFoundError as err:
            raise _wrap_restore_error(err, "a Variable name or other graph key that is missing") from None
        except errors.InvalidArgumentError as err:
            raise _wrap_restore_error(err, "a mismatch between the current graph and the graph") from None


def _wrap_restore_error(err, message):
    msg = (f"Restoring from checkpoint failed. This is most likely due to {message} from the checkpoint. "
           f"Please ensure that you have not altered the graph expected based on the checkpoint. "
           f"Original error:\n\n{err.message}")
    return type(err)(err.node_def, err.op, msg)
