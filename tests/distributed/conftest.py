"""Helpers for the distributed tests: free ports on 127.0.0.1, task processes started and always
stopped by PID (SIGKILL, then a bounded wait), and a bounded wait for a process's READY line."""

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from tensorweave.distributed.launcher import free_ports

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TASK_MAIN = os.path.join(HERE, "task_main.py")
TOKEN = "test-cluster-token"


def task_env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    env["TENSORWEAVE_CLUSTER_TOKEN"] = TOKEN
    env.update(extra)
    return env


class Procs:
    """Processes started by a test; `stop_all` kills each by PID and reaps it (bounded)."""

    def __init__(self):
        self.procs = []

    def start(self, *args, env=None):
        p = subprocess.Popen([sys.executable, TASK_MAIN, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env or task_env())
        self.procs.append(p)
        return p

    def serve(self, cluster, job, index, **env):
        return self.start("serve", json.dumps(cluster), job, str(index), env=task_env(**env))

    @staticmethod
    def wait_line(p, text, timeout=60.0):
        """Reads p's output until a line containing `text` (bounded); returns what was read."""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            r, _, _ = select.select([p.stdout], [], [], max(deadline - time.monotonic(), 0))
            if not r:
                break
            line = p.stdout.readline()
            if not line:
                break
            seen.append(line.decode(errors="replace"))
            if text in seen[-1]:
                return "".join(seen)
        raise AssertionError(f"no {text!r} from pid {p.pid} within {timeout} s; output:\n{''.join(seen)}")

    def stop_all(self):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.kill(p.pid, signal.SIGCONT)
                    os.kill(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            if p.stdout:
                p.stdout.close()


@pytest.fixture
def procs():
    ps = Procs()
    try:
        yield ps
    finally:
        ps.stop_all()


def make_cluster(n_ps=1, n_workers=1):
    ports = free_ports(n_ps + n_workers)
    cluster = {"ps": [f"127.0.0.1:{p}" for p in ports[:n_ps]],
               "worker": [f"127.0.0.1:{p}" for p in ports[n_ps:]]}
    return cluster


@pytest.fixture(autouse=True)
def _cluster_token():
    """Every test process (and this one) uses the cluster token, so the token check is always on."""
    from tensorweave.distributed import rpc
    saved = dict(rpc.security._override)
    rpc.configure_security(token=TOKEN)
    try:
        yield
    finally:
        rpc.security._override.clear()
        rpc.security._override.update(saved)
