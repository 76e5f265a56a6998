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


def _cmd_serve(args, parser):
    from .serving.server import serve
    try:
        return serve(args.model_dir, port=args.port, host=args.host, model_name=args.model_name,
                     max_request_bytes=args.max_request_bytes, verbose=args.verbose)
    except (IOError, OSError, RuntimeError) as e:
        print(f"tensorweave serve: {e}", file=sys.stderr)
        return 1


def _cmd_inspect(args, parser):
    from .serving.inspect import inspect_path
    try:
        print("\n".join(inspect_path(args.path)))
    except (IOError, OSError, ValueError) as e:
        print(f"tensorweave inspect: {e}", file=sys.stderr)
        return 1
    return 0


def _add_serving_commands(commands):
    serve = commands.add_parser(
        "serve", help="serve a SavedModel over HTTP (TensorFlow Serving's REST API)",
        description="Serve a SavedModel (made by tf.saved_model.simple_save or SavedModelBuilder) with "
                    "TensorFlow Serving's REST API: POST /v1/models/NAME:predict, GET /v1/models/NAME "
                    "and GET /v1/models/NAME/metadata.",
        epilog="example:\n  tensorweave serve --model_dir /tmp/model --port 8501\n  curl -d '{\"instances\": [[1.0, 2.0]]}' "
               "http://127.0.0.1:8501/v1/models/default:predict",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--model_dir", required=True, help="SavedModel directory (or one with version subdirectories)")
    serve.add_argument("--port", type=int, default=8501, help="port (default 8501; 0 picks a free one)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--model_name", default="default", help="the NAME in the URLs (default: default)")
    serve.add_argument("--max_request_bytes", type=int, default=16 * 1024 * 1024,
                       help="largest request body accepted (default 16 MiB; larger: HTTP 413)")
    serve.add_argument("--verbose", action="store_true", help="log each request to stderr")
    serve.set_defaults(handler=_cmd_serve)
    inspect = commands.add_parser(
        "inspect", help="list the variables and signatures of a checkpoint or SavedModel",
        description="List variables (name, dtype, shape) of a checkpoint prefix or checkpoint directory, "
                    "or the tag sets, signatures and variables of a SavedModel directory.")
    inspect.add_argument("path", help="checkpoint prefix, checkpoint directory or SavedModel directory")
    inspect.set_defaults(handler=_cmd_inspect)


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="tensorweave", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version="tensorweave %s (Python %s)" % (__version__, sys.version.split()[0]))
    commands = parser.add_subparsers(dest="command", metavar="<command>", title="commands")
    from .distributed.launcher import add_cluster_command
    add_cluster_command(commands)   # tensorweave cluster --ps N --workers M -- python train.py

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
    _add_serving_commands(commands)
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
