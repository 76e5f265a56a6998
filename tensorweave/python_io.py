"""The `tf.python_io` namespace: TFRecord files."""

from .lib.io.tf_record import (TFRecordCompressionType, TFRecordOptions, TFRecordWriter,
                               tf_record_iterator)

__all__ = ["TFRecordWriter", "tf_record_iterator", "TFRecordOptions", "TFRecordCompressionType"]
