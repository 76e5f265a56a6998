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

__all__ = ["DEMOS", "DEFAULT", "load"]


def load(name):
    """Imports and returns the module of demo `name`."""
    try:
        module = DEMOS[name]
    except KeyError:
        raise ValueError("unknown demo %r; available: %s" % (name, ", ".join(DEMOS))) from None
    return importlib.import_module(module, __name__)
