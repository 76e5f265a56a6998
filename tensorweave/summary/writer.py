"""TensorBoard event files: `tf.summary.FileWriter`, `FileWriterCache`, `summary_iterator`.

An event file `events.out.tfevents.<seconds>.<hostname><suffix>` is a TFRecord stream of `Event`
protos; the first one carries `file_version: "brain.Event:2"`. TensorBoard reads it as written by
TensorFlow.
"""

import os
import socket
import threading
import time

from ..lib.io import tf_record

__all__ = ["FileWriter", "FileWriterCache", "EventFileWriter", "summary_iterator"]


def _event_pb():
    from ..protos.event_pb2 import Event
    return Event


class EventFileWriter:
    """Appends Event protos to a new event file in `logdir`. Events are buffered and flushed
    every `flush_secs`, when `max_queue` are pending, and on flush()/close()."""

    def __init__(self, logdir, max_queue=10, flush_secs=120, filename_suffix=None):
        self._logdir = str(logdir)
        os.makedirs(self._logdir, exist_ok=True)
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._lock = threading.Lock()
        self._pending = []
        self._closed = False
        self._suffix = filename_suffix or ""
        self._open_new_file()
        if self._suffix:
            # TF calls EventsWriter.InitWithSuffix when given a suffix: the file (with its header)
            # exists from the start.
            with self._lock:
                self._ensure_file_locked()

    def _open_new_file(self):
        # As TF's EventsWriter, the file (and its file_version header) is only created by the
        # first event: a writer that never writes leaves no file.
        self._file = None
        self._path = None
        self._last_flush = time.time()

    def _ensure_file_locked(self):
        if self._file is not None:
            return
        now = int(time.time())   # TF names the file and stamps the header with whole seconds
        name = f"events.out.tfevents.{now:010d}.{socket.gethostname()}{self._suffix}"
        self._path = os.path.join(self._logdir, name)
        self._file = open(self._path, "ab")
        Event = _event_pb()
        header = Event(wall_time=now, file_version="brain.Event:2")
        header.source_metadata.writer = "tensorflow.core.util.events_writer"
        self._file.write(tf_record.encode_record(header.SerializeToString()))
        self._file.flush()

    def get_logdir(self):
        return self._logdir

    def add_event(self, event):
        with self._lock:
            if self._closed:
                return
            self._ensure_file_locked()
            self._pending.append(tf_record.encode_record(
                event if isinstance(event, (bytes, bytearray)) else event.SerializeToString()))
            if len(self._pending) >= self._max_queue or time.time() - self._last_flush >= self._flush_secs:
                self._flush_locked()

    def _flush_locked(self):
        if self._file is None:
            return
        if self._pending:
            self._file.write(b"".join(self._pending))
            self._pending = []
        self._file.flush()
        self._last_flush = time.time()

    def flush(self):
        with self._lock:
            if not self._closed:
                self._flush_locked()

    def close(self):
        with self._lock:
            if not self._closed:
                self._flush_locked()
                if self._file is not None:
                    self._file.close()
                self._closed = True

    def reopen(self):
        """Opens a new event file after close() (a no-op if open)."""
        with self._lock:
            if self._closed:
                self._closed = False
                self._open_new_file()


class FileWriter:
    """Writes summaries, graphs and session logs to an event file (`tf.summary.FileWriter`).

        writer = tf.summary.FileWriter("/tmp/logs", sess.graph)
        writer.add_summary(sess.run(merged), global_step=step)
        writer.close()
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        if session is not None:
            raise NotImplementedError("FileWriter(session=...) (graph-op summary writers) is not supported; "
                                      "omit `session`")
        self.event_writer = EventFileWriter(logdir, max_queue, flush_secs, filename_suffix)
        self._seen_summary_tags = set()
        if graph is not None or graph_def is not None:
            self.add_graph(graph=graph, graph_def=graph_def)
            # Like TF's writer, the constructor also records the MetaGraphDef (a second event).
            from ..framework import meta_graph
            gd = graph_def if graph_def is not None else (
                graph.as_graph_def(add_shapes=True) if hasattr(graph, "as_graph_def") else graph)
            self.add_meta_graph(meta_graph.create_meta_graph_def(graph_def=gd))

    def get_logdir(self):
        return self.event_writer.get_logdir()

    def add_event(self, event):
        self.event_writer.add_event(event)

    def _add_event(self, event, step):
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    def add_summary(self, summary, global_step=None):
        """Adds a Summary proto, or the bytes of one (what a summary op returns)."""
        from ..protos.summary_pb2 import Summary
        import numpy as np
        if isinstance(summary, np.ndarray):
            summary = summary.item()
        if isinstance(summary, (bytes, bytearray)):
            summary = Summary.FromString(bytes(summary))
        elif not isinstance(summary, Summary) and hasattr(summary, "SerializeToString"):
            summary = Summary.FromString(summary.SerializeToString())
        # TF: summary metadata is written only the first time a tag is seen.
        for value in summary.value:
            if not value.metadata.ListFields():
                continue
            if value.tag in self._seen_summary_tags:
                value.ClearField("metadata")
                continue
            self._seen_summary_tags.add(value.tag)
        Event = _event_pb()
        self._add_event(Event(summary=summary), global_step)

    def add_session_log(self, session_log, global_step=None):
        Event = _event_pb()
        self._add_event(Event(session_log=session_log), global_step)

    def add_graph(self, graph=None, global_step=None, graph_def=None):
        """Adds a graph (or a GraphDef) for TensorBoard's graph view."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        # TF accepts a Graph or a GraphDef through either argument.
        g = graph if graph is not None else graph_def
        if hasattr(g, "as_graph_def"):
            gd = g.as_graph_def(add_shapes=True)
        elif g is not None and type(g).__name__ == "GraphDef" and hasattr(g, "SerializeToString"):
            gd = g
        else:
            raise TypeError("The passed graph must be an instance of `Graph` or the deprecated `GraphDef`")
        Event = _event_pb()
        self._add_event(Event(graph_def=gd.SerializeToString()), global_step)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        Event = _event_pb()
        self._add_event(Event(meta_graph_def=meta_graph_def.SerializeToString()), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Adds step metadata under `tag` (run_metadata: a proto, or bytes)."""
        from ..protos.event_pb2 import TaggedRunMetadata
        if tag in self._seen_summary_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._seen_summary_tags.add(tag)
        data = run_metadata if isinstance(run_metadata, bytes) else \
            run_metadata.SerializeToString() if hasattr(run_metadata, "SerializeToString") else b""
        Event = _event_pb()
        self._add_event(Event(tagged_run_metadata=TaggedRunMetadata(tag=tag, run_metadata=data)), global_step)

    def flush(self):
        self.event_writer.flush()

    def close(self):
        self.event_writer.close()

    def reopen(self):
        self.event_writer.reopen()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileWriterCache:
    """One FileWriter per log directory (`tf.summary.FileWriterCache`)."""

    _cache = {}
    _lock = threading.RLock()

    @staticmethod
    def get(logdir):
        with FileWriterCache._lock:
            w = FileWriterCache._cache.get(logdir)
            if w is None:
                from ..framework.graph import get_default_graph
                w = FileWriter(logdir, graph=get_default_graph())
                FileWriterCache._cache[logdir] = w
            return w

    @staticmethod
    def clear():
        with FileWriterCache._lock:
            for w in FileWriterCache._cache.values():
                w.close()
            FileWriterCache._cache.clear()


def summary_iterator(path):
    """Yields the Event protos of an event file (`tf.train.summary_iterator`)."""
    Event = _event_pb()
    for record in tf_record.tf_record_iterator(path):
        yield Event.FromString(record)
