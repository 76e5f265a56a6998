"""`tensorweave.compat.v1` is the tensorweave namespace itself (TF1's graph API), so programs
written as `tf.compat.v1.placeholder(...)` run unchanged."""

import sys as _sys


def __getattr__(name):
    if name == "v1":
        return _sys.modules["tensorweave"]
    raise AttributeError(f"module 'tensorweave.compat' has no attribute {name!r}")
