"""`tf.gfile` / `tf.io.gfile`: file-system helpers on local files (TF1 names)."""

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
    from .io_gfile import glob
    return glob(filename)


def IsDirectory(dirname):  # noqa: N802
    return os.path.isdir(dirname)


def ListDirectory(dirname):  # noqa: N802
    try:
        return os.listdir(dirname)
    except FileNotFoundError as e:
        raise _not_found(dirname, e) from None


def Walk(top, in_order=True):  # noqa: N802
    yield from os.walk(top, topdown=in_order)


class FileStatistics:
    """What `Stat` returns: `length` (bytes), `mtime_nsec` and `is_directory`."""

    def __init__(self, length=0, mtime_nsec=0, is_directory=False):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


def Stat(filename):  # noqa: N802
    """A FileStatistics for `filename`; NotFoundError when it does not exist."""
    try:
        st = os.stat(filename)
    except FileNotFoundError as e:
        raise _not_found(filename, e) from None
    # TF's POSIX file system reports whole seconds (st_mtime * 1e9).
    return FileStatistics(st.st_size, int(st.st_mtime) * 1000000000, os.path.isdir(filename))


class GFile:
    """A file object (`tf.gfile.GFile(name, mode)`), as TF's FileIO: the file is opened at the first
    read or write (a missing file raises NotFoundError then); mode is r, w, a, r+, w+ or a+, with
    `b` for bytes; `read(n)` counts bytes; iterating gives lines."""

    def __init__(self, name, mode="r", encoding="utf-8"):
        self._name, self._mode, self._encoding = name, mode, encoding
        self._binary = "b" in mode
        m = mode.replace("b", "")
        if m not in ("r", "w", "a", "r+", "w+", "a+"):
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._can_read = m in ("r", "r+", "a+", "w+")
        self._can_write = m in ("a", "w", "r+", "a+", "w+")
        self._write_mode = {"w": "wb", "w+": "wb", "a": "ab", "a+": "ab", "r+": "r+b"}.get(m)
        self._rf = self._wf = None

    name = property(lambda self: self._name, doc="The file name.")
    mode = property(lambda self: self._mode, doc="The mode the file was opened with.")

    def _reader(self):
        if self._rf is None:
            if not self._can_read:
                raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
            if self._wf is not None:
                self._wf.flush()
            try:
                self._rf = open(self._name, "rb")
            except FileNotFoundError as e:
                raise _not_found(self._name, e) from None
            except IsADirectoryError:
                raise errors.FailedPreconditionError(None, None, f"{self._name}; Is a directory") from None
        return self._rf

    def _writer(self):
        if self._wf is None:
            if not self._can_write:
                raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
            try:
                self._wf = open(self._name, self._write_mode)
            except FileNotFoundError as e:
                raise _not_found(self._name, e) from None
            except IsADirectoryError:
                raise errors.FailedPreconditionError(None, None, f"{self._name}; Is a directory") from None
        return self._wf

    def _value(self, b):
        return b if self._binary else b.decode(self._encoding)

    def size(self):
        """The file's size in bytes."""
        return Stat(self._name).length

    def write(self, file_content):
        """Appends `file_content` (str or bytes) at the end of what was written."""
        if isinstance(file_content, str):
            file_content = file_content.encode(self._encoding)
        elif not isinstance(file_content, (bytes, bytearray)):
            raise TypeError(f"Expected binary or unicode string, got {file_content!r}")
        self._writer().write(bytes(file_content))

    def read(self, n=-1):
        """The next `n` bytes (all the rest when -1), as str or bytes by the mode."""
        f = self._reader()
        return self._value(f.read() if n == -1 else f.read(n))

    def readline(self):
        """The next line with its newline; '' at the end."""
        return self._value(self._reader().readline())

    def readlines(self):
        """The remaining lines."""
        return [self._value(line) for line in self._reader().readlines()]

    def seek(self, offset=None, whence=0, position=None):
        """Moves the read position (whence 0: from the start, 1: from here, 2: from the end)."""
        f = self._reader()
        if offset is None and position is None:
            raise TypeError("seek(): offset argument required")
        if offset is not None and position is not None:
            raise TypeError("seek(): offset and position may not be set simultaneously.")
        offset = position if position is not None else offset
        if whence not in (0, 1, 2):
            raise errors.InvalidArgumentError(None, None,
                                              f"Invalid whence argument: {whence}. Valid values are 0, 1, or 2.")
        f.seek(offset, whence)

    def tell(self):
        """The current position (reading position for readable modes)."""
        return self._reader().tell() if self._can_read else self._writer().tell()

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration()
        return line

    next = __next__

    def flush(self):
        """Pushes written data to the file."""
        if self._wf is not None:
            self._wf.flush()

    def close(self):
        """Closes the file (writes reach it at the latest here)."""
        for f in (self._rf, self._wf):
            if f is not None:
                f.close()
        self._rf = self._wf = None

    def seekable(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


Open = GFile
FastGFile = GFile
