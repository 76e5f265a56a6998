"""The `tf.io` namespace (re-exports only; each name lives in the module of its idea).

Add a line per module that contributes names (TFRecord files, parsing ops, file ops, ...).
"""

from ..lib.io.tf_record import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator
from ..protos.example_pb2 import Example, SequenceExample
from ..protos.feature_pb2 import (BytesList, Feature, FeatureList, FeatureLists, Features, FloatList,
                                  Int64List)
from ..ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_raw,  # noqa: F401
                                parse_example, parse_single_example, decode_csv, SparseFeature)
from ..ops.parsing_sequence_ops import parse_sequence_example, parse_single_sequence_example  # noqa: F401,E402
from ..ops.data_flow_ops import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,  # noqa: F401,E402
                                 RandomShuffleQueue)
from ..ops.serialization_ops import (decode_base64, decode_compressed, decode_json_example,  # noqa: F401,E402
                                     deserialize_many_sparse, encode_base64, match_filenames_once, matching_files,
                                     parse_tensor, read_file, serialize_many_sparse, serialize_sparse,
                                     serialize_tensor, write_file)
from ..framework.graph_io import write_graph  # noqa: F401,E402
from ..platform import io_gfile as gfile  # noqa: F401,E402  (TF2 names: exists, glob, ...)
from ..ops.image_codec_ops import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: F401,E402
                                   decode_jpeg, decode_png, encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg)
