"""`tensorweave inspect PATH`: what a checkpoint (prefix or directory) or a SavedModel holds."""

import os


def _shape(proto):
    if proto.unknown_rank:
        return "unknown"
    return "(" + ", ".join("?" if d.size < 0 else str(d.size) for d in proto.dim) + \
        ("," if len(proto.dim) == 1 else "") + ")"


def _dtype_name(enum):
    from ..framework import dtypes
    try:
        return dtypes.as_dtype(enum).name
    except TypeError:
        return f"DataType({enum})"


def _list_checkpoint(prefix, out):
    from ..train import checkpoint_utils
    reader = checkpoint_utils.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    dtypes = reader.get_variable_to_dtype_map() if hasattr(reader, "get_variable_to_dtype_map") else {}
    out.append(f"checkpoint: {prefix}")
    out.append(f"  {len(shapes)} variables:")
    width = max((len(n) for n in shapes), default=0)
    for name in sorted(shapes):
        dt = dtypes.get(name)
        dt = getattr(dt, "name", dt) or "?"
        out.append(f"    {name:<{width}}  {dt:<8}  {list(shapes[name])}")


def inspect_path(path):
    """The report lines for `path` (raises IOError/ValueError when it is nothing we know)."""
    from ..saved_model import loader
    out = []
    if os.path.isdir(path) and loader.maybe_saved_model_directory(path):
        sm = loader.read_saved_model(path)
        out.append(f"SavedModel: {path} (schema version {sm.saved_model_schema_version})")
        for mgd in sm.meta_graphs:
            out.append(f"  MetaGraphDef with tags {sorted(mgd.meta_info_def.tags)}: "
                       f"{len(mgd.graph_def.node)} nodes")
            for key in sorted(mgd.signature_def):
                sig = mgd.signature_def[key]
                out.append(f"    signature '{key}' ({sig.method_name}):")
                for kind, infos in (("input", sig.inputs), ("output", sig.outputs)):
                    for k in sorted(infos):
                        i = infos[k]
                        out.append(f"      {kind} {k}: {i.name}  {_dtype_name(i.dtype)}  {_shape(i.tensor_shape)}")
        prefix = os.path.join(path, "variables", "variables")
        if os.path.exists(prefix + ".index"):
            _list_checkpoint(prefix, out)
        else:
            out.append("  (no variables)")
        return out
    if os.path.isdir(path):
        from ..train.checkpoint_management import latest_checkpoint
        prefix = latest_checkpoint(path)
        if prefix is None:
            raise IOError(f"{path}: no SavedModel (saved_model.pb) and no checkpoint (a 'checkpoint' file) here")
        _list_checkpoint(prefix, out)
        return out
    if os.path.exists(path + ".index") or os.path.exists(path):
        prefix = path[:-len(".index")] if path.endswith(".index") else path
        _list_checkpoint(prefix, out)
        return out
    raise IOError(f"{path}: no such checkpoint prefix, checkpoint directory or SavedModel directory")
