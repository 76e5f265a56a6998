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

__all__ = ["DEMOS", "DEFAULT", "load", "positive_int", "positive_float", "add_training_arguments"]


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


def add_training_arguments(parser, defaults, optimizer="Adam"):
    """The options every training demo has: --steps, --batch-size, --learning-rate, --seed and
    --no-progress, with the demo's `defaults` (a dict with those keys, '_' for '-')."""
    parser.add_argument("--steps", type=positive_int, default=defaults["steps"],
                        help="training steps (default: %(default)s)")
    parser.add_argument("--batch-size", type=positive_int, default=defaults["batch_size"],
                        help="examples per step (default: %(default)s)")
    parser.add_argument("--learning-rate", type=positive_float, default=defaults["learning_rate"],
                        help=f"{optimizer} learning rate (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=defaults["seed"],
                        help="graph-level random seed and data-split seed (default: %(default)s)")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="do not show the progress bar")
