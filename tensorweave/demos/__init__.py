"""Demos run by `tensorweave demo <name>`.

To add one, write ``tensorweave/demos/<name>.py`` with ``SUMMARY`` (one line for --help),
``add_arguments(parser)`` and ``main(args) -> exit status``, and list it in ``DEMOS`` below.
Demo modules are imported only when chosen, so ``tensorweave --help`` stays fast.
"""

import importlib

# name -> module (relative to this package). The first entry is the default demo.
DEMOS = {
    "digits": ".digits",
    "ptb": ".ptb",
    "lenet": ".lenet",
}
DEFAULT = "digits"

__all__ = ["DEMOS", "DEFAULT", "load", "positive_int", "positive_float"]


def load(name):
    """Imports and returns the module of demo `name`."""
    try:
        module = DEMOS[name]
    except KeyError:
        raise ValueError("unknown demo %r; available: %s" % (name, ", ".join(DEMOS))) from None
    return importlib.import_module(module, __name__)


def positive_int(text):
    """argparse type: an integer >= 1 (demos' --steps, --batch-size...)."""
    import argparse
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: %r" % text) from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, got %d" % value)
    return value


def positive_float(text):
    """argparse type: a number > 0 (demos' --learning-rate)."""
    import argparse
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text) from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be positive, got %r" % text)
    return value
