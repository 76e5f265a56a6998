"""`tf.app.run`: parse flags, call main(argv), exit with its return value."""

import sys

from . import flags

__all__ = ["run", "flags"]


def run(main=None, argv=None):
    """Runs `main(argv)` (default: `__main__.main`) after parsing flags, then exits."""
    args = sys.argv if argv is None else argv
    remaining = flags.FLAGS(args, known_only=True)
    if main is None:
        main = sys.modules["__main__"].main
    sys.exit(main(remaining))
