"""The `checkpoint` state file and checkpoint bookkeeping: latest_checkpoint,
get_checkpoint_state, update_checkpoint_state, checkpoint_exists, get_checkpoint_mtimes,
remove_checkpoint, meta_graph_filename.

The state file is TF's text format of a CheckpointState message:

    model_checkpoint_path: "/tmp/train/model.ckpt-300"
    all_model_checkpoint_paths: "/tmp/train/model.ckpt-200"
    all_model_checkpoint_paths: "/tmp/train/model.ckpt-300"

It is written atomically (temporary file, fsync, rename), so a crash leaves the old one.
"""

import os
import re

from ..platform import tf_logging as logging
from . import checkpoint_format as _fmt

__all__ = ["CheckpointState", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "get_checkpoint_state", "latest_checkpoint", "checkpoint_exists", "get_checkpoint_mtimes",
           "remove_checkpoint", "meta_graph_filename"]


class CheckpointState:
    """The fields of TF's CheckpointState proto (model_checkpoint_path, all_model_checkpoint_paths,
    all_model_checkpoint_timestamps, last_preserved_timestamp)."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and vars(self) == vars(other)

    def __repr__(self):
        return to_text(self)

    __str__ = __repr__


# -- text format ---------------------------------------------------------------------------------

def _escape(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "'":
            out.append("\\'")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return "".join(out)


_ESC = {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", '"': b'"', "'": b"'", "a": b"\a", "b": b"\b",
        "f": b"\f", "v": b"\v", "?": b"?"}


def _unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        n = s[i + 1] if i + 1 < len(s) else ""
        if n in _ESC:
            out += _ESC[n]
            i += 2
        elif n in "01234567" and n:
            m = re.match(r"[0-7]{1,3}", s[i + 1:])
            out.append(int(m.group(0), 8) & 0xFF)
            i += 1 + len(m.group(0))
        elif n in "xX" and n:
            m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
            if not m:
                raise ValueError("bad \\x escape")
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        else:
            raise ValueError(f"invalid escape sequence \\{n}")
    return out.decode("utf-8")


def to_text(state):
    lines = [f'model_checkpoint_path: "{_escape(state.model_checkpoint_path)}"']
    lines += [f'all_model_checkpoint_paths: "{_escape(p)}"' for p in state.all_model_checkpoint_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in state.all_model_checkpoint_timestamps]
    if state.last_preserved_timestamp:
        lines.append(f"last_preserved_timestamp: {state.last_preserved_timestamp!r}")
    return "\n".join(lines) + "\n"


_LINE = re.compile(r'\s*([A-Za-z_]+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|([-+0-9.eE]+|inf|nan))\s*$')


def parse_text(text):
    """Parses the state file's text; ValueError if it is malformed."""
    state = CheckpointState()
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"{lineno}: cannot parse {line!r}")
        key, dq, sq, num = m.groups()
        if key in ("model_checkpoint_path", "all_model_checkpoint_paths"):
            if dq is None and sq is None:
                raise ValueError(f"{lineno}: expected a string for {key}")
            value = _unescape(dq if dq is not None else sq)
            if key == "model_checkpoint_path":
                state.model_checkpoint_path = value
            else:
                state.all_model_checkpoint_paths.append(value)
        elif key in ("all_model_checkpoint_timestamps", "last_preserved_timestamp"):
            if num is None:
                raise ValueError(f"{lineno}: expected a number for {key}")
            if key == "last_preserved_timestamp":
                state.last_preserved_timestamp = float(num)
            else:
                state.all_model_checkpoint_timestamps.append(float(num))
        else:
            raise ValueError(f'{lineno}: Message type "tensorflow.CheckpointState" has no field named "{key}".')
    return state


# -- the state file -------------------------------------------------------------------------------

def _get_checkpoint_filename(save_dir, latest_filename):
    return os.path.join(save_dir, latest_filename or "checkpoint")


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """A CheckpointState; paths are made relative to `save_dir` when `save_dir` is relative and
    they lie in it (as TF does), and model_checkpoint_path is appended to the list if missing."""
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    all_model_checkpoint_paths = list(all_model_checkpoint_paths)
    if not all_model_checkpoint_paths or all_model_checkpoint_paths[-1] != model_checkpoint_path:
        logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.", model_checkpoint_path)
        all_model_checkpoint_paths.append(model_checkpoint_path)
    if all_model_checkpoint_timestamps and len(all_model_checkpoint_timestamps) != len(all_model_checkpoint_paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got paths "
                         f"{all_model_checkpoint_paths} and timestamps {all_model_checkpoint_timestamps})")
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        all_model_checkpoint_paths = [p if os.path.isabs(p) else os.path.relpath(p, save_dir)
                                      for p in all_model_checkpoint_paths]
    return CheckpointState(model_checkpoint_path, all_model_checkpoint_paths,
                           all_model_checkpoint_timestamps or (), last_preserved_timestamp or 0.0)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
    """Writes the `checkpoint` state file in `save_dir` (atomically)."""
    update_checkpoint_state_internal(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                     latest_filename, save_relative_paths=False,
                                     all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
                                     last_preserved_timestamp=last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                     latest_filename=None, save_relative_paths=False,
                                     all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    coord_checkpoint_filename = _get_checkpoint_filename(save_dir, latest_filename)
    if save_relative_paths:
        rel = lambda p: os.path.relpath(p, save_dir) if os.path.isabs(p) else p  # noqa: E731
        model_checkpoint_path = rel(model_checkpoint_path)
        all_model_checkpoint_paths = [rel(p) for p in (all_model_checkpoint_paths or [])]
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps, last_preserved_timestamp)
    if coord_checkpoint_filename == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for checkpoint "
                           f"state.  Please use a different save path.")
    with _fmt.atomic_write(coord_checkpoint_filename) as f:
        f.write(to_text(state).encode())


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in `checkpoint_dir`'s state file, or None if there is none.

    Relative paths in the file are made relative to `checkpoint_dir`."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    coord_checkpoint_filename = _get_checkpoint_filename(checkpoint_dir, latest_filename)
    try:
        with open(coord_checkpoint_filename, "rb") as f:
            text = f.read().decode("utf-8")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as e:
        logging.warning("%s: %s: Checkpoint ignored", coord_checkpoint_filename, e)
        return None
    try:
        ckpt = parse_text(text)
    except ValueError as e:
        logging.warning("%s: %s: Checkpoint ignored", coord_checkpoint_filename, e)
        return None
    if not ckpt.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(ckpt.model_checkpoint_path):
        ckpt.model_checkpoint_path = os.path.join(checkpoint_dir, ckpt.model_checkpoint_path)
    ckpt.all_model_checkpoint_paths = [p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)
                                       for p in ckpt.all_model_checkpoint_paths]
    return ckpt


def checkpoint_exists(checkpoint_prefix):
    """Whether a checkpoint exists for `checkpoint_prefix`: its index file, or (as TF, which then
    tries the V1 format) any file the prefix matches as a pattern."""
    checkpoint_prefix = os.fspath(checkpoint_prefix)
    if isinstance(checkpoint_prefix, bytes):
        checkpoint_prefix = checkpoint_prefix.decode()
    return _fmt.bundle_exists(checkpoint_prefix) or bool(_fmt.matching_files(checkpoint_prefix))


checkpoint_exists_internal = checkpoint_exists


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    ckpt = get_checkpoint_state(checkpoint_dir, latest_filename)
    if ckpt and ckpt.model_checkpoint_path:
        if checkpoint_exists(ckpt.model_checkpoint_path):
            return ckpt.model_checkpoint_path
        logging.error("Couldn't match files for checkpoint %s", ckpt.model_checkpoint_path)
    return None


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times (seconds) of the checkpoints' index files (missing ones skipped)."""
    mtimes = []
    for prefix in checkpoint_prefixes:
        try:
            mtimes.append(os.stat(_fmt.index_filename(prefix)).st_mtime)
        except OSError:
            pass
    return mtimes


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Deletes a checkpoint's index, data files and meta graph."""
    _fmt.delete_bundle(checkpoint_prefix)
    try:
        os.remove(meta_graph_filename(checkpoint_prefix, meta_graph_suffix))
    except OSError:
        pass


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """"model.ckpt-100" -> "model.ckpt-100.meta" (a sharded "-?????-of-00002" suffix dropped)."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])

