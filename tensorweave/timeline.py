"""Chrome-trace timelines of traced steps, like `tensorflow.python.client.timeline`.

    run_metadata = tf.RunMetadata()
    sess.run(train_op, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
             run_metadata=run_metadata)
    trace = timeline.Timeline(run_metadata.step_stats)
    open("timeline.json", "w").write(trace.generate_chrome_trace_format(show_dataflow=True))

Load the file in chrome://tracing or https://ui.perfetto.dev: one process per device ("<device>
Compute"), one complete event ("ph": "X") per op with its name, type and inputs, and with
show_dataflow=True a flow arrow ("ph": "s" -> "t") from the op producing a tensor to each op on
another device that consumes it.
"""

import json

__all__ = ["Timeline"]


class Timeline:
    """A Chrome trace of `step_stats` (RunMetadata.step_stats); `graph` is accepted and unused."""

    def __init__(self, step_stats, graph=None):
        self._step_stats = step_stats
        self._graph = graph

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False):
        events = []
        producers = {}   # tensor name -> (pid, tid, ts_end)
        flow_id = 0
        starts = [ns.all_start_micros for ds in self._step_stats.dev_stats for ns in ds.node_stats]
        t0 = min(starts) if starts else 0
        for pid, ds in enumerate(self._step_stats.dev_stats):
            events.append({"name": "process_name", "ph": "M", "pid": pid,
                           "args": {"name": f"{ds.device} Compute"}})
            events.append({"name": "process_sort_index", "ph": "M", "pid": pid, "args": {"sort_index": pid}})
            tids = {}
            for ns in ds.node_stats:
                tid = tids.setdefault(ns.thread_id, len(tids))
                ts = ns.all_start_micros - t0
                dur = max(ns.op_end_rel_micros, 0)
                args = {"name": ns.node_name, "op": ns.op_type or ns.timeline_label.split("(")[0].split("= ")[-1]}
                for i, inp in enumerate(getattr(ns, "inputs", ())):
                    args[f"input{i}"] = inp
                events.append({"name": args["op"], "cat": "Op", "ph": "X", "pid": pid, "tid": tid,
                               "ts": ts, "dur": dur, "args": args})
                if ns.op_type not in ("_Send", "_Recv"):
                    producers[ns.node_name] = (pid, tid, ts + dur)
            for old, tid in tids.items():
                events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                               "args": {"name": f"thread {old}"}})
        if show_dataflow:
            for pid, ds in enumerate(self._step_stats.dev_stats):
                for ns in ds.node_stats:
                    if ns.op_type in ("_Send", "_Recv"):
                        continue
                    for inp in getattr(ns, "inputs", ()):
                        src = producers.get(inp.split(":")[0])
                        if src is None or src[0] == pid:
                            continue
                        flow_id += 1
                        spid, stid, sts = src
                        events.append({"name": inp, "cat": "DataFlow", "ph": "s", "id": flow_id,
                                       "pid": spid, "tid": stid, "ts": sts})
                        events.append({"name": inp, "cat": "DataFlow", "ph": "t", "id": flow_id,
                                       "pid": pid, "tid": 0, "ts": ns.all_start_micros - t0, "bp": "e"})
        return json.dumps({"traceEvents": events}, indent=None,
                          separators=(",", ":"))
