"""Parameter-server microbenchmark: 1 ps and N worker processes on loopback (127.0.0.1).

Each step of each worker is a null training step on a variable of S float32 held by the ps:
the worker reads the variable (S floats ps -> worker), scales it, and the ps adds the result into
the variable (S floats worker -> ps):

    with tf.device("/job:ps/task:0"):     v = tf.Variable(tf.zeros([S]))
    with tf.device("/job:worker/task:i"): delta = v * 1e-6
    with tf.device("/job:ps/task:0"):     train = tf.assign_add(v, delta)
    sess.run(train.op)                    # each worker: its own server, its own session

All N workers run at once (between-graph replication); the table gives the median step time of
one worker and the steps/s of the whole cluster, for tensorweave and, when tensorflow is
installed, for TensorFlow's own tf.compat.v1.train.Server on the same workload.

    python benchmarks/ps_microbench.py                     # S = 1, 1M, 16M; N = 1, 2, 4
    python benchmarks/ps_microbench.py --sizes 1 1048576 --workers 1 --seconds 1
    python benchmarks/ps_microbench.py --straggler         # the backup-worker benchmark (see below)

Every process is started and stopped by PID; each phase is bounded in time.
"""

import argparse
import json
import os
import select
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)


# -- task processes ----------------------------------------------------------------------------

def _import(impl):
    if impl == "tf":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        return tf
    import tensorweave as tf
    return tf


def task_main(impl, cluster, job, index, sizes, seconds):
    tf = _import(impl)
    config = None
    if impl == "tf":
        config = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=1)
    server = tf.train.Server(cluster, job_name=job, task_index=index, config=config)
    print("READY", flush=True)
    if job == "ps":
        server.join()
        return
    steps = {}
    variables = {}
    for s in sizes:
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(tf.zeros([s]), name=f"v{s}")
        with tf.device(f"/job:worker/task:{index}"):
            delta = v * 1e-6
        with tf.device("/job:ps/task:0"):
            steps[s] = tf.assign_add(v, delta).op
        variables[s] = v
    sess = tf.Session(server.target, config=config)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "INIT":
            sess.run([v.initializer for v in variables.values()])
            print("INITED", flush=True)
        elif cmd[0] == "RUN":
            s = int(cmd[1])
            op = steps[s]
            for _ in range(3):
                sess.run(op)
            times = []
            start = time.perf_counter()
            while (time.perf_counter() - start < seconds or len(times) < 5) and len(times) < 5000:
                t = time.perf_counter()
                sess.run(op)
                times.append(time.perf_counter() - t)
            print("RESULT " + json.dumps({"size": s, "steps": len(times), "wall": time.perf_counter() - start,
                                          "median": statistics.median(times)}), flush=True)
        elif cmd[0] == "QUIT":
            break
    sess.close()


# -- driver ------------------------------------------------------------------------------------

def _free_ports(n):
    from tensorweave.distributed.launcher import free_ports
    return free_ports(n)


def _read_until(p, prefix, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([p.stdout], [], [], max(deadline - time.monotonic(), 0))
        if not r:
            break
        line = p.stdout.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line
    raise RuntimeError(f"pid {p.pid}: no {prefix!r} within {timeout} s")


def run_cluster(impl, n_workers, sizes, seconds):
    """{size: (median step s of worker 0.., cluster steps/s)} for one cluster of 1 ps + n workers."""
    ports = _free_ports(1 + n_workers)
    cluster = {"ps": [f"127.0.0.1:{ports[0]}"], "worker": [f"127.0.0.1:{p}" for p in ports[1:]]}
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONUNBUFFERED="1", TF_CPP_MIN_LOG_LEVEL="3")
    procs = []

    def start(job, i):
        p = subprocess.Popen([sys.executable, __file__, "--task", impl, json.dumps(cluster), job, str(i),
                              json.dumps(sizes), str(seconds)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
        procs.append(p)
        return p

    results = {}
    try:
        ps = start("ps", 0)
        _read_until(ps, "READY", 120)
        workers = [start("worker", i) for i in range(n_workers)]
        for w in workers:
            _read_until(w, "READY", 120)
        workers[0].stdin.write("INIT\n")
        workers[0].stdin.flush()
        _read_until(workers[0], "INITED", 120)
        for s in sizes:
            for w in workers:
                w.stdin.write(f"RUN {s}\n")
                w.stdin.flush()
            rs = [json.loads(_read_until(w, "RESULT", 60 + 60 * seconds)[len("RESULT "):]) for w in workers]
            rate = sum(r["steps"] / r["wall"] for r in rs)
            results[s] = (statistics.median(r["median"] for r in rs), rate)
        for w in workers:
            w.stdin.write("QUIT\n")
            w.stdin.flush()
    finally:
        for p in procs:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGKILL)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
    return results


def _label(s):
    return {1: "1", 1 << 20: "1M", 16 << 20: "16M"}.get(s, str(s))


def straggler_benchmark():
    """Step rate of synchronous training with one straggler (a worker that sleeps a random extra
    time per step, fixed seed), with and without one backup worker.

    TODO(issue 7, SyncReplicasOptimizer): needs tf.train.SyncReplicasOptimizer(replicas_to_aggregate=
    N, total_num_replicas=N + 1) (a ConditionalAccumulator per variable on the ps and a token queue),
    which is not implemented yet. Hook: when it exists, run N + 1 worker processes with the
    optimizer, one of them sleeping rng.exponential(0.05) s per step (np.random.RandomState(0)),
    and report steps/s for replicas_to_aggregate = total_num_replicas (no backup) and N of N + 1
    (one backup)."""
    tf = _import("tensorweave")
    if not hasattr(tf.train, "SyncReplicasOptimizer"):
        print("straggler benchmark: SKIPPED - tf.train.SyncReplicasOptimizer is not implemented yet "
              "(see the TODO in straggler_benchmark); no numbers are reported.")
        return 0
    print("straggler benchmark: SyncReplicasOptimizer exists but this benchmark is not written yet (TODO)")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--task":
        impl, cluster, job, index, sizes, seconds = argv[1:7]
        task_main(impl, json.loads(cluster), job, int(index), json.loads(sizes), float(seconds))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 1 << 20, 16 << 20])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--seconds", type=float, default=2.0, help="timed seconds per (size, workers)")
    ap.add_argument("--no-tf", action="store_true", help="skip TensorFlow")
    ap.add_argument("--straggler", action="store_true", help="run the straggler/backup-worker benchmark")
    args = ap.parse_args(argv)
    if args.straggler:
        return straggler_benchmark()
    impls = ["tensorweave"]
    if not args.no_tf:
        try:
            import importlib.util
            if importlib.util.find_spec("tensorflow") is not None:
                impls.append("tf")
        except ImportError:
            pass
    table = {}
    for n in args.workers:
        for impl in impls:
            for s, r in run_cluster(impl, n, args.sizes, args.seconds).items():
                table[(impl, n, s)] = r
    print(f"ps microbenchmark: 1 ps + N workers on 127.0.0.1, {os.cpu_count()} cores; "
          "median step of one worker (ms), cluster steps/s")
    head = f"{'S floats':>9} {'N':>2} | {'tensorweave ms':>14} {'steps/s':>8}"
    if "tf" in impls:
        head += f" | {'TensorFlow ms':>13} {'steps/s':>8} | {'rate ratio tw/tf':>16}"
    print(head)
    for s in args.sizes:
        for n in args.workers:
            ms, rate = table[("tensorweave", n, s)]
            row = f"{_label(s):>9} {n:>2} | {ms * 1e3:14.2f} {rate:8.1f}"
            if "tf" in impls:
                tms, trate = table[("tf", n, s)]
                row += f" | {tms * 1e3:13.2f} {trate:8.1f} | {rate / trate:16.2f}"
            print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
