"""`tf.gfile` / `tf.io.gfile`: file-system helpers on local files (TF1 names)."""

import glob as _glob
import os
import shutil

from ..framework import errors

__all__ = ["Exists", "MakeDirs", "MkDir", "DeleteRecursively", "Remove", "Rename", "Copy", "Glob",
           "IsDirectory", "ListDirectory", "Walk", "GFile", "Open", "FastGFile", "Stat"]


def _not_found(path, e):
    return errors.NotFoundError(None, None, f"{path}; {e.strerror or 'No such file or directory'}")


def Exists(filename):  # noqa: N802
    return os.path.exists(filename)


def MakeDirs(dirname):  # noqa: N802
    os.makedirs(dirname, exist_ok=True)


def MkDir(dirname):  # noqa: N802
    try:
        os.mkdir(dirname)
    except FileExistsError:
        raise errors.AlreadyExistsError(None, None, f"{dirname}; File exists") from None
    except FileNotFoundError as e:
        raise _not_found(dirname, e) from None


def DeleteRecursively(dirname):  # noqa: N802
    try:
        if os.path.isdir(dirname):
            shutil.rmtree(dirname)
        else:
            os.remove(dirname)
    except FileNotFoundError as e:
        raise _not_found(dirname, e) from None


def Remove(filename):  # noqa: N802
    try:
        os.remove(filename)
    except FileNotFoundError as e:
        raise _not_found(filename, e) from None


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    if not overwrite and os.path.exists(newname):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {newname}")
    try:
        os.replace(oldname, newname)
    except FileNotFoundError as e:
        raise _not_found(oldname, e) from None


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802
    if not overwrite and os.path.exists(newpath):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {newpath}")
    try:
        shutil.copyfile(oldpath, newpath)
    except FileNotFoundError as e:
        raise _not_found(oldpath, e) from None


def Glob(filename):  # noqa: N802
    return sorted(_glob.glob(filename))


def IsDirectory(dirname):  # noqa: N802
    return os.path.isdir(dirname)


def ListDirectory(dirname):  # noqa: N802
    try:
        return os.listdir(dirname)
    except FileNotFoundError as e:
        raise _not_found(dirname, e) from None


def Walk(top, in_order=True):  # noqa: N802
    yield from os.walk(top, topdown=in_order)


class _Stat:
    def __init__(self, st):
        self.length = st.st_size
        self.mtime_nsec = st.st_mtime_ns
        self.is_directory = os.path.isdir


def Stat(filename):  # noqa: N802
    try:
        st = os.stat(filename)
    except FileNotFoundError as e:
        raise _not_found(filename, e) from None
    s = _Stat(st)
    s.is_directory = os.path.isdir(filename)
    return s


class GFile:
    """A file object (`tf.gfile.GFile(name, mode)`); missing files raise NotFoundError."""

    def __init__(self, name, mode="r"):
        self.name = name
        self.mode = mode
        try:
            self._f = open(name, mode)
        except FileNotFoundError as e:
            raise _not_found(name, e) from None

    def __getattr__(self, attr):
        return getattr(self._f, attr)

    def __iter__(self):
        return iter(self._f)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()
        return False

    def size(self):
        return os.path.getsize(self.name)


Open = GFile
FastGFile = GFile
