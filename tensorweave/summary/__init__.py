"""The `tf.summary` namespace: summary ops and TensorBoard event-file writers."""

from ..protos.event_pb2 import Event, SessionLog, TaggedRunMetadata
from ..protos.summary_pb2 import Summary, SummaryDescription, SummaryMetadata
from .summary_ops import (audio, get_summary_description, histogram, image, merge, merge_all, scalar,
                          tensor_summary, text)
from .writer import FileWriter, FileWriterCache, summary_iterator

__all__ = ["scalar", "histogram", "image", "text", "audio", "tensor_summary", "merge", "merge_all",
           "get_summary_description", "FileWriter", "FileWriterCache", "Summary", "SummaryDescription",
           "SummaryMetadata", "Event", "SessionLog", "TaggedRunMetadata", "summary_iterator"]
