"""`tf.train.Checkpoint` (TF's compat.v1 CheckpointV1) in graph mode: saves the variables
reachable from the objects it is given, keyed by their path in the object graph, and restores
them by matching that graph against the current Python objects.

`save`/`write` fetch the values in the session and write one bundle in the checkpoint format of
checkpoint_format.py, with the serialized object graph under `_CHECKPOINTABLE_OBJECT_GRAPH`.
`restore` returns a status whose restore ops (RestoreV2 + Assign) are built for each matched
variable; matching is redone whenever the status is used, so objects created after `restore`
(optimizer slots, layers built later) are restored too, as TF's deferred restoration does. A
checkpoint with no object graph (written by tf.train.Saver) is restored by variable name.
"""

import os

import numpy as np

from ...framework import errors
from ...framework.graph import get_default_graph, get_default_session
from ...platform import tf_logging as logging
from .. import checkpoint_format as _fmt
from .. import checkpoint_management
from . import graph_view as _gv

__all__ = ["Checkpoint", "CheckpointLoadStatus", "InitializationOnlyStatus", "NameBasedSaverStatus"]


def _session(session):
    if session is None:
        session = get_default_session()
    if session is None:
        raise ValueError("Graph-mode checkpointing needs a session: pass `session=` or run inside "
                         "`with tf.Session() as sess:`.")
    return session


def _variables_in(graph_view):
    return [o for o in graph_view.objects if _gv.is_variable(o)]


def _restore_ops(items, prefix):
    """RestoreV2 of `items` ([(key, variable)]) from `prefix`, then one assign per variable."""
    from ...framework.constant_op import constant
    from ...ops import io_ops
    from ..saver import _Builder, _var_ref
    graph = get_default_graph()
    refs = [(key, _var_ref(v)) for key, v in items]
    with graph.device("/device:CPU:0"):
        restored = io_ops.restore_v2(constant(prefix), [k for k, _ in refs], [""] * len(refs),
                                     [r.dtype.base_dtype for _, r in refs], shapes=[r.shape for _, r in refs])
    if len(refs) == 1 and not isinstance(restored, (list, tuple)):
        restored = [restored]
    return _Builder(dict(refs), False, False, None)._assign_restored(graph, refs, restored, [])


class _LoadStatus:
    """What every load status answers."""

    def expect_partial(self):
        """Silences warnings about an incomplete restore (tensorweave issues none)."""
        return self


class CheckpointLoadStatus(_LoadStatus):
    """The status of restoring an object-based checkpoint: `run_restore_ops` restores the
    variables matched so far, the assertions check how complete the match is."""

    def __init__(self, checkpoint, save_path, nodes, reader):
        self._checkpoint = checkpoint
        self._save_path = save_path
        self._nodes = nodes
        self._reader = reader
        self._matched = {}        # node id -> Python object
        self._restore_ops = []
        self._restored = set()    # ids of the variables that have restore ops
        self._view = None
        self._match()

    def _match(self):
        """Matches the checkpoint's nodes to the Python objects reachable from the root (by child
        name, then optimizer slots) and builds restore ops for newly matched variables."""
        view = _gv.ObjectGraph(self._checkpoint)
        self._view = view
        matched = {0: self._checkpoint}
        queue = [0]
        while queue:
            n = queue.pop(0)
            obj = matched[n]
            kids = dict(_gv.children(obj)) if not _gv.is_variable(obj) else {}
            for name, c in self._nodes[n]["children"]:
                if c not in matched and name in kids:
                    matched[c] = kids[name]
                    queue.append(c)
        for n, node in enumerate(self._nodes):
            opt = matched.get(n)
            if opt is None or not _gv.is_optimizer(opt):
                continue
            for orig, slot_name, slot in node["slot_variables"]:
                var = matched.get(orig)
                if var is not None and slot not in matched and _gv.is_variable(var):
                    slot_var = _gv.get_slot(opt, var, slot_name)
                    if slot_var is not None:
                        matched[slot] = slot_var
        self._matched = matched
        new = []
        for n, obj in sorted(matched.items()):
            attrs = self._nodes[n]["attributes"]
            if attrs and _gv.is_variable(obj) and id(obj) not in self._restored:
                self._restored.add(id(obj))
                new.append((attrs[0]["checkpoint_key"], obj))
        if new:
            self._restore_ops.extend(_restore_ops(new, self._save_path))

    def assert_consumed(self):
        """Raises AssertionError unless every checkpointed value and every Python object with a
        value was matched. Returns self."""
        self.assert_existing_objects_matched()
        names = _gv.node_names(self._nodes)
        for n, node in enumerate(self._nodes):
            if node["attributes"] and n not in self._matched:
                attrs = "".join(f'attributes {{\n  name: "{a["name"]}"\n  full_name: "{a["full_name"]}"\n  '
                                f'checkpoint_key: "{a["checkpoint_key"]}"\n}}\n' for a in node["attributes"])
                raise AssertionError(f"Unresolved object in checkpoint {names.get(n, n)}: {attrs}")
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a Python variable in the object graph has no value in the
        checkpoint. Returns self."""
        self._match()
        matched = {id(o) for o in self._matched.values()}
        unused = [o for o in _variables_in(self._view) if id(o) not in matched]
        if unused:
            shown = min(10, len(unused))
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed values, likely due to "
                f"changes in the Python program. Showing {shown} of {len(unused)} unmatched objects: "
                f"{unused[:shown]}")
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if nothing but the root was matched. Returns self."""
        self._match()
        if len(self._matched) <= 1:
            unused = _variables_in(self._view)
            if unused:
                raise AssertionError("Nothing except the root object matched a checkpointed value. Typically "
                                     "this means that the checkpoint does not match the Python program. The "
                                     f"following objects have no matching checkpointed value: {unused}")
            raise AssertionError(f"Nothing to load. No dependencies have been added to {self._checkpoint} yet.")
        return self

    def run_restore_ops(self, session=None):
        """Runs the restore ops of every variable matched so far."""
        session = _session(session)
        self._match()
        session.run(self._restore_ops)

    def initialize_or_restore(self, session=None):
        """Restores the matched variables and runs the initializers of the others."""
        session = _session(session)
        self._match()
        matched = {id(o) for o in self._matched.values()}
        inits = [v.initializer for v in _variables_in(self._view) if id(v) not in matched]
        session.run(self._restore_ops)
        session.run(inits)


class InitializationOnlyStatus(_LoadStatus):
    """Returned by `restore(None)`: `initialize_or_restore` initializes every variable."""

    _NONE = "No checkpoint specified (save_path=None); nothing is being restored."

    def __init__(self, root):
        self._root = root

    def assert_consumed(self):
        raise AssertionError(self._NONE)

    def assert_existing_objects_matched(self):
        raise AssertionError(self._NONE)

    def assert_nontrivial_match(self):
        raise AssertionError(self._NONE)

    def run_restore_ops(self, session=None):
        raise AssertionError("No checkpoint specified, so no restore ops are available (save_path=None to "
                             "Saver.restore).")

    def initialize_or_restore(self, session=None):
        session = _session(session)
        session.run([v.initializer for v in _variables_in(_gv.ObjectGraph(self._root))])


class NameBasedSaverStatus(_LoadStatus):
    """Restores a name-based (tf.train.Saver) checkpoint: each variable by its own name."""

    def __init__(self, checkpoint, save_path):
        logging.warning("Restoring a name-based tf.train.Saver checkpoint using the object-based restore API. "
                        "This mode uses global names to match variables, and so is somewhat fragile.")
        self._checkpoint = checkpoint
        self._save_path = save_path
        self._optionally_restored = []
        self._ran = False

    def add_to_optionally_restored(self, var):
        self._optionally_restored.append(var)

    def assert_consumed(self):
        """Raises AssertionError until `run_restore_ops` has run (a name-based checkpoint says
        nothing about objects, so there is nothing else to check). Returns self."""
        if not self._ran:
            raise AssertionError(f"Object not restored: {self._checkpoint}")
        return self

    def assert_existing_objects_matched(self):
        return self.assert_consumed()

    def assert_nontrivial_match(self):
        return self.assert_consumed()

    def run_restore_ops(self, session=None):
        """Restores every variable of the object graph (save_counter included) by its name with a
        tf.train.Saver, as TF does: a variable missing from the checkpoint is a NotFoundError."""
        from ..saver import Saver
        session = _session(session)
        var_list = {v.op.name: v for v in _variables_in(_gv.ObjectGraph(self._checkpoint))}
        with get_default_graph().device("/cpu:0"):
            saver = Saver(var_list)
        saver.restore(session, self._save_path)
        self._ran = True

    def initialize_or_restore(self, session=None):
        self.run_restore_ops(session)


class Checkpoint:
    """Groups trackable objects (variables, optimizers, tf.Modules, keras layers and models,
    other Checkpoints, lists and dicts of those) and saves or restores them together."""

    def __init__(self, **kwargs):
        for k, v in sorted(kwargs.items(), key=lambda item: item[0]):
            if not _gv.is_trackable_object(v) and not isinstance(v, (list, tuple, dict)):
                raise ValueError("`Checkpoint` was expecting a trackable object (an object derived from "
                                 f"`Trackable`), got {v}. If you believe this object should be trackable (i.e. "
                                 "it is part of the TensorFlow Python API and manages state), please open an "
                                 "issue.")
            _gv.check_supported(v, k)
            setattr(self, k, v)
        self._self_save_counter = None
        self._self_save_assign_op = None

    def _checkpoint_children(self):
        out = [(k, v) for k, v in vars(self).items() if not k.startswith("_self_") and _gv.is_trackable(v)]
        if self._self_save_counter is not None:
            out.append(("save_counter", self._self_save_counter))
        return out

    def _maybe_create_save_counter(self):
        if self._self_save_counter is None:
            from ...ops.variables import Variable
            graph = get_default_graph()
            with graph.control_dependencies(None), graph.device("/cpu:0"):
                from ...framework import dtypes
                self._self_save_counter = Variable(0, name="save_counter", dtype=dtypes.int64, trainable=False,
                                                   use_resource=True)
            return True
        return False

    @property
    def save_counter(self):
        """An int64 variable, incremented by `save()`, numbering the checkpoints."""
        self._maybe_create_save_counter()
        return self._self_save_counter

    def write(self, file_prefix, session=None, options=None):
        """Writes a checkpoint at `file_prefix` (no numbering, no state file); returns the prefix."""
        session = _session(session)
        file_prefix = os.fspath(file_prefix)
        if isinstance(file_prefix, bytes):
            file_prefix = file_prefix.decode()
        view = _gv.ObjectGraph(self)
        keys = view.keys()
        from ..saver import _ResourceRef, _var_ref
        fetches, names = [], []
        for n in sorted(keys, key=lambda n: keys[n]):
            ref = _var_ref(view.objects[n])
            fetches.append(ref.value() if isinstance(ref, _ResourceRef) else ref)
            names.append(keys[n])
        values = session.run(fetches) if fetches else []
        names.append(_gv.OBJECT_GRAPH_KEY)
        values.append(np.array(view.serialize(), dtype=object))
        parent = os.path.dirname(file_prefix)
        if parent:
            os.makedirs(parent, exist_ok=True)
        _fmt.write_bundle(file_prefix, names, values)
        return file_prefix

    def save(self, file_prefix, session=None, options=None):
        """Writes checkpoint `file_prefix-<save_counter+1>`, records it in the `checkpoint` state
        file and returns its path."""
        session = _session(session)
        file_prefix = os.fspath(file_prefix)
        if self._maybe_create_save_counter():
            session.run(self._self_save_counter.initializer)
        if self._self_save_assign_op is None:
            graph = get_default_graph()
            with graph.colocate_with(self._self_save_counter.op):
                self._self_save_assign_op = self._self_save_counter.assign_add(1, read_value=True)
        number = session.run(self._self_save_assign_op)
        path = self.write("%s-%d" % (file_prefix, number), session=session, options=options)
        checkpoint_management.update_checkpoint_state_internal(
            save_dir=os.path.dirname(file_prefix), model_checkpoint_path=path,
            all_model_checkpoint_paths=[path], save_relative_paths=True)
        return path

    def restore(self, save_path):
        """A load status for `save_path` (None: a status that only initializes). Nothing runs
        until the status's `run_restore_ops` or `initialize_or_restore`."""
        if save_path is None:
            self._maybe_create_save_counter()
            return InitializationOnlyStatus(self)
        save_path = os.fspath(save_path)
        if isinstance(save_path, bytes):
            save_path = save_path.decode()
        from ..checkpoint_utils import NewCheckpointReader
        try:
            reader = NewCheckpointReader(save_path)
        except errors.NotFoundError:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find "
                                                   f"any matching files for {save_path}") from None
        self._maybe_create_save_counter()
        if not reader.has_tensor(_gv.OBJECT_GRAPH_KEY):
            status = NameBasedSaverStatus(self, save_path)
            status.add_to_optionally_restored(self._self_save_counter)
            return status
        nodes = _gv.parse(reader.get_tensor(_gv.OBJECT_GRAPH_KEY))
        return CheckpointLoadStatus(self, save_path, nodes, reader)
