"""tf.train.Example and its Feature messages (wire-compatible with TensorFlow's)."""

from ...protos.example_pb2 import Example, SequenceExample
from ...protos.feature_pb2 import BytesList, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List

__all__ = ["Example", "SequenceExample", "Feature", "Features", "FeatureList", "FeatureLists",
           "BytesList", "FloatList", "Int64List"]
