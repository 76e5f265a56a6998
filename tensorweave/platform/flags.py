"""`tf.flags` / `tf.app.flags`: absl-style command-line flags (DEFINE_string, ..., FLAGS).

Flags are parsed from sys.argv on first attribute access of FLAGS (or by `tf.app.run`); unknown
arguments are left for the program (`FLAGS(argv)` returns them)."""

import sys

__all__ = ["FLAGS", "FlagHolder", "set_default", "override_value", "DEFINE_enum_class", "DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean", "DEFINE_bool",
           "DEFINE_list", "DEFINE_enum", "Flag", "mark_flag_as_required"]


class Flag:
    def __init__(self, name, default, help, parser, kind):
        self.name = name
        self.default = default
        self.value = default
        self.help = help
        self.parser = parser
        self.kind = kind
        self.present = False


class _FlagValues:
    """The set of defined flags; attribute access gives a flag's value."""

    def __init__(self):
        object.__setattr__(self, "_flags", {})
        object.__setattr__(self, "_parsed", False)
        object.__setattr__(self, "_required", set())
        object.__setattr__(self, "_validators", [])
        object.__setattr__(self, "_aliases", {})

    def _define(self, flag):
        if flag.name in self._flags:
            raise ValueError(f"Flag --{flag.name} defined twice")
        self._flags[flag.name] = flag
        return FlagHolder(self, flag)

    def get_flag_value(self, name, default):
        """The value of flag `name`, or `default` when no such flag is defined."""
        return getattr(self, name) if name in self._flags else default

    def __call__(self, argv, known_only=False):
        """Parses argv (argv[0] is the program); returns the arguments that are not flags."""
        rest = [argv[0]] if argv else []
        args = list(argv[1:])
        seen = set()  # multi flags given in this parse (later occurrences append)
        i = 0
        while i < len(args):
            a = args[i]
            i += 1
            if a == "--":
                rest.extend(args[i:])
                break
            if not a.startswith("-") or a == "-":
                rest.append(a)
                continue
            body = a.lstrip("-")
            name, eq, value = body.partition("=")
            flag = self._flags.get(name)
            if flag is None and name.startswith("no") and self._flags.get(name[2:]) is not None \
                    and self._flags[name[2:]].kind == "bool" and not eq:
                flag, value, eq = self._flags[name[2:]], "false", "="
            if flag is None:
                if name in ("help", "helpfull", "h"):
                    print(self._usage(argv[0] if argv else "program"))
                    sys.exit(0)
                if known_only:
                    rest.append(a)
                    continue
                raise UnrecognizedFlagError(f"Unknown command line flag '{name}'")
            if not eq:
                if flag.kind == "bool":
                    value = "true"
                elif i < len(args):
                    value = args[i]
                    i += 1
                else:
                    raise ValueError(f"Flag --{name} needs a value")
            try:
                parsed = flag.parser(value)
            except ValueError as e:
                raise IllegalFlagValueError(f"flag --{name}={value}: {e}") from None
            if flag.kind.startswith("multi"):
                # absl: the first occurrence replaces the default, later ones append.
                parsed = (list(flag.value) if flag.name in seen else []) + list(parsed)
            seen.add(flag.name)
            flag.value = parsed
            flag.present = True
        for name in self._required:
            if self._flags[name].value is None:
                raise IllegalFlagValueError(f"flag --{name} must have a value other than None.")
        for v in self._validators:
            v.verify(self)
        object.__setattr__(self, "_parsed", True)
        return rest

    def _usage(self, prog):
        lines = [f"usage: {prog} [flags]", ""]
        for f in self._flags.values():
            lines.append(f"  --{f.name}: {f.help}\n    (default: {f.default!r})")
        return "\n".join(lines)

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        name = object.__getattribute__(self, "_aliases").get(name, name)
        if name not in flags:
            raise AttributeError(name)
        if not object.__getattribute__(self, "_parsed"):
            self(sys.argv, known_only=True)
        return flags[name].value

    def __setattr__(self, name, value):
        name = self._aliases.get(name, name)
        if name not in self._flags:
            raise AttributeError(f"Flag {name} is not defined")
        old = self._flags[name].value
        self._flags[name].value = value
        try:
            for v in self._validators:
                if name in v.names:
                    v.verify(self)
        except IllegalFlagValueError:
            self._flags[name].value = old
            raise

    def __getitem__(self, name):
        return self._flags[self._aliases.get(name, name)]

    def __contains__(self, name):
        return name in self._flags

    def is_parsed(self):
        return self._parsed

    def mark_as_parsed(self):
        object.__setattr__(self, "_parsed", True)

    def flag_values_dict(self):
        return {n: f.value for n, f in self._flags.items()}

    def __iter__(self):
        return iter(self._flags)


class FlagHolder:
    """What each DEFINE_* returns: a typed handle on one flag (`.value`, `.default`, `.present`)."""

    def __init__(self, flag_values, flag):
        self._flag_values, self._flag = flag_values, flag

    name = property(lambda self: self._flag.name)
    default = property(lambda self: self._flag.default)
    present = property(lambda self: bool(self._flag.present))

    @property
    def value(self):
        return getattr(self._flag_values, self._flag.name)

    def __repr__(self):
        return f"FlagHolder({self._flag.name}={self._flag.value!r})"


def set_default(flag_holder, value):
    """Changes the flag's default (and its value, unless it was given on the command line)."""
    flag = flag_holder._flag
    flag.default = value
    if not flag.present:
        flag.value = value


def override_value(flag_holder, value):
    """Sets the flag's value as an assignment to FLAGS would (validators run)."""
    setattr(flag_holder._flag_values, flag_holder._flag.name, value)


class UnrecognizedFlagError(ValueError):
    pass


class IllegalFlagValueError(ValueError):
    pass


FLAGS = _FlagValues()


def _bool(v):
    s = str(v).lower()
    if s in ("1", "true", "t", "yes", "y"):
        return True
    if s in ("0", "false", "f", "no", "n"):
        return False
    raise ValueError(f"not a boolean: {v!r}")


def DEFINE_string(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    return flag_values._define(Flag(name, default, help, str, "string"))


def DEFINE_integer(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **kwargs):  # noqa: N802
    def parse(v):
        x = int(v)
        if lower_bound is not None and x < lower_bound or upper_bound is not None and x > upper_bound:
            raise ValueError(f"{x} is out of range")
        return x
    return flag_values._define(Flag(name, default, help, parse, "int"))


def DEFINE_float(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **kwargs):  # noqa: N802
    return flag_values._define(Flag(name, default, help, float, "float"))


def DEFINE_boolean(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    return flag_values._define(Flag(name, default, help, _bool, "bool"))


DEFINE_bool = DEFINE_boolean


def DEFINE_list(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    if isinstance(default, str):
        default = [x for x in default.split(",") if x]
    return flag_values._define(Flag(name, default, help, lambda v: [x for x in v.split(",") if x], "list"))


def DEFINE_enum(name, default, enum_values, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    def parse(v):
        if v not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return v
    return flag_values._define(Flag(name, default, help, parse, "enum"))


def DEFINE_enum_class(name, default, enum_class, help, flag_values=FLAGS, module_name=None,  # noqa: N802
                      case_sensitive=False, **kwargs):
    """A flag whose value is a member of `enum_class`, given by name (case-insensitive by default)."""
    names = [m.name for m in enum_class]

    def parse(v):
        if isinstance(v, enum_class):
            return v
        for m in enum_class:
            if m.name == v or (not case_sensitive and m.name.lower() == str(v).lower()):
                return m
        shown = names if case_sensitive else [n.lower() for n in names]
        raise ValueError(f"value should be one of <{'|'.join(shown)}>")
    return flag_values._define(Flag(name, None if default is None else parse(default), help, parse, "enum_class"))


def mark_flag_as_required(name, flag_values=FLAGS):
    flag_values._required.add(name)


# -- absl's other definitions, validators and constraints --------------------------------------

class Error(Exception):
    """absl's base flags error."""


class ValidationError(Error):
    """Raised by a validator's checker to reject a value (its message is reported)."""


class DuplicateFlagError(Error):
    pass


FlagValues = _FlagValues
__all__ += ["DEFINE_multi_string", "DEFINE_multi_integer", "DEFINE_multi_float", "DEFINE_multi_enum",
            "DEFINE_spaceseplist", "DEFINE_alias", "mark_flags_as_required", "mark_flags_as_mutual_exclusive",
            "mark_bool_flags_as_mutual_exclusive", "register_validator", "validator",
            "register_multi_flags_validator", "multi_flags_validator", "Error", "ValidationError",
            "IllegalFlagValueError", "UnrecognizedFlagError", "FlagValues"]


def _as_list(default):
    if default is None:
        return None
    if isinstance(default, (list, tuple)):
        return list(default)
    return [default]


def _define_multi(name, default, help, item_parser, kind, flag_values):
    def parse(v):
        return [item_parser(x) for x in (v if isinstance(v, (list, tuple)) else [v])]
    default = _as_list(default)
    return flag_values._define(Flag(name, [item_parser(x) if isinstance(x, str) else x for x in default]
                             if default is not None else None, help, parse, kind))


def DEFINE_multi_string(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    """A flag that may repeat (`--x=a --x=b`); its value is the list of values given."""
    _define_multi(name, default, help, str, "multi_string", flag_values)


def DEFINE_multi_integer(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS,  # noqa: N802
                         **kwargs):
    def parse(v):
        x = int(v)
        if lower_bound is not None and x < lower_bound or upper_bound is not None and x > upper_bound:
            raise ValueError(f"{x} is out of range")
        return x
    _define_multi(name, default, help, parse, "multi_int", flag_values)


def DEFINE_multi_float(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS,  # noqa: N802
                       **kwargs):
    _define_multi(name, default, help, float, "multi_float", flag_values)


def DEFINE_multi_enum(name, default, enum_values, help, flag_values=FLAGS, case_sensitive=True,  # noqa: N802
                      **kwargs):
    def parse(v):
        if v not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return v
    _define_multi(name, default, help, parse, "multi_enum", flag_values)


def DEFINE_spaceseplist(name, default, help, comma_compat=False, flag_values=FLAGS, **kwargs):  # noqa: N802
    """A whitespace-separated list flag (`--x="a b c"`); also splits on commas when `comma_compat`."""
    def parse(v):
        if isinstance(v, (list, tuple)):
            return list(v)
        return (v.replace(",", " ") if comma_compat else v).split()
    return flag_values._define(Flag(name, parse(default) if default is not None else None, help, parse, "spaceseplist"))


def DEFINE_alias(name, original_name, flag_values=FLAGS, module_name=None):  # noqa: N802
    """`--name` sets and reads flag `original_name`."""
    if original_name not in flag_values._flags:
        raise UnrecognizedFlagError(f"Unknown command line flag '{original_name}'")
    if name in flag_values._flags:
        raise DuplicateFlagError(f"The flag '{name}' is defined twice.")
    flag_values._flags[name] = flag_values._flags[original_name]
    flag_values._aliases[name] = original_name


class _Validator:
    def __init__(self, names, checker, message, multi):
        self.names, self.checker, self.message, self.multi = list(names), checker, message, multi

    def verify(self, fv):
        flags = object.__getattribute__(fv, "_flags")
        values = {n: flags[n].value for n in self.names}
        arg = values if self.multi else values[self.names[0]]
        try:
            ok = self.checker(arg)
            message = self.message
        except ValidationError as e:
            ok, message = False, str(e)
        if not ok:
            if self.multi:
                raise IllegalFlagValueError(f"{message}")
            raise IllegalFlagValueError(f"flag --{self.names[0]}={arg}: {message}")


def register_validator(flag_name, checker, message="Flag validation failed", flag_values=FLAGS):
    """Runs `checker(value)` after parsing and on every assignment; False (or ValidationError)
    raises IllegalFlagValueError with `message`."""
    if flag_name not in flag_values._flags:
        raise KeyError(f"Flag --{flag_name} does not exist.")
    flag_values._validators.append(_Validator([flag_values._aliases.get(flag_name, flag_name)], checker, message,
                                              False))


def validator(flag_name, message="Flag validation failed", flag_values=FLAGS):
    """Decorator form of `register_validator`."""
    def deco(checker):
        register_validator(flag_name, checker, message=message, flag_values=flag_values)
        return checker
    return deco


def register_multi_flags_validator(flag_names, multi_flags_checker, message="Flags validation failed",
                                   flag_values=FLAGS):
    """Runs `checker({name: value, ...})` over several flags."""
    for n in flag_names:
        if n not in flag_values._flags:
            raise KeyError(f"Flag --{n} does not exist.")
    flag_values._validators.append(_Validator(flag_names, multi_flags_checker, message, True))


def multi_flags_validator(flag_names, message="Flag validation failed", flag_values=FLAGS):
    def deco(checker):
        register_multi_flags_validator(flag_names, checker, message=message, flag_values=flag_values)
        return checker
    return deco


def mark_flags_as_required(flag_names, flag_values=FLAGS):
    for n in flag_names:
        mark_flag_as_required(n, flag_values)


def mark_flags_as_mutual_exclusive(flag_names, required=False, flag_values=FLAGS):
    """At most one of `flag_names` may be other than None (exactly one when `required`)."""
    def check(values):
        n = sum(v is not None for v in values.values())
        if n > 1 or (required and n == 0):
            raise ValidationError(f"{'Exactly' if required else 'At most'} one of ({', '.join(flag_names)}) must "
                                  f"have a value other than None.")
        return True
    register_multi_flags_validator(flag_names, check, flag_values=flag_values)


def mark_bool_flags_as_mutual_exclusive(flag_names, required=False, flag_values=FLAGS):
    """At most one of the boolean `flag_names` may be True (exactly one when `required`)."""
    def check(values):
        n = sum(bool(v) for v in values.values())
        if n > 1 or (required and n == 0):
            raise ValidationError(f"{'Exactly' if required else 'At most'} one of ({', '.join(flag_names)}) must "
                                  f"be True.")
        return True
    register_multi_flags_validator(flag_names, check, flag_values=flag_values)
