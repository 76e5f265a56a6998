"""Shared plumbing for the benchmarks: run one framework per subprocess, collect JSON results.

Each framework is measured in its own fresh Python process so that thread pools, allocators and
peak-memory counters of one cannot disturb another. A worker prints one JSON object on its last
stdout line; `run_worker` parses it.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# TensorFlow with its oneDNN kernels forced on. TF 2.x enables them by default only on CPUs with
# AVX-512 VNNI/BF16 or AMX; elsewhere (an AMD Zen 3 VM, say) plain "tensorflow" runs Eigen's
# kernels, 1.4-1.8x slower on convolutions, so the benchmarks can time both.
ONEDNN = "tensorflow-onednn"


def thread_env(threads, framework=None):
    """Environment that pins every BLAS/OpenMP pool to `threads` threads (and forces oneDNN on
    for the ONEDNN worker)."""
    env = dict(os.environ)
    if framework == ONEDNN:
        env["TF_ENABLE_ONEDNN_OPTS"] = "1"
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = str(threads)
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"        # keep TensorFlow's start-up chatter out
    env["PYTHONPATH"] = REPO_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_worker(script, framework, args, threads, timeout=600):
    """Runs `python script --worker framework args...`; returns its JSON dict or an error dict."""
    cmd = [sys.executable, script, "--worker", framework, "--threads", str(threads)] + list(args)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=thread_env(threads, framework),
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % timeout}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        tail = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
        return {"error": tail[:200]}
    return json.loads(lines[-1])


def run_rounds(script, frameworks, modules, rounds, args, threads, key):
    """Runs every framework `rounds` times, interleaved (a, b, c, a, b, c, ...), and keeps, per
    framework, the result with the smallest `key` (other metrics: also their minimum), so a
    burst of load from elsewhere on the machine hurts one sample rather than one framework."""
    results = {}
    for _ in range(max(1, rounds)):
        for fw in frameworks:
            if fw not in ("numpy", "tensorweave") and not importable(modules[fw]):
                results[fw] = {"error": "not installed"}
                continue
            r = run_worker(script, fw, args, threads)
            best = results.get(fw)
            if best is None or "error" in best:
                results[fw] = r
            elif "error" not in r:
                for k, v in r.items():
                    if isinstance(v, float) and k in best:
                        best[k] = min(best[k], v) if k != "loss" else v
    return results


def emit(result):
    """Worker side: print the result (plus this process's peak RSS) as the last stdout line."""
    result = dict(result)
    result["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(result), flush=True)


def peak_rss_mb():
    """Peak resident set size of this process in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024.0 * 1024.0) if sys.platform == "darwin" else peak / 1024.0


def current_rss_mb():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1024.0 * 1024.0)
    except OSError:
        return float("nan")


def median_time(fn, repeats, inner=1):
    """Median seconds per call of fn() over `repeats` samples of `inner` calls each."""
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def time_and_emit(name, step, final_loss, warmup, steps, **extra):
    """Runs `warmup` untimed steps, then emits the median step time of `steps` steps, the final
    loss and `extra` fields as this worker's result."""
    for _ in range(warmup):
        step()
    seconds = median_time(step, repeats=steps)
    emit(dict({"framework": name, "step_ms": seconds * 1e3, "loss": final_loss()}, **extra))


def importable(module):
    """True if `module` can be found (without importing it into this process)."""
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def preimport(framework):
    """Imports a framework (the worker's first act) so later RSS readings exclude its import."""
    import numpy  # noqa: F401
    if framework == "tensorweave":
        import tensorweave  # noqa: F401
    elif framework == "pytorch":
        import torch  # noqa: F401
    elif framework in ("tensorflow", ONEDNN):
        import_tensorflow_v1()


def import_tensorflow_v1():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.logging.set_verbosity(tf.logging.ERROR)
    return tf
