"""Loading SavedModels (`tf.saved_model.loader.load`)."""

import os

from ..framework import meta_graph
from . import constants

__all__ = ["load", "maybe_saved_model_directory", "read_saved_model", "find_meta_graph"]


def maybe_saved_model_directory(export_dir):
    """True if `export_dir` holds a saved_model.pb or saved_model.pbtxt."""
    export_dir = os.fsdecode(export_dir)   # bytes too, as Estimator.export_saved_model returns
    return any(os.path.isfile(os.path.join(export_dir, f))
               for f in (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


def read_saved_model(export_dir):
    """The SavedModel proto of `export_dir` (IOError if there is none)."""
    from google.protobuf import text_format
    from ..protos.saved_model_pb2 import SavedModel
    export_dir = os.fsdecode(export_dir)   # bytes too, as Estimator.export_saved_model returns
    pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    txt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    sm = SavedModel()
    if os.path.isfile(pb):
        with open(pb, "rb") as f:
            try:
                sm.ParseFromString(f.read())
            except Exception as e:  # noqa: BLE001
                raise IOError(f"Cannot parse file {pb}: {e}.") from None
    elif os.path.isfile(txt):
        with open(txt, "rb") as f:
            text_format.Merge(f.read().decode(), sm)
    else:
        raise IOError(f"SavedModel file does not exist at: {export_dir}{os.sep}"
                      f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|{constants.SAVED_MODEL_FILENAME_PB}}}")
    return sm


def find_meta_graph(saved_model, tags, export_dir=""):
    wanted = set(tags)
    available = []
    for mgd in saved_model.meta_graphs:
        available.append(set(mgd.meta_info_def.tags))
        if set(mgd.meta_info_def.tags) == wanted:
            return mgd
    # TF 2.21's wording (tags as str(list).strip('[]'), the tag sets as Python sets); del export_dir
    raise RuntimeError(f"MetaGraphDef associated with tags {str(tags).strip('[]')} could not be found in "
                       f"SavedModel, with available tags '{available}'. To inspect available tag-sets in the "
                       "SavedModel, please use the SavedModel CLI: `saved_model_cli`.")


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Loads the MetaGraphDef with `tags` from a SavedModel into `sess`'s graph, restores the
    variables, runs the main (or legacy init) op; returns the MetaGraphDef."""
    if isinstance(tags, str):
        raise TypeError("tags must be a list of strings (e.g. [tf.saved_model.tag_constants.SERVING])")
    export_dir = os.fsdecode(export_dir)   # bytes too, as Estimator.export_saved_model returns
    sm = read_saved_model(export_dir)
    mgd = find_meta_graph(sm, tags, export_dir)
    with sess.graph.as_default():
        saver = meta_graph.import_meta_graph(mgd, import_scope=import_scope, **saver_kwargs)
        var_prefix = os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
        if saver is not None and os.path.exists(var_prefix + ".index"):
            saver.restore(sess, var_prefix)
        g = sess.graph
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            ops = g.get_collection(key)
            if ops:
                sess.run(ops[0])
                break
    return mgd
