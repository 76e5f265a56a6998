"""`tf.nest`: flatten, pack, map and compare nested structures of lists, tuples, namedtuples and
dicts (and `attrs` classes), as TensorFlow's `nest` does.

Dicts flatten in sorted key order (an OrderedDict too, as TF does), their values packed back under
the same keys; strings and bytes are atoms, `None` is an atom. Error classes and messages follow
TF's (`ValueError` for a different shape, `TypeError` for a different sequence type).

    tf.nest.flatten({"b": [1, (2, 3)], "a": 4})            # [4, 1, 2, 3]
    tf.nest.map_structure(lambda x, y: x + y, [1, (2,)], [10, (20,)])   # [11, (22,)]
"""

import collections.abc as _abc

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_attrs(x):
    return hasattr(type(x), "__attrs_attrs__")


def is_nested(seq):
    """True for a list, tuple (namedtuple included), dict-like mapping or attrs object."""
    if isinstance(seq, (str, bytes)):
        return False
    return isinstance(seq, (list, tuple, _abc.Mapping, _abc.MappingView)) or _is_attrs(seq)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(seq):
    if isinstance(seq, _abc.Mapping):
        return [seq[k] for k in _sorted_keys(seq)]
    if _is_attrs(seq):
        return [getattr(seq, a.name) for a in type(seq).__attrs_attrs__]
    return list(seq)


def _rebuild(instance, args):
    """An object like `instance` holding `args` (in flattening order)."""
    if isinstance(instance, _abc.Mapping):
        result = dict(zip(_sorted_keys(instance), args))
        if isinstance(instance, dict) and type(instance) is dict:
            return {k: result[k] for k in instance}
        if type(instance).__name__ == "defaultdict":
            out = type(instance)(instance.default_factory)
        else:
            try:
                out = type(instance)()
            except TypeError:
                return type(instance)((k, result[k]) for k in instance)
        for k in instance:
            out[k] = result[k]
        return out
    if _is_namedtuple(instance) or _is_attrs(instance):
        return type(instance)(*args)
    if isinstance(instance, _abc.MappingView):
        return list(args)
    return type(instance)(args)


def flatten(structure, expand_composites=False):
    """The atoms of `structure`, depth first, dict values in sorted key order."""
    del expand_composites
    if not is_nested(structure):
        return [structure]
    out = []
    stack = [structure]
    # Iterative to survive deep structures; children pushed in reverse so they pop in order.
    while stack:
        s = stack.pop()
        if is_nested(s):
            stack.extend(reversed(_children(s)))
        else:
            out.append(s)
    return out


# The class names TF's messages show for tensorweave's graph classes (TF's graph tensor class is
# SymbolicTensor; a non-resource tf.Variable is a RefVariable).
_TF_TYPE_NAMES = {("tensorweave.framework.graph_elements", "Tensor"): "SymbolicTensor",
                  ("tensorweave.ops.variables", "Variable"): "RefVariable"}


def _type_name(x):
    t = type(x)
    return _TF_TYPE_NAMES.get((t.__module__, t.__name__), t.__name__)


def _short(x):
    return f"type={_type_name(x)} str={x}"


def _skeleton(s):
    if not is_nested(s):
        return "."
    if isinstance(s, _abc.Mapping):
        return "{" + ", ".join(f"{k!r}: {_skeleton(s[k])}" for k in s) + "}"
    inner = ", ".join(_skeleton(c) for c in _children(s))
    if _is_namedtuple(s):
        return f"{type(s).__name__}(" + ", ".join(f"{f}={_skeleton(v)}" for f, v in zip(s._fields, s)) + ")"
    if isinstance(s, tuple):
        return "(" + inner + ("," if len(s) == 1 else "") + ")"
    return "[" + inner + "]"


def _compare(a, b, check_types):
    """None when a and b match; else (error class, the 'More specifically' message)."""
    na, nb = is_nested(a), is_nested(b)
    if na != nb:
        x, y = (b, a) if nb else (a, b)
        return ValueError, f'Substructure "{_short(x)}" is a sequence, while substructure "{_short(y)}" is not'
    if not na:
        return None
    if check_types:
        ta, tb = type(a), type(b)
        same = ta is tb or (isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping))
        if not same:
            return TypeError, (f"The two namedtuples don't have the same sequence type. First structure "
                               f"{_short(a)} has type {ta.__name__}, while second structure {_short(b)} has "
                               f"type {tb.__name__}")
    if isinstance(a, _abc.Mapping) and isinstance(b, _abc.Mapping):
        if set(a) != set(b):
            return ValueError, (f"The two dictionaries don't have the same set of keys. First structure has "
                                f"keys {_short(list(a))}, while second structure has keys {_short(list(b))}")
    ca, cb = _children(a), _children(b)
    # TF walks both sequences together: a mismatch among the common elements is reported before
    # a difference in length
    for x, y in zip(ca, cb):
        r = _compare(x, y, check_types)
        if r is not None:
            return r
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: "
                            f"{_short(a)}. Second structure: {_short(b)}")
    return None


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises ValueError (different nesting or lengths) or TypeError (different sequence types,
    when `check_types`) unless `nest1` and `nest2` have the same structure."""
    del expand_composites
    r = _compare(nest1, nest2, check_types)
    if r is not None:
        cls, detail = r
        raise cls("The two structures don't have the same nested structure.\n\n"
                  f"First structure: {_short(nest1)}\n\nSecond structure: {_short(nest2)}\n\n"
                  f"More specifically: {detail}\nEntire first structure:\n{_skeleton(nest1)}\n"
                  f"Entire second structure:\n{_skeleton(nest2)}")


def _pack(structure, it):
    if not is_nested(structure):
        return next(it)
    return _rebuild(structure, [_pack(c, it) for c in _children(structure)])


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` packed into the nesting of `structure` (the inverse of `flatten`)."""
    del expand_composites
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but found "
                        f"incompatible type `{type(flat_sequence)}` instead.")
    flat_sequence = list(flat_sequence)
    if not is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever the "
                             f"input is a sequence ({type(flat_sequence)}) of length {len(flat_sequence)}.\n  "
                             f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the other.")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _pack(structure, iter(flat_sequence))


def map_structure(func, *structure, **kwargs):
    """`func` applied to the atoms at each position of the structures (which must match);
    the result has the first structure's nesting."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, "
                         f"not: `{', '.join(kwargs)}`")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flat = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*args) for args in zip(*flat)])
