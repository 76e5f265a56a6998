"""LeNet training step: tensorweave vs hand-written NumPy (im2col) vs PyTorch eager vs TensorFlow 1.x.

Model (tensorweave/models/convnets.py `lenet`): conv 5x5x32 SAME + ReLU, 2x2 max pool, conv
5x5x64 SAME + ReLU, 2x2 max pool, dense 256 + ReLU, dense 10; softmax cross-entropy, SGD
(lr 0.01), float32, random images of --size x --size x 1 (8 = the bundled digits, 28 = MNIST).
Each framework runs in its own subprocess; we report the median step time, its ratio to
tensorweave's, and peak RSS.

    python benchmarks/lenet.py                    # batch 64, 8x8 images
    python benchmarks/lenet.py --size 28 --rounds 3
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

FRAMEWORKS = ("tensorweave", "numpy", "pytorch", "tensorflow", "tensorflow-onednn")
LR = 0.01
NUM_BATCHES = 4


def _data(np, batch, size):
    rng = np.random.RandomState(0)
    xs = [rng.rand(batch, size, size, 1).astype(np.float32) for _ in range(NUM_BATCHES)]
    ys = [rng.randint(0, 10, size=batch).astype(np.int64) for _ in range(NUM_BATCHES)]
    return xs, ys


def _graph_step_fn(tf, threads, batch, size):
    import numpy as np
    from tensorweave.models import convnets
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [batch, size, size, 1])
        y = tf.placeholder(tf.int64, [batch])
        loss, train_op = convnets.train_op(tf, convnets.lenet(tf, x), y, learning_rate=LR)
        init = tf.global_variables_initializer()
    config = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)
    sess = tf.Session(graph=graph, config=config)
    sess.run(init)
    xs, ys = _data(np, batch, size)
    state = {"i": 0}

    def step():
        i = state["i"] = (state["i"] + 1) % NUM_BATCHES
        sess.run(train_op, {x: xs[i], y: ys[i]})
    return step, lambda: float(sess.run(loss, {x: xs[0], y: ys[0]}))


def _numpy_step_fn(threads, batch, size):
    """A straightforward hand-written NumPy LeNet: im2col by sliding_window_view + one matmul,
    col2im by a loop over kernel taps, max pooling by reshape (2x2, stride 2)."""
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
    rng = np.random.RandomState(1)

    def glorot(shape, fan_in, fan_out):
        lim = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-lim, lim, shape).astype(np.float32)

    s4 = size // 4
    P = {"w1": glorot((25 * 1, 32), 25, 25 * 32), "b1": np.zeros(32, np.float32),
         "w2": glorot((25 * 32, 64), 25 * 32, 25 * 64), "b2": np.zeros(64, np.float32),
         "w3": glorot((s4 * s4 * 64, 256), s4 * s4 * 64, 256), "b3": np.zeros(256, np.float32),
         "w4": glorot((256, 10), 256, 10), "b4": np.zeros(10, np.float32)}
    xs, ys = _data(np, batch, size)
    lr = np.float32(LR)
    state = {"i": 0, "loss": None}

    def im2col(x):                       # (N,H,W,C) -> (N*H*W, 25*C), SAME 5x5
        xp = np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0)))
        v = sliding_window_view(xp, (5, 5), axis=(1, 2))          # N,H,W,C,5,5
        return v.transpose(0, 1, 2, 4, 5, 3).reshape(-1, 25 * x.shape[3])

    def col2im(d, shape):
        n, h, w, c = shape
        d = d.reshape(n, h, w, 5, 5, c)
        dx = np.zeros((n, h + 4, w + 4, c), np.float32)
        for a in range(5):
            for b in range(5):
                dx[:, a:a + h, b:b + w] += d[:, :, :, a, b]
        return dx[:, 2:2 + h, 2:2 + w]

    def pool(x):
        n, h, w, c = x.shape
        r = x.reshape(n, h // 2, 2, w // 2, 2, c)
        out = r.max(axis=(2, 4))
        mask = r == out[:, :, None, :, None]
        return out, mask

    def unpool(d, mask):
        g = mask * d[:, :, None, :, None]
        n, h2, _, w2, _, c = g.shape
        return g.reshape(n, h2 * 2, w2 * 2, c)

    def step():
        i = state["i"] = (state["i"] + 1) % NUM_BATCHES
        x, y = xs[i], ys[i]
        n = x.shape[0]
        c1 = im2col(x)
        a1 = (c1 @ P["w1"] + P["b1"]).reshape(n, size, size, 32)
        np.maximum(a1, 0, out=a1)
        p1, m1 = pool(a1)
        c2 = im2col(p1)
        a2 = (c2 @ P["w2"] + P["b2"]).reshape(n, size // 2, size // 2, 64)
        np.maximum(a2, 0, out=a2)
        p2, m2 = pool(a2)
        f = p2.reshape(n, -1)
        h = f @ P["w3"] + P["b3"]
        np.maximum(h, 0, out=h)
        logits = h @ P["w4"] + P["b4"]
        z = logits - logits.max(1, keepdims=True)
        e = np.exp(z)
        prob = e / e.sum(1, keepdims=True)
        state["loss"] = -np.log(prob[np.arange(n), y]).mean()
        d = prob
        d[np.arange(n), y] -= 1
        d /= n
        g = {"w4": h.T @ d, "b4": d.sum(0)}
        dh = (d @ P["w4"].T) * (h > 0)
        g["w3"], g["b3"] = f.T @ dh, dh.sum(0)
        dp2 = (dh @ P["w3"].T).reshape(p2.shape)
        da2 = unpool(dp2, m2) * (a2 > 0)
        da2 = da2.reshape(-1, 64)
        g["w2"], g["b2"] = c2.T @ da2, da2.sum(0)
        dp1 = col2im(da2 @ P["w2"].T, p1.shape)
        da1 = (unpool(dp1, m1) * (a1 > 0)).reshape(-1, 32)
        g["w1"], g["b1"] = c1.T @ da1, da1.sum(0)
        for k, v in g.items():
            P[k] -= lr * v
    return step, lambda: float(state["loss"])


def _pytorch_step_fn(threads, batch, size):
    import numpy as np
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    s4 = size // 4
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 32, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(32, 64, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(s4 * s4 * 64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    xs, ys = _data(np, batch, size)
    xs = [torch.from_numpy(np.ascontiguousarray(a.transpose(0, 3, 1, 2))) for a in xs]
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


def worker(framework, steps, warmup, threads, batch, size):
    _harness.preimport(framework)
    rss_before = _harness.current_rss_mb()
    if framework == "tensorweave":
        import tensorweave as tf
        step, final = _graph_step_fn(tf, threads, batch, size)
    elif framework in ("tensorflow", _harness.ONEDNN):
        step, final = _graph_step_fn(_harness.import_tensorflow_v1(), threads, batch, size)
    elif framework == "numpy":
        step, final = _numpy_step_fn(threads, batch, size)
    else:
        step, final = _pytorch_step_fn(threads, batch, size)
    _harness.time_and_emit(framework, step, final, warmup, steps, rss_after_import_mb=rss_before)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--size", type=int, default=8, help="image side (multiple of 4)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=FRAMEWORKS)
    parser.add_argument("--worker", choices=FRAMEWORKS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
        worker(args.worker, args.steps, args.warmup, args.threads, args.batch, args.size)
        return 0
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    wanted = args.only or FRAMEWORKS
    modules = {"numpy": "numpy", "tensorweave": "tensorweave", "pytorch": "torch",
               "tensorflow": "tensorflow", _harness.ONEDNN: "tensorflow"}
    print("LeNet (conv5x5x32-pool-conv5x5x64-pool-fc256-fc10), SGD, batch %d, %dx%dx1, float32; "
          "median of %d steps; %d thread(s); best of %d interleaved round(s)"
          % (args.batch, args.size, args.size, args.steps, args.threads, args.rounds))
    results = _harness.run_rounds(os.path.abspath(__file__), wanted, modules, args.rounds,
                                  ["--steps", str(args.steps), "--warmup", str(args.warmup),
                                   "--batch", str(args.batch), "--size", str(args.size)],
                                  args.threads, key="step_ms")
    base = results.get("tensorweave", {}).get("step_ms")
    print("%-17s %10s %14s %14s %10s" % ("framework", "step ms", "tw / this", "peak RSS MiB", "loss"))
    for fw in wanted:
        r = results[fw]
        if "error" in r:
            print("%-17s  skipped: %s" % (fw, r["error"]))
            continue
        ratio = "%.2fx" % (base / r["step_ms"]) if base else "-"
        print("%-17s %10.2f %14s %14.1f %10.4f" % (fw, r["step_ms"], ratio, r["peak_rss_mb"], r["loss"]))
    print("(tw / this: tensorweave's step time divided by this framework's; < 1.5 is the target vs TF)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
