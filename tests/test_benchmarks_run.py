"""The benchmarks must keep running as the API changes (smoke run: tiny sizes, numbers unchecked)."""

import os
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
@pytest.mark.parametrize("script, args", [
    ("mlp.py", ["--only", "numpy", "tensorweave", "--steps", "3", "--warmup", "1",
                "--rounds", "1", "--threads", "1"]),
    ("overhead.py", ["--only", "numpy", "tensorweave", "--repeats", "2", "--rounds", "1"]),
])
def test_benchmark_runs(script, args):
    r = subprocess.run([sys.executable, os.path.join(REPO_ROOT, "benchmarks", script)] + args,
                       capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "skipped" not in r.stdout, r.stdout      # tensorweave and numpy both ran
    assert "tensorweave" in r.stdout
