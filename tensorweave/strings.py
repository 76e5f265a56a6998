"""The tf.strings namespace (compat.v1): string formatting, joining, splitting, parsing,
regular expressions and hashing. `tf.strings.split` returns TF1's SparseTensor form; ngrams and
unicode_encode take dense inputs; split(result_type='RaggedTensor'), unicode_decode/split, bytes_split
and ngrams of a RaggedTensor return RaggedTensors (tensorweave/ragged)."""

from .ops.string_ops import as_string, reduce_join, regex_full_match, regex_replace, substr  # noqa: F401
from .ops.string_ops import string_format as format  # noqa: F401,A001
from .ops.string_ops import string_join as join  # noqa: F401
from .ops.string_ops import string_length as length  # noqa: F401
from .ops.string_ops import string_lower as lower  # noqa: F401
from .ops.string_ops import string_strip as strip  # noqa: F401
from .ops.string_ops import string_to_hash_bucket as to_hash_bucket  # noqa: F401
from .ops.string_ops import string_to_hash_bucket_fast as to_hash_bucket_fast  # noqa: F401
from .ops.string_ops import string_to_hash_bucket_strong as to_hash_bucket_strong  # noqa: F401
from .ops.string_ops import string_to_number as to_number  # noqa: F401
from .ops.string_ops import string_upper as upper  # noqa: F401

__all__ = ["as_string", "format", "join", "length", "lower", "reduce_join", "regex_full_match",
           "regex_replace", "split", "strip", "substr", "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number", "upper"]

from .ragged.ragged_strings import (bytes_split, unicode_decode, unicode_decode_with_offsets,  # noqa: E402,F401
                                    unicode_split, unicode_split_with_offsets)
from .ragged.ragged_strings import strings_split_v1 as split  # noqa: E402,F401
from .ragged.ragged_strings import ngrams  # noqa: E402,F401
__all__ += ["bytes_split", "unicode_decode", "unicode_decode_with_offsets", "unicode_split",
            "unicode_split_with_offsets"]

from .ops.string_extra_ops import (unicode_encode, unicode_script, unicode_transcode,  # noqa: E402,F401
                                   unsorted_segment_join)
__all__ += ["ngrams", "unicode_encode", "unicode_script", "unicode_transcode", "unsorted_segment_join"]
