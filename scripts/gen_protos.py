#!/usr/bin/env python
"""Regenerates tensorweave/protos/*_pb2.py from the .proto files beside them.

Run from anywhere after `pip install grpcio-tools` (a dev-time tool only; the package needs just
the `protobuf` runtime):

    python scripts/gen_protos.py               # tensorweave/protos (graphs, summaries, ...)
    python scripts/gen_protos.py --distributed # tensorweave/distributed/protos (the wire messages)

Only message classes are generated (--python_out): the distributed services' RPC methods are
bound by hand in tensorweave/distributed/rpc.py with grpc's generic handlers, so no generated
_grpc.py pins a grpcio version. The .proto files use the proto package `tensorweave` (not `tensorflow`) so that they never clash
with TensorFlow's own descriptors when both are imported in one process; the field numbers and
enum values are TensorFlow's, so the bytes on disk are interchangeable with TF's.
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTO_DIRS = {"main": os.path.join(ROOT, "tensorweave", "protos"),
              "distributed": os.path.join(ROOT, "tensorweave", "distributed", "protos")}


def main():
    which = "distributed" if "--distributed" in sys.argv[1:] else "main"
    generate(PROTO_DIRS[which])


def generate(proto_dir):
    """Runs protoc on proto_dir/*.proto (imports resolved from the repository root)."""
    try:
        import grpc_tools
        from grpc_tools import protoc
    except ImportError:
        sys.exit("grpcio-tools is needed to regenerate the protos: pip install grpcio-tools")
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    protos = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(proto_dir, "*.proto")))
    for old in glob.glob(os.path.join(proto_dir, "*_pb2.py")):
        os.remove(old)
    args = ["grpc_tools.protoc", f"-I{ROOT}", f"-I{include}", f"--python_out={ROOT}"] + protos
    if protoc.main(args) != 0:
        sys.exit("protoc failed")
    versions = set()
    for path in glob.glob(os.path.join(proto_dir, "*_pb2.py")):
        with open(path) as f:
            text = f.read()
        m = re.search(r"_runtime_version\.Domain\.PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+)", text)
        if m:
            versions.add(".".join(m.groups()))
    print(f"generated {len(protos)} modules in {os.path.relpath(proto_dir)}; gencode version(s): "
          f"{', '.join(sorted(versions)) or 'unknown'} (pyproject's protobuf floor must not be lower)")


if __name__ == "__main__":
    main()
