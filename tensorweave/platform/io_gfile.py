"""`tf.io.gfile`: TF2's lower-case file-system functions on local files, with TF's error classes
and messages (NotFoundError, AlreadyExistsError, FailedPreconditionError)."""

import glob as _glob
import os
import shutil
import fnmatch
from posixpath import join as _urljoin

from ..framework import errors
from .gfile import GFile, Stat, _not_found

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk"]


def exists(path):
    """Whether `path` (a file or directory) exists."""
    return os.path.exists(path)


def isdir(path):
    """Whether `path` is a directory."""
    return os.path.isdir(path)


def mkdir(path):
    """Creates directory `path`; its parent must exist (NotFoundError otherwise)."""
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise errors.FailedPreconditionError(None, None, f"{path} is not a directory") from None
    except FileNotFoundError as e:
        raise _not_found(path, e) from None


def makedirs(path):
    """Creates `path` and any missing parents; an existing directory is fine."""
    p = path.rstrip("/") or "/"
    if os.path.exists(p) and not os.path.isdir(p):
        raise errors.FailedPreconditionError(None, None, f"{path} is not a directory")
    parent = os.path.dirname(p)
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if parent and not os.path.isdir(parent):
        raise errors.FailedPreconditionError(None, None, f"{parent} is not a directory")
    os.makedirs(p, exist_ok=True)


def listdir(path):
    """The names in directory `path` (not sorted; NotFoundError when it is not a directory)."""
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return os.listdir(path)


def glob(pattern):
    """The paths matching `pattern` (`*`, `?`, `[...]`). As TF's, the directories matched on the
    way are visited in sorted order, each one's matches come in directory order, and a relative
    pattern with no fixed directory (`*.txt`) gives `./a.txt`."""
    if not _glob.has_magic(pattern):
        return [pattern] if os.path.exists(pattern) else []
    parts = pattern.split("/")
    fixed = 0
    while not _glob.has_magic(parts[fixed]):
        fixed += 1
    # (a pattern with no fixed directory is matched in ".", and TF's results then start "./")
    bases = ["/".join(parts[:fixed]) if fixed else ("." if not pattern.startswith("/") else "/")]
    for i, part in enumerate(parts[fixed:]):
        last = i == len(parts) - fixed - 1
        out = []
        for base in bases:
            names = [part] if not _glob.has_magic(part) else \
                (fnmatch.filter(os.listdir(base or "."), part) if os.path.isdir(base or ".") else [])
            for n in names:
                p = os.path.join(base, n) if base else n
                if os.path.exists(p) and (last or os.path.isdir(p)):
                    out.append(p)
        bases = out if last else sorted(out)
    return bases


def stat(path):
    """A FileStatistics (`length`, `mtime_nsec`, `is_directory`) for `path`."""
    return Stat(path)


def _check_target(dst, overwrite):
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")


def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst` (AlreadyExistsError when `dst` exists unless `overwrite`)."""
    _check_target(dst, overwrite)
    try:
        shutil.copyfile(src, dst)
    except FileNotFoundError as e:
        raise _not_found(src if not os.path.exists(src) else dst, e) from None


def rename(src, dst, overwrite=False):
    """Moves `src` to `dst` (AlreadyExistsError when `dst` exists unless `overwrite`)."""
    _check_target(dst, overwrite)
    try:
        os.replace(src, dst)
    except FileNotFoundError as e:
        raise _not_found(src if not os.path.exists(src) else dst, e) from None


def remove(path):
    """Deletes file `path` (NotFoundError when missing, FailedPreconditionError for a directory)."""
    try:
        os.remove(path)
    except FileNotFoundError as e:
        raise _not_found(path, e) from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None


def rmtree(path):
    """Deletes `path` and everything under it (NotFoundError when missing)."""
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"{path} not found")
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.remove(path)


def join(path, *paths):
    """Joins path components; URLs ('gs://b', ...) are joined with '/', local paths as os.path.join."""
    if "://" in str(path)[1:]:
        return _urljoin(path, *paths)
    return os.path.join(path, *paths)


def walk(top, topdown=True, onerror=None):
    """Yields (dirname, subdirectory names, file names) for `top` and each directory below it
    (pre-order when `topdown`); a missing `top` yields nothing unless `onerror` is given."""
    try:
        names = listdir(top)
    except errors.NotFoundError as e:
        if onerror:
            onerror(e)
        return
    subdirs, files = [], []
    for n in names:
        (subdirs if os.path.isdir(os.path.join(top, n)) else files).append(n)
    here = (top, subdirs, files)
    if topdown:
        yield here
    for d in subdirs:
        yield from walk(os.path.join(top, d), topdown, onerror)
    if not topdown:
        yield here


def get_registered_schemes():
    """The URL schemes file paths may use: '' and 'file' (local files) here; TF also lists the
    cloud schemes of its build (gs, ...), which tensorweave does not read."""
    return ["", "file"]
