"""`tensorweave cluster --ps N --workers M -- python train.py ...`: a local cluster of processes.

Every task runs the same command with TF_CONFIG set (free ports on 127.0.0.1), the way
TensorFlow's launchers do: {"cluster": {"ps": [...], "worker": [...]}, "task": {"type": "worker",
"index": 1}}; a program reads it with `tensorweave.distributed.cluster_from_env()`. Output is
streamed line by line with a task prefix ("[ps:0] ...", "[worker:1] ..."). The cluster stops when
the chief (worker 0) exits, or on Ctrl-C; the exit status is the chief's.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

__all__ = ["launch", "free_ports", "add_cluster_command"]

_STOP_GRACE_S = 5.0


def free_ports(n, host="127.0.0.1"):
    """`n` distinct ports that are free now on `host`."""
    socks, ports = [], []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((host, 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def _pump(stream, prefix, out, lock):
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            out.write(f"{prefix} {line}\n")
            out.flush()
    stream.close()


def _stop(procs):
    """SIGTERM every live process (its whole group), then SIGKILL what is left after a grace."""
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
    deadline = time.monotonic() + _STOP_GRACE_S
    for p in procs:
        try:
            p.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            p.wait(timeout=_STOP_GRACE_S)


def launch(command, num_ps=1, num_workers=1, host="127.0.0.1", out=None, env=None, timeout=None):
    """Runs `command` (a list) once per task; returns the chief's exit status (124 on `timeout`)."""
    if not command:
        raise ValueError("no command to run: tensorweave cluster --ps N --workers M -- python train.py")
    if num_workers < 1 or num_ps < 0:
        raise ValueError("need at least one worker and a non-negative number of ps tasks")
    out = out or sys.stdout
    ports = free_ports(num_ps + num_workers, host)
    cluster = {}
    if num_ps:
        cluster["ps"] = [f"{host}:{p}" for p in ports[:num_ps]]
    cluster["worker"] = [f"{host}:{p}" for p in ports[num_ps:]]
    tasks = [("ps", i) for i in range(num_ps)] + [("worker", i) for i in range(num_workers)]
    lock = threading.Lock()
    procs, pumps = [], []
    chief = None
    base_env = dict(os.environ if env is None else env)
    base_env.setdefault("PYTHONUNBUFFERED", "1")
    status = None
    try:
        for job, index in tasks:
            task_env = dict(base_env)
            task_env["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": job, "index": index}})
            p = subprocess.Popen(command, env=task_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
            procs.append(p)
            t = threading.Thread(target=_pump, args=(p.stdout, f"[{job}:{index}]", out, lock), daemon=True)
            t.start()
            pumps.append(t)
            if (job, index) == ("worker", 0):
                chief = p
        with lock:
            out.write(f"[cluster] {json.dumps(cluster)}\n")
            out.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        while status is None:
            try:
                status = chief.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                if deadline is not None and time.monotonic() > deadline:
                    status = 124
            for (job, index), p in zip(tasks, procs):
                if p is not chief and p.returncode is None and p.poll() is not None and p.returncode != 0:
                    with lock:
                        out.write(f"[cluster] {job}:{index} exited with status {p.returncode}\n")
                        out.flush()
    except KeyboardInterrupt:
        status = 130
    finally:
        _stop(procs)
        for t in pumps:
            t.join(timeout=2.0)
    with lock:
        out.write(f"[cluster] chief (worker:0) exited with status {status}; stopped all tasks\n")
        out.flush()
    return status


def _cmd_cluster(args, parser):
    command = list(args.cluster_command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("cluster: give the command to run after --, e.g. "
                     "tensorweave cluster --ps 1 --workers 2 -- python train.py")
    return launch(command, args.ps, args.workers, args.host)


def add_cluster_command(commands):
    """Adds the `cluster` subcommand to the CLI's subparsers."""
    import argparse
    sub = commands.add_parser(
        "cluster", help="run a program as a local cluster of ps and worker processes",
        description="Start one process per task of a local cluster (free ports on 127.0.0.1), each "
                    "running COMMAND with TF_CONFIG describing the cluster and its task; stream their "
                    "output with task prefixes; stop them all when the chief (worker 0) exits or on "
                    "Ctrl-C. The exit status is the chief's.",
        epilog="example:\n  tensorweave cluster --ps 1 --workers 2 -- python train.py --steps 100\n\n"
               "in train.py:\n  cluster, job, task = tensorweave.distributed.cluster_from_env()\n"
               "  server = tf.train.Server(cluster, job_name=job, task_index=task)\n"
               "  if job == 'ps': server.join()",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("--ps", type=int, default=1, help="number of parameter-server tasks (default 1)")
    sub.add_argument("--workers", type=int, default=1, help="number of worker tasks (default 1)")
    sub.add_argument("--host", default="127.0.0.1", help="address the tasks bind (default 127.0.0.1)")
    sub.add_argument("cluster_command", nargs=argparse.REMAINDER, metavar="-- COMMAND ...",
                     help="the program each task runs")
    sub.set_defaults(handler=_cmd_cluster)
    return sub
