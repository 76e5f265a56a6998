"""PTB-small LSTM language model training step: tensorweave vs hand-written NumPy vs PyTorch
nn.LSTM vs TensorFlow 1.x graph; full softmax and sampled softmax.

Model (PTB "small", tensorweave.demos.ptb): vocabulary 10,000, embedding and 2 LSTM layers of
200, 20 unrolled steps, batch 20, softmax over the vocabulary (full) or
tf.nn.sampled_softmax_loss with 64 sampled classes, clip_by_global_norm(5), SGD lr 1.0; the LSTM
state is fed back every step. Data: the shipped KJV text (tensorweave.datasets.text).

    python benchmarks/lstm_lm.py                       # every framework that is installed
    python benchmarks/lstm_lm.py --threads 1 --rounds 3
    python benchmarks/lstm_lm.py --only tensorweave pytorch

Workers: numpy-full (hand-written forward/backward, the floor for NumPy kernels), tensorweave-full
and -sampled (tensorweave.demos.ptb.build_model), pytorch-full (nn.Embedding + nn.LSTM +
nn.Linear + CrossEntropyLoss + clip_grad_norm_ + SGD; PyTorch has no sampled softmax),
tensorflow-full and -sampled (the identical graph program under tensorflow.compat.v1).

Targets: tensorweave-full within 1.2x of pytorch-full; tensorweave-sampled at least 2x faster
than tensorweave-full.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

WORKERS = ("numpy-full", "tensorweave-full", "tensorweave-sampled", "pytorch-full", "tensorflow-full",
           "tensorflow-sampled")
MODULES = {"numpy-full": "numpy", "tensorweave-full": "tensorweave", "tensorweave-sampled": "tensorweave",
           "pytorch-full": "torch", "tensorflow-full": "tensorflow", "tensorflow-sampled": "tensorflow"}
V, H, L, T, B = 10000, 200, 2, 20, 20
LR, CLIP, INIT = 1.0, 5.0, 0.1


def _batches():
    from tensorweave.datasets.text import kjv_raw_data, ptb_iterator
    train = kjv_raw_data(vocab_size=V)[0]
    return list(ptb_iterator(train, B, T))


# ----------------------------------------------------------------------------- workers

def _graph_step_fn(tf, softmax, config=None):
    from tensorweave.demos import ptb
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(0)
        m = ptb.build_model(tf, ptb.SmallConfig(), softmax=softmax, seed=0)
        init = tf.global_variables_initializer()
    sess = tf.Session(graph=graph, config=config)
    sess.run(init)
    sess.run(m["lr_update"], {m["new_lr"]: LR})
    batches = _batches()
    st = {"i": 0, "state": sess.run(m["initial_state"]), "cost": None}
    fetches = [m["cost"], m["final_state"], m["train_op"]]

    def step():
        i = st["i"] = (st["i"] + 1) % len(batches)
        x, y = batches[i]
        feed = {m["input"]: x, m["targets"]: y}
        feed.update(ptb.state_feed(m, st["state"]))
        st["cost"], st["state"], _ = sess.run(fetches, feed)

    return step, lambda: float(st["cost"]) / T


def _tensorweave(softmax):
    def build(threads):
        import tensorweave as tf
        return _graph_step_fn(tf, softmax, tf.ConfigProto(intra_op_parallelism_threads=threads))
    return build


def _tensorflow(softmax):
    def build(threads):
        tf = _harness.import_tensorflow_v1()
        config = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)
        return _graph_step_fn(tf, softmax, config)
    return build


def _pytorch_full(threads):
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(0)

    class LM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(V, H)
            self.lstm = torch.nn.LSTM(H, H, num_layers=L, batch_first=True)
            self.out = torch.nn.Linear(H, V)
            for p in self.parameters():
                torch.nn.init.uniform_(p, -INIT, INIT)

        def forward(self, x, state):
            h, state = self.lstm(self.emb(x), state)
            return self.out(h.reshape(-1, H)), state

    model = LM()
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss(reduction="sum")
    batches = [(torch.from_numpy(x.astype("int64")), torch.from_numpy(y.astype("int64"))) for x, y in _batches()]
    st = {"i": 0, "state": (torch.zeros(L, B, H), torch.zeros(L, B, H)), "cost": None}

    def step():
        i = st["i"] = (st["i"] + 1) % len(batches)
        x, y = batches[i]
        opt.zero_grad(set_to_none=True)
        logits, state = model(x, st["state"])
        cost = loss_fn(logits, y.reshape(-1)) / B
        cost.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
        st["state"] = tuple(s.detach() for s in state)
        st["cost"] = cost

    return step, lambda: float(st["cost"]) / T


def _numpy_full(threads):
    """The same model by hand: embedding rows, 2 fused-gate LSTM layers over [x, h], full softmax,
    backpropagation through the 20 steps, global-norm clipping, in-place SGD (sparse rows for
    the embedding)."""
    import numpy as np
    rng = np.random.RandomState(0)
    f32 = np.float32
    E = rng.uniform(-INIT, INIT, (V, H)).astype(f32)
    Ws = [rng.uniform(-INIT, INIT, (2 * H, 4 * H)).astype(f32) for _ in range(L)]
    bs = [np.zeros(4 * H, f32) for _ in range(L)]
    Wsm = rng.uniform(-INIT, INIT, (V, H)).astype(f32)
    bsm = rng.uniform(-INIT, INIT, V).astype(f32)
    batches = _batches()
    st = {"i": 0, "h": [np.zeros((B, H), f32) for _ in range(L)], "c": [np.zeros((B, H), f32) for _ in range(L)],
          "cost": None}

    def sigmoid(x):
        return 1 / (1 + np.exp(-x))

    def step():
        i = st["i"] = (st["i"] + 1) % len(batches)
        x, y = batches[i]
        inp = E[x]                                          # [B, T, H]
        caches = []
        layer_in = [inp[:, t] for t in range(T)]
        for l in range(L):
            h, c = st["h"][l], st["c"][l]
            cache, outs = [], []
            for t in range(T):
                xh = np.concatenate([layer_in[t], h], 1)
                z = xh @ Ws[l]
                z += bs[l]
                gi, gj, gf, go = sigmoid(z[:, :H]), np.tanh(z[:, H:2 * H]), sigmoid(z[:, 2 * H:3 * H]), \
                    sigmoid(z[:, 3 * H:])
                c_new = c * gf + gi * gj
                tc = np.tanh(c_new)
                h_new = tc * go
                cache.append((xh, c, gi, gj, gf, go, tc))
                h, c = h_new, c_new
                outs.append(h)
            st["h"][l], st["c"][l] = h, c
            caches.append(cache)
            layer_in = outs
        out = np.stack(layer_in, 1).reshape(-1, H)          # row b * T + t
        logits = out @ Wsm.T
        logits += bsm
        logits -= logits.max(1, keepdims=True)
        np.exp(logits, out=logits)
        logits /= logits.sum(1, keepdims=True)
        yf = y.reshape(-1)
        rows = np.arange(yf.size)
        st["cost"] = -np.log(logits[rows, yf]).sum() / B
        logits[rows, yf] -= 1
        logits *= f32(1.0 / B)                              # d cost / d logits
        dWsm = logits.T @ out
        dbsm = logits.sum(0)
        dout = (logits @ Wsm).reshape(B, T, H)
        dWs = [np.zeros_like(W) for W in Ws]
        dbs = [np.zeros_like(b) for b in bs]
        d_above = [dout[:, t] for t in range(T)]
        for l in range(L - 1, -1, -1):
            dh_next = np.zeros((B, H), f32)
            dc_next = np.zeros((B, H), f32)
            d_below = [None] * T
            for t in range(T - 1, -1, -1):
                xh, c_prev, gi, gj, gf, go, tc = caches[l][t]
                dh = d_above[t] + dh_next
                dgo = dh * tc
                dc = dc_next + dh * go * (1 - tc * tc)
                dz = np.concatenate([dc * gj * gi * (1 - gi), dc * gi * (1 - gj * gj),
                                     dc * c_prev * gf * (1 - gf), dgo * go * (1 - go)], 1)
                dWs[l] += xh.T @ dz
                dbs[l] += dz.sum(0)
                dxh = dz @ Ws[l].T
                d_below[t], dh_next = dxh[:, :H], dxh[:, H:]
                dc_next = dc * gf
            d_above = d_below
        dE_rows = np.stack(d_above, 1).reshape(-1, H)       # one row per looked-up id
        grads = dWs + dbs + [dWsm, dbsm, dE_rows]
        norm = np.sqrt(sum(float(np.vdot(g, g)) for g in grads))
        scale = f32(LR * CLIP / max(norm, CLIP))
        for W, g in zip(Ws + bs + [Wsm, bsm], dWs + dbs + [dWsm, dbsm]):
            g *= scale
            W -= g
        np.subtract.at(E, x.reshape(-1), dE_rows * scale)

    return step, lambda: float(st["cost"]) / T


BUILDERS = {"numpy-full": _numpy_full, "tensorweave-full": _tensorweave("full"),
            "tensorweave-sampled": _tensorweave("sampled"), "pytorch-full": _pytorch_full,
            "tensorflow-full": _tensorflow("full"), "tensorflow-sampled": _tensorflow("sampled")}


def worker(name, steps, warmup, threads):
    framework = MODULES[name] if MODULES[name] != "torch" else "pytorch"
    _harness.preimport(framework)
    step, final_loss = BUILDERS[name](threads)
    _harness.time_and_emit(name, step, final_loss, warmup, steps)


# ----------------------------------------------------------------------------- driver

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=30, help="timed steps (default: %(default)s)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed steps first (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="BLAS/intra-op threads for every framework (default: all cores)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="run every worker this many times, interleaved, keeping each one's best median "
                             "(default: %(default)s)")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="run only these workers or frameworks (e.g. tensorweave pytorch-full); "
                             "workers: " + ", ".join(WORKERS))
    parser.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")   # tf.nn.rnn_cell on TF 2.16+ needs tf-keras
        worker(args.worker, args.steps, args.warmup, args.threads)
        return 0

    wanted = [w for w in WORKERS if not args.only or w in args.only or w.split("-")[0] in args.only]
    if not wanted:
        parser.error("--only selects no worker")
    modules = {w: MODULES[w] for w in WORKERS}
    print("PTB-small LSTM LM (vocab %d, %d x %d LSTM, %d steps, batch %d), SGD + clip_by_global_norm; "
          "median of %d steps after %d warm-up; %d thread(s); best of %d interleaved round(s)"
          % (V, L, H, T, B, args.steps, args.warmup, args.threads, args.rounds))
    results = _harness.run_rounds(os.path.abspath(__file__), wanted, modules, args.rounds,
                                  ["--steps", str(args.steps), "--warmup", str(args.warmup)],
                                  args.threads, key="step_ms")
    base = results.get("numpy-full", {}).get("step_ms")
    pt = results.get("pytorch-full", {}).get("step_ms")
    print("%-20s %10s %9s %11s %10s %12s" % ("worker", "step ms", "vs numpy", "vs pytorch", "peak MiB",
                                            "loss/word"))
    for w in wanted:
        r = results[w]
        if "error" in r:
            print("%-20s  skipped: %s" % (w, r["error"]))
            continue
        print("%-20s %10.2f %9s %11s %10.0f %12.3f"
              % (w, r["step_ms"], "%.2fx" % (r["step_ms"] / base) if base else "-",
                 "%.2fx" % (r["step_ms"] / pt) if pt else "-", r["peak_rss_mb"], r["loss"]))
    full = results.get("tensorweave-full", {}).get("step_ms")
    sampled = results.get("tensorweave-sampled", {}).get("step_ms")
    if full and pt:
        print("target: tensorweave-full within 1.2x of pytorch-full: %s (%.2fx)"
              % ("met" if full <= 1.2 * pt else "NOT met", full / pt))
    if full and sampled:
        print("target: tensorweave-sampled >= 2x faster than tensorweave-full: %s (%.2fx)"
              % ("met" if full >= 2 * sampled else "NOT met", full / sampled))
    return 0


if __name__ == "__main__":
    sys.exit(main())
