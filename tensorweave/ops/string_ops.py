"""String ops: formatting (`tf.as_string`), joining (`tf.string_join`, `tf.reduce_join`), lengths and
substrings, splitting into a SparseTensor (`tf.string_split`, TF1's `tf.strings.split`), parsing
numbers, regular expressions, case and whitespace, and hashing into buckets.

String tensors hold NumPy object arrays of `bytes` (dtype `tf.string`); none of these ops is
differentiable. Op types, default names and attributes are TensorFlow's:

- `tf.strings.regex_replace` / `regex_full_match` with Python-string patterns make the
  `StaticRegexReplace` / `StaticRegexFullMatch` ops (pattern as an attribute), with tensor patterns
  `RegexReplace` / `RegexFullMatch`, as TF does. Patterns are RE2 syntax, run by Python's `re`
  (the same for the common subset: classes, groups, alternation, repetition, anchors); the
  rewrite uses RE2's `\\0`..`\\9` and `\\\\`.
- `tf.strings.to_hash_bucket_fast` is TF's Fingerprint64 (FarmHash) modulo `num_buckets`,
  bit-exact (`tensorweave.lib.farmhash`).
- `tf.strings.split` returns TF1's SparseTensor form (`result_type="SparseTensor"`, the compat.v1
  default); RaggedTensor results are not supported (ValueError).
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.op_util import apply_op, broadcast_shapes, merge_shapes, unchanged_shape
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, note_input_value, unknown_shape

# The tf.* names (TF1's top level); the others are reached through tf.strings.
__all__ = ["as_string", "string_join", "reduce_join", "substr", "string_split", "string_to_number",
           "regex_replace", "string_strip", "string_to_hash_bucket_fast", "string_to_hash_bucket",
           "string_to_hash_bucket_strong"]

_UNARY = ("AsString", "StringLength", "StringToNumber", "StringStrip", "StringLower", "StringUpper",
          "StringToHashBucketFast", "StringToHashBucket", "StringToHashBucketStrong", "StaticRegexReplace", "StaticRegexFullMatch", "RegexReplace",
          "RegexFullMatch")
for _t in _UNARY:
    registry.register_op(_t, shape_fn=unchanged_shape)
    registry.no_gradient(_t)


def _string_join_shape(op):
    """TF's: every non-scalar input has the same shape; all scalars give a scalar."""
    out = None
    for t in op._inputs:
        s = t._shape
        if s.ndims == 0:
            continue
        out = s if out is None else merge_shapes(out, s)
    return [out if out is not None else TensorShape([])]


def _substr_shape(op):
    inp, pos, ln = (t._shape for t in op._inputs)
    if pos.ndims is not None and ln.ndims is not None and pos.ndims != ln.ndims:
        raise ValueError(f"Shape must be rank {ln.ndims} but is rank {pos.ndims}")   # (TF's order)
    pos = merge_shapes(pos, ln)
    return [broadcast_shapes(inp, pos)]


def _split_shape(op):
    src = op._inputs[0]._shape
    if src.ndims is not None and src.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {src.ndims}")
    d = op._inputs[1]._shape
    if d.ndims is not None and d.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {d.ndims}")
    return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]


def _reduce_join_shape(op):
    shape = op._inputs[0]._shape
    axes = constant_value(op._inputs[1])
    keep = op._attrs["keep_dims"]
    if shape.ndims is None:
        return [unknown_shape()]
    if axes is None:
        return [unknown_shape(rank=shape.ndims) if keep else unknown_shape()]
    note_input_value(1, axes)  # TF's shape-error message lists the axes it read
    axes = _norm_axes(np.asarray(axes).reshape(-1), shape.ndims, ValueError)
    dims = shape.as_list()
    out = [1 if i in axes else d for i, d in enumerate(dims)] if keep else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [TensorShape(out)]


def _norm_axes(axes, rank, error):
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise error(f"Invalid reduction dimension {a} for input with {rank} dimensions.")
        a %= rank if rank else 1
        if a not in out:  # TF's ReductionShape takes the set of axes; the kernel rejects duplicates
            out.append(a)
    return out


registry.register_op("StringJoin", shape_fn=_string_join_shape)
registry.register_op("Substr", shape_fn=_substr_shape)
registry.register_op("StringSplit", shape_fn=_split_shape)
registry.register_op("StringSplitV2", shape_fn=_split_shape)
registry.register_op("ReduceJoin", shape_fn=_reduce_join_shape)
registry.register_op("StringFormat", shape_fn=lambda op: [TensorShape([])])
for _t in ("StringJoin", "Substr", "StringSplit", "StringSplitV2", "ReduceJoin", "StringFormat"):
    registry.no_gradient(_t)


# -- helpers ---------------------------------------------------------------------------------

def _str_tensor(value, name, op_type=None):
    t = convert_to_tensor(value, name=name, preferred_dtype=_dtypes.string) \
        if not isinstance(value, Tensor) else value
    if t.dtype.base_dtype != _dtypes.string:
        if op_type is not None and isinstance(value, Tensor):
            # TF's op-def check of a Tensor input
            raise TypeError(f"Input '{name}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not "
                            "match expected type of string.")
        raise TypeError(f"Input '{name}' expected type string but got {t.dtype.base_dtype.name}.")
    return t


def _str_op(op_type, name, inputs, out_dtype, attrs=None):
    """Makes `op_type` named `name` (TF's default: the op type), converting Python inputs to
    constants named after the op's argument inside its scope (`Substr/pos`), as TF does.
    `inputs` is a list of (value, arg name, converter)."""
    g = get_default_graph()
    for v, _, _ in inputs:
        if isinstance(v, Tensor):
            g = v.graph
            break
    with g.as_default(), g.name_scope(name or op_type) as scope:
        ts = [conv(v, arg, op_type) if conv is _str_tensor else conv(v, arg) for v, arg, conv in inputs]
        return apply_op(op_type, ts, [out_dtype], scope, attrs=attrs(ts) if callable(attrs) else attrs)


def _int_tensor(value, name, dtype=None):
    t = convert_to_tensor(value, name=name, dtype=dtype)
    if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter '{name}' has DataType {t.dtype.base_dtype.name} not in "
                        f"list of allowed values: int32, int64")
    return t


def _check_str_attr(value, arg):
    if isinstance(value, bytes):
        value = value.decode()
    if not isinstance(value, str):
        raise TypeError(f"Expected string for argument '{arg}' not {value!r}.")
    return value


# -- formatting and joining ----------------------------------------------------------------

def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each element formatted as a string, printf-style like TF: floats "%f" (`precision` digits,
    `scientific` "%e", `shortest` "%g"), integers "%d", bools "true"/"false", padded to `width`
    with `fill` (one of ' ', '0', '-', '+', '#' as a printf flag)."""
    # converted inside the op's scope ("AsString/input"), as TF's generated wrapper does
    return _str_op("AsString", name, [(input, "input", lambda v, a: convert_to_tensor(v, name=a))], _dtypes.string,
                   attrs=lambda ts: {"T": ts[0].dtype.base_dtype, "precision": int(precision),
                                     "scientific": bool(scientific), "shortest": bool(shortest),
                                     "width": int(width), "fill": _check_str_attr(fill, "fill")})


def string_join(inputs, separator="", name=None):
    """Elementwise concatenation of the string tensors `inputs` with `separator` between them;
    scalars broadcast against the others, which must all have the same shape."""
    separator = _check_str_attr(separator, "separator")
    inputs = list(inputs)

    def attrs(ts):
        # TF's op-def check of a list input names every element's type
        types = [t.dtype.base_dtype for t in ts]
        if any(t != _dtypes.string for t in types):
            raise TypeError(f"Tensors in list passed to 'inputs' of 'StringJoin' Op have types "
                            f"[{', '.join(t.name for t in types)}] that do not match expected type string.")
        return {"N": len(inputs), "separator": separator}

    def conv(v, arg):
        return v if isinstance(v, Tensor) else convert_to_tensor(v, name=arg, preferred_dtype=_dtypes.string)
    return _str_op("StringJoin", name, [(v, f"inputs_{i}", conv) for i, v in enumerate(inputs)], _dtypes.string,
                   attrs=attrs)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None,
                keepdims=None):
    """Joins the strings of `inputs` along `axis` (all axes by default) with `separator`; over
    several axes, the first listed varies fastest (TF's order)."""
    if axis is not None and reduction_indices is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
    axis = reduction_indices if axis is None else axis
    keep = bool(keepdims if keepdims is not None else keep_dims)
    separator = _check_str_attr(separator, "separator")
    with name_scope(name, "ReduceJoin", [inputs, axis]):
        x = _str_tensor(inputs, "inputs", "ReduceJoin")
        if axis is None:
            rank = x.shape.ndims
            if rank is None:
                raise ValueError("reduce_join over all axes needs an input of known rank")
            axis = constant(np.arange(rank - 1, -1, -1, dtype=np.int32))
        op_name = name or "ReduceJoin"
        with get_default_graph().name_scope(op_name) as op_scope:
            axis = _int_tensor(axis, "reduction_indices", dtype=None if isinstance(axis, Tensor)
                               else _dtypes.int32)
            return apply_op("ReduceJoin", [x, axis], [_dtypes.string], op_scope,
                            attrs={"keep_dims": keep, "separator": separator})


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """`tf.strings.format`: `template` with each `placeholder` replaced by the next tensor in
    `inputs`, printed like TF (`[1 2 3]`, at most `summarize` entries per dimension at each end)."""
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    inputs = [convert_to_tensor(t) for t in inputs]
    template = _check_str_attr(template, "template")
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the "
                         f"inputs only has {len(inputs)}. Please ensure the number of placeholders "
                         "in template matches inputs length.")
    return apply_op("StringFormat", inputs, [_dtypes.string], name or "StringFormat",
                    attrs={"T": [t.dtype.base_dtype for t in inputs], "template": template,
                           "placeholder": placeholder,
                           # None is the op's default, 3 (tf.print(..., summarize=None) passes it on)
                           "summarize": 3 if summarize is None else int(summarize)})


# -- lengths, substrings, case, whitespace -------------------------------------------------

_UNITS = ("BYTE", "UTF8_CHAR")


def _unit(unit, op):
    if unit not in _UNITS:
        raise ValueError(f"Attr 'unit' of '{op}' Op passed string '{unit}' not in: \"BYTE\", \"UTF8_CHAR\".")
    return unit


def string_length(input, name=None, unit="BYTE"):  # noqa: A002
    """The length of each string in bytes (`unit="BYTE"`) or UTF-8 characters ("UTF8_CHAR"), int32."""
    return _str_op("StringLength", name, [(input, "input", _str_tensor)], _dtypes.int32,
                   attrs=lambda ts: {"unit": _unit(unit, "StringLength")})


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002
    """input[pos:pos + len] per element (in bytes or UTF-8 characters); `pos` may be negative
    (from the end) and must lie in [-length, length]; `pos`/`len` broadcast against `input`."""
    def conv_len(v, a):
        return _int_tensor(v, a, dtype=None if isinstance(v, Tensor) or not isinstance(pos, Tensor)
                           else pos.dtype.base_dtype)

    def attrs(ts):
        if ts[1].dtype.base_dtype != ts[2].dtype.base_dtype:
            raise TypeError(f"Input 'len' of 'Substr' Op has type {ts[2].dtype.base_dtype.name} that does not "
                            f"match type {ts[1].dtype.base_dtype.name} of argument 'pos'.")
        # Checked after the inputs are converted, as TF does (the op's name is taken even so).
        return {"T": ts[1].dtype.base_dtype, "unit": _unit(unit, "Substr")}
    return _str_op("Substr", name, [(input, "input", _str_tensor), (pos, "pos", _int_tensor),
                                    (len, "len", conv_len)], _dtypes.string, attrs=attrs)


def string_strip(input, name=None):  # noqa: A002
    """Each string without leading and trailing ASCII whitespace."""
    return _str_op("StringStrip", name, [(input, "input", _str_tensor)], _dtypes.string)


def string_lower(input, encoding="", name=None):  # noqa: A002
    """Lower case: ASCII letters only (`encoding=""`), or Unicode with `encoding="utf-8"`."""
    return _str_op("StringLower", name, [(input, "input", _str_tensor)], _dtypes.string,
                   attrs={"encoding": _check_str_attr(encoding, "encoding")})


def string_upper(input, encoding="", name=None):  # noqa: A002
    """Upper case: ASCII letters only (`encoding=""`), or Unicode with `encoding="utf-8"`."""
    return _str_op("StringUpper", name, [(input, "input", _str_tensor)], _dtypes.string,
                   attrs={"encoding": _check_str_attr(encoding, "encoding")})


# -- splitting -----------------------------------------------------------------------------

def _split_result(outs):
    indices, values, shape = outs
    return SparseTensor(indices, values, shape)


def string_split(source, delimiter=" ", skip_empty=True, sep=None, result_type="SparseTensor",
                 name=None):
    """TF1's `tf.string_split`: splits each string of the 1-D `source` at every byte found in
    `delimiter` (an empty delimiter splits into bytes), dropping empty tokens when `skip_empty`.
    Returns a SparseTensor [len(source), max tokens] of the tokens."""
    if sep is not None:
        delimiter = sep
    if result_type != "SparseTensor":
        raise ValueError(f"tf.string_split(result_type={result_type!r}) is not supported: tensorweave has "
                         f"no RaggedTensor; use result_type='SparseTensor'.")
    with name_scope(name, "StringSplit", [source]):
        delimiter = convert_to_tensor(delimiter, dtype=_dtypes.string)
        # TF converts it unnamed, after the delimiter ("Const_1"); a non-string Tensor fails there
        source = convert_to_tensor(source, dtype=_dtypes.string)
        source = _str_tensor(source, "source")
        outs = apply_op("StringSplit", [source, delimiter],
                        [_dtypes.int64, _dtypes.string, _dtypes.int64], "StringSplit",
                        attrs={"skip_empty": bool(skip_empty)})
    return _split_result(outs)


def strings_split_v1(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None,  # noqa: A002
                     name=None):
    """compat.v1 `tf.strings.split`: splits each string of the 1-D `input` at `sep` (a whole
    string; None or empty: runs of whitespace), at most `maxsplit` times (-1: no limit). Returns
    the SparseTensor form; TF's `result_type="RaggedTensor"` is not supported here."""
    if source is not None:
        if input is not None:
            raise ValueError("Cannot specify both 'input' and 'source'.")
        input = source  # noqa: A001
    if input is None:
        raise ValueError("Missing required argument 'input'.")
    if result_type != "SparseTensor":
        raise ValueError(f"tf.strings.split(result_type={result_type!r}) is not supported: tensorweave has "
                         f"no RaggedTensor; use result_type='SparseTensor'.")
    with name_scope(name, "StringSplit", [input]):
        x = _str_tensor(input, "input")
        if x.shape.ndims is not None and x.shape.ndims != 1:
            raise ValueError("tf.strings.split supports 1-D input here (TF's N-D input gives a "
                             "RaggedTensor, which tensorweave does not have).")
        sep_t = convert_to_tensor("" if sep is None else sep, dtype=_dtypes.string)
        outs = apply_op("StringSplitV2", [x, sep_t], [_dtypes.int64, _dtypes.string, _dtypes.int64],
                        "StringSplitV2", attrs={"maxsplit": int(maxsplit)})
    return _split_result(outs)


# -- numbers, hashing, regular expressions -------------------------------------------------

_NUMBER_TYPES = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.uint32,
                 _dtypes.uint64)


def string_to_number(string_tensor, out_type=_dtypes.float32, name=None):
    """Parses each string as a number of `out_type` (float32 by default); a string that is not
    one raises InvalidArgumentError when run."""
    out_type = _dtypes.as_dtype(out_type).base_dtype
    if out_type not in _NUMBER_TYPES:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not in list of "
                        f"allowed values: float32, float64, int32, int64, uint32, uint64")
    return _str_op("StringToNumber", name, [(string_tensor, "string_tensor", _str_tensor)], out_type,
                   attrs={"out_type": out_type})


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Fingerprint64(s) mod num_buckets per string (int64), bit-identical to TF."""
    num_buckets = int(num_buckets)
    if num_buckets < 1:
        raise ValueError(f"Attr 'num_buckets' of 'StringToHashBucketFast' Op passed {num_buckets} less than "
                         f"minimum 1.")
    return _str_op("StringToHashBucketFast", name, [(input, "input", _str_tensor)], _dtypes.int64,
                   attrs={"num_buckets": num_buckets})


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    """Legacy hash: TF's Hash64 (a MurmurHash2-64 variant, seed 0xDECAFCAFFE) mod num_buckets,
    bit-identical to TF (`input` is the tf.strings alias of `string_tensor`)."""
    string_tensor = input if string_tensor is None else string_tensor
    num_buckets = int(num_buckets)
    if num_buckets < 1:
        raise ValueError(f"Attr 'num_buckets' of 'StringToHashBucket' Op passed {num_buckets} less than "
                         f"minimum 1.")
    return _str_op("StringToHashBucket", name, [(string_tensor, "string_tensor", _str_tensor)], _dtypes.int64,
                   attrs={"num_buckets": num_buckets})


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 keyed by the two uint64 `key` values, mod num_buckets (TF's StrongKeyedHash),
    bit-identical to TF. A key without exactly 2 elements fails when run, as in TF."""
    num_buckets = int(num_buckets)
    if num_buckets < 1:
        raise ValueError(f"Attr 'num_buckets' of 'StringToHashBucketStrong' Op passed {num_buckets} less than "
                         f"minimum 1.")
    key = [int(k) for k in key]
    return _str_op("StringToHashBucketStrong", name, [(input, "input", _str_tensor)], _dtypes.int64,
                   attrs={"num_buckets": num_buckets, "key": key})


def _is_static(v):
    return isinstance(v, (str, bytes))


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces matches of the RE2 `pattern` in each string by `rewrite` (`\\1` for groups,
    `\\0` the whole match); only the first match unless `replace_global`."""
    if _is_static(pattern) and _is_static(rewrite):
        return _str_op("StaticRegexReplace", name, [(input, "input", _str_tensor)], _dtypes.string,
                       attrs={"pattern": _check_str_attr(pattern, "pattern"),
                              "rewrite": _check_str_attr(rewrite, "rewrite"),
                              "replace_global": bool(replace_global)})
    return _str_op("RegexReplace", name, [(input, "input", _str_tensor), (pattern, "pattern", _str_tensor),
                                          (rewrite, "rewrite", _str_tensor)], _dtypes.string,
                   attrs={"replace_global": bool(replace_global)})


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches the RE2 `pattern` (bool)."""
    if _is_static(pattern):
        return _str_op("StaticRegexFullMatch", name, [(input, "input", _str_tensor)], _dtypes.bool,
                       attrs={"pattern": _check_str_attr(pattern, "pattern")})
    return _str_op("RegexFullMatch", name, [(input, "input", _str_tensor), (pattern, "pattern", _str_tensor)],
                   _dtypes.bool)
