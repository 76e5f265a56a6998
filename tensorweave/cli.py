"""The `tensorweave` command (also `python -m tensorweave`).

Subcommands are small: each is a function `_cmd_<name>(args)` plus a parser built in
`_build_parser`; demos live in `tensorweave.demos` (see its docstring to add one).
"""

import argparse
import sys

from . import __version__, demos

DESCRIPTION = """\
tensorweave runs TensorFlow 1.x graph programs on a NumPy runtime.

You build a dataflow graph with TensorFlow 1.x's API (tf.placeholder, tf.Variable,
tf.matmul, tf.train.AdamOptimizer, ...) and run it with tf.Session; a classic TF1
program works unchanged with `import tensorweave as tf`. Graphs are compiled once
per (fetches, feeds) signature into a flat plan of NumPy kernel calls, with
automatic differentiation and in-place variable updates.
"""

EPILOG = """\
examples:
  tensorweave demo                  train a small network on handwritten digits
  tensorweave demo digits --steps 200 --seed 1
  tensorweave demo --list           list the available demos
  tensorweave --version

in Python:
  import tensorweave as tf
  x = tf.placeholder(tf.float32, [None, 3])
  y = tf.reduce_sum(x * 2.0)
  with tf.Session() as sess:
      print(sess.run(y, {x: [[1, 2, 3]]}))      # 12.0

docs: README.md; examples/ holds programs to copy.
"""


def _cmd_demo(args, parser):
    if args.list:
        for name in demos.DEMOS:
            print("%-10s %s" % (name, demos.load(name).SUMMARY))
        return 0
    return args.demo_main(args)


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="tensorweave", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version="tensorweave %s (Python %s)" % (__version__, sys.version.split()[0]))
    commands = parser.add_subparsers(dest="command", metavar="<command>", title="commands")

    demo = commands.add_parser(
        "demo", help="run a demo that trains a model end to end (default: digits)",
        description="Run a demo: a complete TF1-style training program on data shipped with "
                    "tensorweave. `tensorweave demo` runs the '%s' demo." % demos.DEFAULT,
        epilog="examples:\n  tensorweave demo\n  tensorweave demo --steps 200\n"
               "  tensorweave demo %s --help      (a demo's options)" % demos.DEFAULT,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    demo.add_argument("--list", action="store_true", help="list the demos and exit")
    demo.set_defaults(handler=_cmd_demo)
    # Each demo is its own sub-subcommand; options given without a name go to the default demo.
    names = demo.add_subparsers(dest="demo", metavar="<name>", title="demos")
    for name in demos.DEMOS:
        module = demos.load(name)
        sub = names.add_parser(name, help=module.SUMMARY, description=module.DESCRIPTION)
        module.add_arguments(sub)
        sub.set_defaults(demo_main=module.main)
    return parser


def main(argv=None):
    """Entry point of the `tensorweave` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    # `tensorweave demo [options]` means the default demo with those options.
    if argv and argv[0] == "demo":
        rest = argv[1:]
        if not rest or (rest[0].startswith("-") and rest[0] not in ("-h", "--help", "--list")):
            argv = ["demo", demos.DEFAULT] + rest
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.handler(args, parser)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
