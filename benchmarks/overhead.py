"""Per-op and per-run overhead of the executor.

(a) chain: 1,000 dependent float32[4] adds (y = y + x, x fed) run as one Session.run; we report
    microseconds per op, next to PyTorch eager doing the same chain, a bare NumPy np.add on
    float32[4] (the floor for a Python-dispatched kernel) and TensorFlow 1.x's graph (if
    installed).
(b) identity: Session.run(tf.identity(x)) with x a fed float32[1], same fetches and feeds every
    time (the plan is cached): microseconds per run, next to TensorFlow's.

    python benchmarks/overhead.py
    python benchmarks/overhead.py --only tensorweave numpy

Targets: <= 1.5 us per op on the chain; <= 20 us per identity run.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

CHAIN = 1000
FRAMEWORKS = ("numpy", "tensorweave", "pytorch", "tensorflow")


def _graph_chain_and_identity(tf, np, repeats, config=None):
    x_value = np.arange(4, dtype=np.float32)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [4], name="x")
        y = x
        for _ in range(CHAIN):
            y = y + x
        s = tf.placeholder(tf.float32, [1], name="s")
        ident = tf.identity(s)
    sess = tf.Session(graph=g, config=config)
    expected = x_value * (CHAIN + 1)
    out = sess.run(y, {x: x_value})                     # compiles and caches the plan
    assert np.allclose(out, expected), out
    chain_s = _harness.median_time(lambda: sess.run(y, {x: x_value}), repeats=repeats)
    s_value = np.ones(1, np.float32)
    feed = {s: s_value}
    sess.run(ident, feed)
    ident_s = _harness.median_time(lambda: sess.run(ident, feed), repeats=repeats, inner=1000)
    sess.close()
    return {"chain_us_per_op": chain_s / CHAIN * 1e6, "identity_us": ident_s * 1e6}


def worker(framework, repeats):
    import numpy as np
    if framework == "tensorweave":
        import tensorweave as tf
        result = _graph_chain_and_identity(tf, np, repeats)
    elif framework == "tensorflow":
        tf = _harness.import_tensorflow_v1()
        # Grappler's arithmetic optimizer would rewrite the add chain into one AddN; turn the
        # graph rewriters off so TF executes the 1,000 ops it was given.
        config = tf.ConfigProto()
        config.graph_options.rewrite_options.disable_meta_optimizer = True
        result = _graph_chain_and_identity(tf, np, repeats, config)
    elif framework == "numpy":
        x = np.arange(4, dtype=np.float32)

        def chain(add=np.add):               # bound locally: the cost is the ufunc call itself
            y = x
            for _ in range(CHAIN):
                y = add(y, x)
            return y
        assert np.allclose(chain(), x * (CHAIN + 1))
        result = {"chain_us_per_op": _harness.median_time(chain, repeats) / CHAIN * 1e6}
    elif framework == "pytorch":
        import torch
        torch.set_num_threads(1)
        x = torch.arange(4, dtype=torch.float32)

        def chain():
            y = x
            for _ in range(CHAIN):
                y = y + x
            return y
        with torch.no_grad():
            assert torch.allclose(chain(), x * (CHAIN + 1))
            result = {"chain_us_per_op": _harness.median_time(chain, repeats) / CHAIN * 1e6}
    _harness.emit(dict(result, framework=framework))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=50,
                        help="timed samples; the median is reported (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="run every framework this many times, interleaved, and keep each "
                             "one's best result (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="+", choices=FRAMEWORKS, help="run only these")
    parser.add_argument("--worker", choices=FRAMEWORKS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.repeats)
        return 0
    wanted = args.only or FRAMEWORKS
    modules = {"numpy": "numpy", "tensorweave": "tensorweave", "pytorch": "torch",
               "tensorflow": "tensorflow"}
    results = _harness.run_rounds(os.path.abspath(__file__), wanted, modules, args.rounds,
                                  ["--repeats", str(args.repeats)], 1, key="chain_us_per_op")
    print("(a) chain of %d dependent float32[4] adds (one Session.run for graph frameworks); "
          "median of %d runs, best of %d round(s)" % (CHAIN, args.repeats, args.rounds))
    floor = results.get("numpy", {}).get("chain_us_per_op")
    for fw in wanted:
        r = results[fw]
        if "error" in r:
            print("    %-12s skipped: %s" % (fw, r["error"]))
        else:
            ratio = " (%.2fx numpy np.add)" % (r["chain_us_per_op"] / floor) if floor else ""
            print("    %-12s %8.3f us/op%s" % (fw, r["chain_us_per_op"], ratio))
    print("(b) Session.run(tf.identity(x)), x fed float32[1], cached plan; median of %d x 1000 runs"
          % args.repeats)
    for fw in ("tensorweave", "tensorflow"):
        r = results.get(fw)
        if r and "identity_us" in r:
            print("    %-12s %8.2f us/run" % (fw, r["identity_us"]))
        elif r is not None:
            print("    %-12s skipped: %s" % (fw, r.get("error", "-")))
    tw = results.get("tensorweave", {})
    if "chain_us_per_op" in tw:
        print("target: <= 1.5 us/op on the chain: %s (%.3f)"
              % ("met" if tw["chain_us_per_op"] <= 1.5 else "NOT met", tw["chain_us_per_op"]))
        print("target: <= 20 us per identity run: %s (%.2f)"
              % ("met" if tw["identity_us"] <= 20 else "NOT met", tw["identity_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
