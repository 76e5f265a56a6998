"""The `tensorweave` command: --version, --help, and a short demo run in a real subprocess."""

import os
import subprocess
import sys

import pytest

import tensorweave
from tensorweave import cli

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(*args, timeout=120):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "tensorweave", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=REPO_ROOT)


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("tensorweave %s" % tensorweave.__version__)


def test_help_explains_the_system_and_commands(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "TensorFlow 1.x" in out and "NumPy" in out
    assert "demo" in out and "examples:" in out


def test_no_arguments_prints_help(capsys):
    assert cli.main([]) == 0
    assert "usage: tensorweave" in capsys.readouterr().out


def test_demo_list(capsys):
    assert cli.main(["demo", "--list"]) == 0
    assert capsys.readouterr().out.startswith("digits")


def test_unknown_demo_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["demo", "no-such-demo"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--steps", "0"], ["--batch-size", "x"],
                                    ["--learning-rate", "-1"]])
def test_demo_rejects_bad_options(capsys, option):
    with pytest.raises(SystemExit) as e:
        cli.main(["demo"] + option)
    assert e.value.code == 2
    assert option[0] in capsys.readouterr().err


def test_python_dash_m_version():
    r = _run("--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("tensorweave " + tensorweave.__version__)


def test_python_dash_m_demo_short_run(tmp_path):
    r = _run("demo", "--steps", "20", "--no-progress", "--logdir", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "held-out accuracy:" in r.stdout
    assert "trained 20 steps" in r.stdout
    assert f"tensorboard --logdir {tmp_path}" in r.stdout


def test_python_dash_m_demo_progress_bar_goes_to_stderr():
    r = _run("demo", "digits", "--steps", "5", "--logdir", "")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "training" in r.stderr and "5/5" in r.stderr
    assert "held-out accuracy:" in r.stdout
