"""`tf.logging`: TF1's logging functions on Python's `logging` (logger "tensorflow")."""

import logging as _logging
import sys

__all__ = ["DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "debug", "info", "warn", "warning",
           "error", "fatal", "log", "set_verbosity", "get_verbosity", "log_every_n", "log_first_n",
           "log_if", "vlog", "flush", "TaskLevelStatusMessage"]

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = WARNING = _logging.WARNING
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_logger = _logging.getLogger("tensorflow")
if not _logger.handlers:
    _handler = _logging.StreamHandler(sys.stderr)
    _handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    _logger.addHandler(_handler)
    _logger.propagate = False
_logger.setLevel(WARN)


def set_verbosity(v):
    _logger.setLevel(v)


def get_verbosity():
    return _logger.getEffectiveLevel()


def log(level, msg, *args, **kwargs):
    _logger.log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    _logger.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _logger.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _logger.warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _logger.error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    _logger.fatal(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    _logger.log(level, msg, *args, **kwargs)


_counts = {}


def log_every_n(level, msg, n, *args):
    key = (msg, n)
    c = _counts.get(key, 0)
    _counts[key] = c + 1
    if c % n == 0:
        _logger.log(level, msg, *args)


def log_first_n(level, msg, n, *args):
    key = (msg, -n)
    c = _counts.get(key, 0)
    _counts[key] = c + 1
    if c < n:
        _logger.log(level, msg, *args)


def log_if(level, msg, condition, *args):
    if condition:
        _logger.log(level, msg, *args)


def TaskLevelStatusMessage(msg):  # noqa: N802  (TF's name)
    """Logs `msg` at ERROR level, as TF does."""
    error(msg)


def flush():
    """Raises NotImplementedError, exactly as TF1's tf.logging.flush does."""
    raise NotImplementedError()
