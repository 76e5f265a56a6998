"""Writing SavedModels (`tf.saved_model.builder.SavedModelBuilder`, `simple_save`).

Layout (TensorFlow's):  export_dir/saved_model.pb   a SavedModel proto: MetaGraphDefs with tags
                        export_dir/variables/variables.index, variables.data-00000-of-00001
"""

import os

from ..framework import graph as _graph
from ..framework import meta_graph
from . import constants, signature_def_utils, tag_constants

__all__ = ["SavedModelBuilder", "simple_save"]


def _validate_tensor_info(tensor_info):
    if tensor_info is None:
        raise AssertionError("All TensorInfo protos used in the SignatureDefs must have the name "
                             "and dtype fields set.")
    if tensor_info.WhichOneof("encoding") is None:
        raise AssertionError(f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the "
                             "SignatureDefs must have one of the 'encoding' fields (e.g., name or coo_sparse) set.")
    if tensor_info.WhichOneof("encoding") != "composite_tensor" and tensor_info.dtype == 0:
        raise AssertionError(f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the "
                             "SignatureDefs must have the dtype field set.")


def _validate_signature_def_map(signature_def_map):
    """TF's checks: every TensorInfo names a tensor and a dtype; the init/train keys are reserved."""
    signature_def_map = signature_def_map or {}
    for sig in signature_def_map.values():
        for info in list(sig.inputs.values()) + list(sig.outputs.values()):
            _validate_tensor_info(info)
    if constants.INIT_OP_SIGNATURE_KEY in signature_def_map:
        raise KeyError(f'SignatureDef map key "{constants.INIT_OP_SIGNATURE_KEY}" is reserved for '
                       "initialization. Please use a different key.")
    if constants.TRAIN_OP_SIGNATURE_KEY in signature_def_map:
        raise KeyError(f'SignatureDef map key "{constants.TRAIN_OP_SIGNATURE_KEY}" is reserved for the '
                       "train op. Please use a different key.")


class SavedModelBuilder:
    """Builds a SavedModel: one or more MetaGraphDefs (by tag set) sharing one set of variables."""

    def __init__(self, export_dir):
        from ..protos.saved_model_pb2 import SavedModel
        self._export_dir = os.fspath(export_dir)
        if os.path.exists(self._export_dir):
            if os.listdir(self._export_dir):
                raise AssertionError(
                    f"Export directory {export_dir} already exists, and isn't empty. Please choose a different "
                    "export directory, or delete all the contents of the specified directory.")
        else:
            os.makedirs(self._export_dir)
        self._saved_model = SavedModel(saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False

    def _check_tags(self, tags):
        if isinstance(tags, str) or not isinstance(tags, (list, tuple, set, frozenset)):
            raise TypeError(f"tags must be a list/tuple/set of strings, got {tags!r}")
        # TF adds a second MetaGraphDef with the same tags without complaint (load finds the first)

    def _add_meta_graph(self, tags, signature_def_map, saver, main_op, legacy_init_op, clear_devices,
                        strip_default_attrs, graph):
        if main_op is not None and legacy_init_op is not None:
            raise ValueError("Only one of main_op and legacy_init_op may be provided.")
        _validate_signature_def_map(signature_def_map)
        init = main_op if main_op is not None else legacy_init_op
        if init is not None:
            op = getattr(init, "op", init) if not isinstance(init, _graph.Operation) else init
            key = constants.MAIN_OP_KEY if main_op is not None else constants.LEGACY_INIT_OP_KEY
            col = graph.get_collection_ref(key)
            if op not in col:
                del col[:]
                col.append(op)
        mgd = meta_graph.export_meta_graph(graph=graph, saver_def=saver.saver_def if saver is not None else None,
                                           clear_devices=clear_devices, strip_default_attrs=strip_default_attrs,
                                           clear_extraneous_savers=True)
        mgd.meta_info_def.tags.extend(tags)
        for key, sig in (signature_def_map or {}).items():
            mgd.signature_def[key].CopyFrom(sig)
        self._saved_model.meta_graphs.append(mgd)
        return mgd

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Saves the session's variables under export_dir/variables and adds the session's graph
        as a MetaGraphDef with `tags` and signatures."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. "
                                 "Please invoke `add_meta_graph()` instead.")
        self._check_tags(tags)
        from ..train.saver import Saver
        graph = sess.graph
        with graph.as_default():
            if saver is None:
                saver = Saver(allow_empty=True, name="save")
            var_dir = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
            os.makedirs(var_dir, exist_ok=True)
            saver.save(sess, os.path.join(var_dir, constants.VARIABLES_FILENAME), write_meta_graph=False,
                       write_state=False)
            self._add_meta_graph(tags, signature_def_map, saver, main_op, legacy_init_op, clear_devices,
                                 strip_default_attrs, graph)
        self._has_saved_variables = True
        self._saver_def = saver.saver_def

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None):
        """Adds the default graph as another MetaGraphDef (variables must be saved already)."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. "
                                 "Please invoke `add_meta_graph_and_variables()` first.")
        self._check_tags(tags)
        graph = _graph.get_default_graph()
        if saver is None:
            from ..train.saver import Saver
            with graph.as_default():
                saver = Saver(allow_empty=True, name="save")
        self._add_meta_graph(tags, signature_def_map, saver, main_op, legacy_init_op, clear_devices,
                             strip_default_attrs, graph)

    def save(self, as_text=False):
        """Writes saved_model.pb (or .pbtxt); returns its path (bytes, as TF)."""
        from google.protobuf import text_format
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode()
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString()
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return path.encode()


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Saves `session`'s graph and variables as a SavedModel for serving: tag "serve", one
    predict signature "serving_default" from the `inputs`/`outputs` dicts of Tensors."""
    sig = {"serving_default": signature_def_utils.predict_signature_def(inputs, outputs)}
    b = SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING], signature_def_map=sig,
                                   main_op=legacy_init_op, clear_devices=True)
    b.save()
