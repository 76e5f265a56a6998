"""`Model.save_weights` / `load_weights` in TF's checkpoint format, as TF's keras writes them: an
object-based checkpoint whose root is the model (keys such as
`layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, the optimizer and its slots when they
exist), plus a `checkpoint` state file naming it. Loading matches by position in the object
graph, so a fresh model of the same architecture (other layer names) loads the weights.

HDF5 files (`.h5`, `.keras`, `.hdf5` or `save_format="h5"`) need h5py, as in TF: when it cannot
be imported, TF's ImportError is raised."""

import os

from ..train import checkpoint_management
from ..train.tracking import graph_view as _gv
from ..train.tracking.checkpoint import Checkpoint
from . import backend as K

_H5_SUFFIXES = (".h5", ".keras", ".hdf5")


class _ModelRoot(Checkpoint):
    """A checkpoint whose root's children are the model's own (no save counter)."""

    def __init__(self, model):
        super().__init__()
        self._self_model = model

    def _checkpoint_children(self):
        return _gv.children(self._self_model)

    def _maybe_create_save_counter(self):
        return False  # TF's keras weights carry no save_counter


def is_h5(filepath, save_format=None):
    if save_format is not None:
        fmt = str(save_format).lower().strip()
        if fmt in ("h5", "hdf5", "keras"):
            return True
        if fmt in ("tf", "tensorflow"):
            return False
        raise ValueError(f"Unknown format. Received: `save_format`={save_format}. Was expecting "
                         "one of {\"tf\", \"h5\"}.")
    return str(filepath).endswith(_H5_SUFFIXES)


def h5py_or_raise(message):
    try:
        import h5py
    except ImportError:
        raise ImportError(message) from None
    return h5py


def save_weights(model, filepath, overwrite=True, save_format=None):
    """Writes the model's weights (TF checkpoint, or HDF5 through h5py)."""
    filepath = os.fspath(filepath)
    if is_h5(filepath, save_format):
        from . import h5_format
        h5py = h5py_or_raise("`save_weights` requires h5py when saving in hdf5, but h5py is not "
                             "available. Try installing h5py package.")
        with h5py.File(filepath, "w") as f:
            h5_format.save_weights_to_group(f, model.layers)
        return None
    root = _ModelRoot(model)
    root.write(filepath, session=K.get_session())
    checkpoint_management.update_checkpoint_state_internal(
        save_dir=os.path.dirname(filepath) or ".", model_checkpoint_path=filepath,
        all_model_checkpoint_paths=[filepath], save_relative_paths=True)
    return None


def load_weights(model, filepath, by_name=False, skip_mismatch=False):
    """Restores weights written by `save_weights`; returns the load status for TF-format files.
    HDF5 weights load in layer order, or by layer name with `by_name`."""
    filepath = os.fspath(filepath)
    if is_h5(filepath):
        from . import h5_format
        h5py = h5py_or_raise("`load_weights` requires h5py package when loading weights from "
                             "HDF5. Try installing h5py.")
        with h5py.File(filepath, "r") as f:
            group = f["model_weights"] if "model_weights" in f else f
            if by_name:
                h5_format.load_weights_from_group_by_name(group, model.layers, skip_mismatch)
            else:
                h5_format.load_weights_from_group(group, model.layers)
        return None
    status = _ModelRoot(model).restore(filepath)
    status.run_restore_ops(K.get_session())
    return status
