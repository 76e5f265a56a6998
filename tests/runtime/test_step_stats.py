"""Traced runs: RunMetadata.step_stats per device and op, and the Chrome-trace timeline."""

import json

import numpy as np

import tensorweave as tf
from tensorweave.python.client import timeline as client_timeline


def _traced(config, build):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [64, 64], name="x")
        out = build(x)
        with tf.Session(config=config) as s:
            feed = {x: np.ones((64, 64), np.float32)}
            plain = s.run(out, feed)
            md = tf.RunMetadata()
            traced = s.run(out, feed, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=md)
            np.testing.assert_allclose(traced, plain)
            plan = next(iter(s._cache.values())).plan
            assert "_now" not in plan.source and "step.trace" not in plan.source  # untraced plan pays nothing
            return md


def test_single_device_step_stats():
    md = _traced(None, lambda x: tf.reduce_sum(tf.tanh(tf.matmul(x, x, name="mm"), name="th"), name="total"))
    (dev,) = md.step_stats.dev_stats
    assert dev.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    names = [n.node_name for n in dev.node_stats]
    assert names == ["mm", "th", "total"]
    for n in dev.node_stats:
        assert n.all_start_micros > 1.5e15 and n.op_end_rel_micros >= 0 and n.all_end_rel_micros >= n.op_start_rel_micros
    assert dev.node_stats[0].timeline_label == "mm = MatMul(x:0, x:0)"
    starts = [n.all_start_micros for n in dev.node_stats]
    assert starts == sorted(starts)


def _two_devices(x):
    with tf.device("/cpu:1"):
        a = tf.matmul(x, x, name="a")
    with tf.device("/cpu:0"):
        b = tf.tanh(a, name="b")
    return b


def test_partitioned_step_stats_and_timeline(tmp_path):
    md = _traced(tf.ConfigProto(device_count={"CPU": 2}), _two_devices)
    by_dev = {d.device.rsplit(":", 2)[-2] + d.device[-1]: [n.node_name for n in d.node_stats]
              for d in md.step_stats.dev_stats}
    assert "a" in by_dev["CPU1"] and "b" in by_dev["CPU0"]
    assert any(n.endswith("_send_CPU_0") for n in by_dev["CPU1"])
    assert any(n.endswith("_recv_CPU_1") for n in by_dev["CPU0"])
    trace = tf.timeline.Timeline(md.step_stats).generate_chrome_trace_format(show_dataflow=True, show_memory=False)
    assert trace == client_timeline.Timeline(md.step_stats).generate_chrome_trace_format()
    events = json.loads(trace)["traceEvents"]
    procs = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert procs == {"/job:localhost/replica:0/task:0/device:CPU:0 Compute",
                     "/job:localhost/replica:0/task:0/device:CPU:1 Compute"}
    ops = {e["args"]["name"]: e for e in events if e["ph"] == "X"}
    assert ops["a"]["name"] == "MatMul" and ops["a"]["dur"] >= 0 and ops["a"]["args"]["input0"] == "x:0"
    flows = [e for e in events if e["ph"] in ("s", "t")]
    assert {e["ph"] for e in flows} == {"s", "t"} and flows[0]["name"] == "a:0"
    (tmp_path / "timeline.json").write_text(trace)


def test_measured_times_are_recorded_for_the_placer():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [8], name="x")
        y = tf.sin(x, name="y")
        with tf.Session() as s:
            s.run(y, {x: np.ones(8, np.float32)}, options=tf.RunOptions(trace_level=3),
                  run_metadata=tf.RunMetadata())
            assert ("y", "CPU") in s._measured
