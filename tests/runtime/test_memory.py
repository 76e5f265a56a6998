"""Allocator tuning (runtime/memory.py)."""

import os
import subprocess
import sys

import tensorweave as tf
from tensorweave.runtime import memory


def test_session_tunes_the_allocator_once():
    with tf.Session():
        pass
    first = memory.tune_allocator()
    assert memory.tune_allocator() is first
    if sys.platform.startswith("linux") and os.environ.get("TENSORWEAVE_MALLOC_TUNING", "1") != "0":
        assert first is True  # glibc on Linux


def test_opt_out_by_environment():
    code = "import tensorweave as tf\nfrom tensorweave.runtime import memory\ntf.Session()\nprint(memory._done)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, TENSORWEAVE_MALLOC_TUNING="0"))
    assert out.stdout.strip() == "False", out.stderr
