"""The TensorFlow paper's Table 1 on this machine: training step time of AlexNet, Overfeat,
OxfordNet (VGG-A) and GoogLeNet (224x224x3 images, softmax cross-entropy, SGD), for tensorweave
beside PyTorch eager and TensorFlow 1.x graph mode when they are installed.

The tensorweave and TensorFlow models are the same code (tensorweave/models/convnets.py, built
with tf.layers); the PyTorch models mirror them layer by layer (NCHW, as PyTorch prefers). Each
(model, framework) runs in its own subprocess; frameworks are interleaved per model, best of
--rounds kept. Reported: median step time, tensorweave's ratio to each peer, peak RSS.

    python benchmarks/convnets.py                             # all four models, default batches
    python benchmarks/convnets.py --models alexnet --batch 16 --steps 5
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

FRAMEWORKS = ("tensorweave", "pytorch", "tensorflow", "tensorflow-onednn")
MODELS = ("alexnet", "overfeat", "oxfordnet", "googlenet")
DEFAULT_BATCH = {"alexnet": 16, "overfeat": 8, "oxfordnet": 4, "googlenet": 8}
SIZE = 224


def _graph_step_fn(tf, threads, model, batch):
    import numpy as np
    from tensorweave.models import convnets
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [batch, SIZE, SIZE, 3])
        y = tf.placeholder(tf.int64, [batch])
        loss, train_op = convnets.train_op(tf, convnets.MODELS[model](tf, x), y, learning_rate=0.01)
        init = tf.global_variables_initializer()
    config = tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)
    sess = tf.Session(graph=graph, config=config)
    sess.run(init)
    rng = np.random.RandomState(0)
    xv = rng.rand(batch, SIZE, SIZE, 3).astype(np.float32)
    yv = rng.randint(0, 1000, size=batch).astype(np.int64)
    return (lambda: sess.run(train_op, {x: xv, y: yv})), (lambda: float(sess.run(loss, {x: xv, y: yv})))


def _torch_model(torch, model):
    nn = torch.nn

    def conv(cin, cout, k, s=1, p=None):
        return [nn.Conv2d(cin, cout, k, s, k // 2 if p is None else p), nn.ReLU(inplace=True)]

    def fc(units, relu=True):
        return [nn.LazyLinear(units)] + ([nn.ReLU(inplace=True)] if relu else [])

    if model == "alexnet":
        layers = (conv(3, 64, 11, 4, 0) + [nn.MaxPool2d(3, 2)] + conv(64, 192, 5) + [nn.MaxPool2d(3, 2)] +
                  conv(192, 384, 3) + conv(384, 256, 3) + conv(256, 256, 3) + [nn.MaxPool2d(3, 2)] +
                  [nn.Flatten()] + fc(4096) + fc(4096) + fc(1000, False))
    elif model == "overfeat":
        layers = (conv(3, 96, 11, 4, 0) + [nn.MaxPool2d(2)] + conv(96, 256, 5, 1, 0) + [nn.MaxPool2d(2)] +
                  conv(256, 512, 3) + conv(512, 1024, 3) + conv(1024, 1024, 3) + [nn.MaxPool2d(2)] +
                  [nn.Flatten()] + fc(3072) + fc(4096) + fc(1000, False))
    elif model == "oxfordnet":
        layers, cin = [], 3
        for filters, convs in [(64, 1), (128, 1), (256, 2), (512, 2), (512, 2)]:
            for _ in range(convs):
                layers += conv(cin, filters, 3)
                cin = filters
            layers.append(nn.MaxPool2d(2))
        layers += [nn.Flatten()] + fc(4096) + fc(4096) + fc(1000, False)
    else:
        class Inception(nn.Module):
            def __init__(self, cin, c1, c3r, c3, c5r, c5, pp):
                super().__init__()
                self.b1 = nn.Sequential(*conv(cin, c1, 1))
                self.b2 = nn.Sequential(*(conv(cin, c3r, 1) + conv(c3r, c3, 3)))
                self.b3 = nn.Sequential(*(conv(cin, c5r, 1) + conv(c5r, c5, 5)))
                self.b4 = nn.Sequential(nn.MaxPool2d(3, 1, 1), *conv(cin, pp, 1))

            def forward(self, x):
                return torch.cat([self.b1(x), self.b2(x), self.b3(x), self.b4(x)], 1)

        layers = (conv(3, 64, 7, 2) + [nn.MaxPool2d(3, 2, 1)] + conv(64, 64, 1) + conv(64, 192, 3) +
                  [nn.MaxPool2d(3, 2, 1), Inception(192, 64, 96, 128, 16, 32, 32),
                   Inception(256, 128, 128, 192, 32, 96, 64), nn.MaxPool2d(3, 2, 1),
                   Inception(480, 192, 96, 208, 16, 48, 64), Inception(512, 160, 112, 224, 24, 64, 64),
                   Inception(512, 128, 128, 256, 24, 64, 64), Inception(512, 112, 144, 288, 32, 64, 64),
                   Inception(528, 256, 160, 320, 32, 128, 128), nn.MaxPool2d(3, 2, 1),
                   Inception(832, 256, 160, 320, 32, 128, 128), Inception(832, 384, 192, 384, 48, 128, 128),
                   nn.AvgPool2d(7, 1), nn.Flatten()] + fc(1000, False))
    return nn.Sequential(*layers)


def _pytorch_step_fn(threads, model, batch):
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    net = _torch_model(torch, model)
    x = torch.rand(batch, 3, SIZE, SIZE)
    y = torch.randint(0, 1000, (batch,))
    net(x)                                           # materialize the lazy layers
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    state = {}

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        state["loss"] = loss
    return step, lambda: float(state["loss"])


def worker(framework, model, batch, steps, warmup, threads):
    _harness.preimport(framework)
    rss_before = _harness.current_rss_mb()
    if framework == "tensorweave":
        import tensorweave as tf
        step, final = _graph_step_fn(tf, threads, model, batch)
    elif framework in ("tensorflow", _harness.ONEDNN):
        step, final = _graph_step_fn(_harness.import_tensorflow_v1(), threads, model, batch)
    else:
        step, final = _pytorch_step_fn(threads, model, batch)
    _harness.time_and_emit(framework, step, final, warmup, steps, rss_after_import_mb=rss_before)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", choices=MODELS, default=list(MODELS))
    parser.add_argument("--batch", type=int, help="batch for every model (default: per model, "
                        + ", ".join("%s %d" % kv for kv in DEFAULT_BATCH.items()) + ")")
    parser.add_argument("--steps", type=int, default=3, help="timed steps (default: %(default)s)")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=FRAMEWORKS)
    parser.add_argument("--worker", choices=FRAMEWORKS, help=argparse.SUPPRESS)
    parser.add_argument("--model", choices=MODELS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
        worker(args.worker, args.model, args.batch, args.steps, args.warmup, args.threads)
        return 0
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    wanted = args.only or FRAMEWORKS
    modules = {"tensorweave": "tensorweave", "pytorch": "torch", "tensorflow": "tensorflow",
               _harness.ONEDNN: "tensorflow"}
    print("Training step, %dx%dx3 images, SGD, float32; median of %d steps after %d warm-up; "
          "%d thread(s); one subprocess per (model, framework); best of %d round(s)"
          % (SIZE, SIZE, args.steps, args.warmup, args.threads, args.rounds))
    print("%-10s %5s %-17s %10s %12s %14s" % ("model", "batch", "framework", "step ms",
                                             "tw / this", "peak RSS MiB"))
    for model in args.models:
        batch = args.batch or DEFAULT_BATCH[model]
        results = _harness.run_rounds(
            os.path.abspath(__file__), wanted, modules, args.rounds,
            ["--model", model, "--batch", str(batch), "--steps", str(args.steps),
             "--warmup", str(args.warmup)], args.threads, key="step_ms")
        base = results.get("tensorweave", {}).get("step_ms")
        for fw in wanted:
            r = results[fw]
            if "error" in r:
                print("%-10s %5d %-17s  skipped: %s" % (model, batch, fw, r["error"]))
                continue
            ratio = "%.2fx" % (base / r["step_ms"]) if base else "-"
            print("%-10s %5d %-17s %10.1f %12s %14.1f" % (model, batch, fw, r["step_ms"], ratio,
                                                        r["peak_rss_mb"]), flush=True)
    print("(tw / this: tensorweave's step time divided by the framework's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
