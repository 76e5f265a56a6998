"""What README.md shows and what examples/ holds must really run."""

import os
import re
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python_blocks(path):
    with open(path, encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


def test_readme_tour_runs(capsys):
    blocks = _python_blocks(os.path.join(REPO_ROOT, "README.md"))
    assert blocks, "README.md has no python code block"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
    out = capsys.readouterr().out
    assert "add:0 (?, 1)" in out
    loss = float(re.search(r"loss ([0-9.]+)", out).group(1))
    assert loss < 1e-3, out


def _run_example(name):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, os.path.join(REPO_ROOT, "examples", name)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO_ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("name, minimum", [("digits_mlp.py", 0.95),
                                           ("mnist_softmax_digits.py", 0.93)])
def test_example_trains(name, minimum):
    r = _run_example(name)
    assert r.returncode == 0, r.stdout + r.stderr
    accuracy = float(re.search(r"test accuracy:? ([0-9.]+)", r.stdout).group(1))
    assert accuracy >= minimum, r.stdout
