"""MLP training step: tensorweave vs hand-written NumPy vs PyTorch eager vs TensorFlow 1.x graph.

Model: 784-512-512-10 ReLU MLP, softmax cross-entropy, plain SGD (lr 0.01), batch 128, float32,
random data. Each framework runs in its own subprocess; we report the median step time, its
ratio to the hand-written NumPy step (the floor for NumPy kernels), and the process's peak RSS.

    python benchmarks/mlp.py                       # all frameworks that are installed
    python benchmarks/mlp.py --steps 300 --threads 2
    python benchmarks/mlp.py --only tensorweave numpy

Targets: tensorweave <= 1.08x NumPy; tensorweave's peak memory below PyTorch's.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

SIZES = (784, 512, 512, 10)
BATCH = 128
LR = 0.01
NUM_BATCHES = 8          # distinct random batches, cycled (feeds change every step)
FRAMEWORKS = ("numpy", "tensorweave", "pytorch", "tensorflow")


def _data(np):
    rng = np.random.RandomState(0)
    xs = [rng.standard_normal((BATCH, SIZES[0])).astype(np.float32) for _ in range(NUM_BATCHES)]
    ys = [rng.randint(0, SIZES[-1], size=BATCH).astype(np.int64) for _ in range(NUM_BATCHES)]
    return xs, ys


def _glorot(np, rng, n_in, n_out):
    limit = np.sqrt(6.0 / (n_in + n_out))
    return rng.uniform(-limit, limit, size=(n_in, n_out)).astype(np.float32)


# ----------------------------------------------------------------------------- workers

def _numpy_step_fn(threads):
    """The hand-written NumPy step: forward, backward, in-place SGD; buffers preallocated."""
    import numpy as np
    rng = np.random.RandomState(1)
    Ws = [_glorot(np, rng, a, b) for a, b in zip(SIZES[:-1], SIZES[1:])]
    bs = [np.zeros(b, np.float32) for b in SIZES[1:]]
    acts = [np.empty((BATCH, n), np.float32) for n in SIZES[1:]]
    dWs = [np.empty_like(W) for W in Ws]
    dbs = [np.empty_like(b) for b in bs]
    deltas = [np.empty((BATCH, n), np.float32) for n in SIZES[1:]]
    rows = np.arange(BATCH)
    lr = np.float32(LR)
    xs, ys = _data(np)
    state = {"i": 0, "loss": None}

    def step():
        i = state["i"] = (state["i"] + 1) % NUM_BATCHES
        x, y = xs[i], ys[i]
        # forward
        h = x
        for k, (W, b, a) in enumerate(zip(Ws, bs, acts)):
            np.matmul(h, W, out=a)
            a += b
            if k < len(Ws) - 1:
                np.maximum(a, 0, out=a)
            h = a
        logits = acts[-1]
        d = deltas[-1]
        np.subtract(logits, logits.max(axis=1, keepdims=True), out=d)
        np.exp(d, out=d)
        d /= d.sum(axis=1, keepdims=True)                     # softmax probabilities
        state["loss"] = -np.log(d[rows, y]).mean()
        d[rows, y] -= 1.0
        d *= np.float32(1.0 / BATCH)                          # d loss / d logits
        # backward + in-place update
        for k in range(len(Ws) - 1, -1, -1):
            inp = x if k == 0 else acts[k - 1]
            np.matmul(inp.T, deltas[k], out=dWs[k])
            np.sum(deltas[k], axis=0, out=dbs[k])
            if k > 0:
                np.matmul(deltas[k], Ws[k].T, out=deltas[k - 1])
                deltas[k - 1] *= acts[k - 1] > 0              # ReLU'
            dWs[k] *= lr
            Ws[k] -= dWs[k]
            dbs[k] *= lr
            bs[k] -= dbs[k]

    return step, lambda: float(state["loss"])


def _build_graph_mlp(tf, np):
    x = tf.placeholder(tf.float32, [None, SIZES[0]], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    h = x
    for k, (n_in, n_out) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        with tf.variable_scope("layer%d" % k):
            W = tf.get_variable("kernel", [n_in, n_out],
                                initializer=tf.glorot_uniform_initializer(seed=k))
            b = tf.get_variable("bias", [n_out], initializer=tf.zeros_initializer())
            h = tf.matmul(h, W) + b
            if k < len(SIZES) - 2:
                h = tf.nn.relu(h)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))
    train_op = tf.train.GradientDescentOptimizer(LR).minimize(loss)
    return x, y, loss, train_op


def _graph_step_fn(tf, threads, config=None):
    import numpy as np
    graph = tf.Graph()
    with graph.as_default():
        x, y, loss, train_op = _build_graph_mlp(tf, np)
        init = tf.global_variables_initializer()
    sess = tf.Session(graph=graph, config=config)
    sess.run(init)
    xs, ys = _data(np)
    state = {"i": 0}

    def step():
        i = state["i"] = (state["i"] + 1) % NUM_BATCHES
        sess.run(train_op, feed_dict={x: xs[i], y: ys[i]})

    return step, lambda: float(sess.run(loss, feed_dict={x: xs[0], y: ys[0]}))


def _tensorweave_step_fn(threads):
    import tensorweave as tf
    config = tf.ConfigProto(intra_op_parallelism_threads=threads)
    return _graph_step_fn(tf, threads, config)


def _tensorflow_step_fn(threads):
    tf = _harness.import_tensorflow_v1()
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=threads)
    return _graph_step_fn(tf, threads, config)


def _pytorch_step_fn(threads):
    import numpy as np
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    layers = []
    for k, (n_in, n_out) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        lin = torch.nn.Linear(n_in, n_out)
        torch.nn.init.xavier_uniform_(lin.weight)
        torch.nn.init.zeros_(lin.bias)
        layers.append(lin)
        if k < len(SIZES) - 2:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    xs, ys = _data(np)
    xs = [torch.from_numpy(a) for a in xs]
    ys = [torch.from_numpy(a) for a in ys]
    state = {"i": 0, "loss": None}

    def step():
        i = state["i"] = (state["i"] + 1) % NUM_BATCHES
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(xs[i]), ys[i])
        loss.backward()
        opt.step()
        state["loss"] = loss

    return step, lambda: float(state["loss"])


def worker(framework, steps, warmup, threads):
    builders = {"numpy": _numpy_step_fn, "tensorweave": _tensorweave_step_fn,
                "pytorch": _pytorch_step_fn, "tensorflow": _tensorflow_step_fn}
    _harness.preimport(framework)                # so RSS after import is the framework's baseline
    rss_before = _harness.current_rss_mb()
    step, final_loss = builders[framework](threads)
    for _ in range(warmup):
        step()
    rss_ready = _harness.current_rss_mb()
    seconds = _harness.median_time(step, repeats=steps)
    _harness.emit({"framework": framework, "step_ms": seconds * 1e3, "loss": final_loss(),
                   "rss_after_import_mb": rss_before, "rss_trained_mb": rss_ready})


# ----------------------------------------------------------------------------- driver

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=200, help="timed steps (default: %(default)s)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed steps first")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="BLAS/intra-op threads for every framework (default: all cores)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="run every framework this many times, interleaved, and keep each "
                             "one's best median (damps noise from other load; default: "
                             "%(default)s)")
    parser.add_argument("--only", nargs="+", choices=FRAMEWORKS, help="run only these")
    parser.add_argument("--worker", choices=FRAMEWORKS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.steps, args.warmup, args.threads)
        return 0

    wanted = args.only or FRAMEWORKS
    modules = {"numpy": "numpy", "tensorweave": "tensorweave", "pytorch": "torch",
               "tensorflow": "tensorflow"}
    print("MLP %s ReLU, softmax cross-entropy, SGD, batch %d, float32; median of %d steps "
          "after %d warm-up; %d thread(s); one subprocess per framework; best of %d round(s)"
          % ("-".join(map(str, SIZES)), BATCH, args.steps, args.warmup, args.threads,
             args.rounds))
    results = _harness.run_rounds(os.path.abspath(__file__), wanted, modules, args.rounds,
                                  ["--steps", str(args.steps), "--warmup", str(args.warmup)],
                                  args.threads, key="step_ms")
    base = results.get("numpy", {}).get("step_ms")
    print("%-12s %10s %9s %14s %16s %10s" % ("framework", "step ms", "vs numpy", "peak RSS MiB",
                                             "peak-import MiB", "loss"))
    for fw in wanted:
        r = results[fw]
        if "error" in r:
            print("%-12s  skipped: %s" % (fw, r["error"]))
            continue
        ratio = "%.3fx" % (r["step_ms"] / base) if base else "-"
        print("%-12s %10.3f %9s %14.1f %16.1f %10.4f"
              % (fw, r["step_ms"], ratio, r["peak_rss_mb"],
                 r["peak_rss_mb"] - r["rss_after_import_mb"], r["loss"]))
    print("(peak-import: peak RSS minus RSS right after importing the framework)")
    tw, pt = results.get("tensorweave", {}), results.get("pytorch", {})
    if base and "step_ms" in tw:
        print("target: tensorweave <= 1.08x numpy: %s (%.3fx)"
              % ("met" if tw["step_ms"] <= 1.08 * base else "NOT met", tw["step_ms"] / base))
    if "peak_rss_mb" in tw and "peak_rss_mb" in pt:
        print("target: tensorweave peak RSS below pytorch's: %s (%.0f vs %.0f MiB)"
              % ("met" if tw["peak_rss_mb"] < pt["peak_rss_mb"] else "NOT met",
                 tw["peak_rss_mb"], pt["peak_rss_mb"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
