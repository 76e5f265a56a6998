"""`tf.flags` / `tf.app.flags`: absl-style command-line flags (DEFINE_string, ..., FLAGS).

Flags are parsed from sys.argv on first attribute access of FLAGS (or by `tf.app.run`); unknown
arguments are left for the program (`FLAGS(argv)` returns them)."""

import sys

__all__ = ["FLAGS", "DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean", "DEFINE_bool",
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

    def _define(self, flag):
        if flag.name in self._flags:
            raise ValueError(f"Flag --{flag.name} defined twice")
        self._flags[flag.name] = flag

    def __call__(self, argv, known_only=False):
        """Parses argv (argv[0] is the program); returns the arguments that are not flags."""
        rest = [argv[0]] if argv else []
        args = list(argv[1:])
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
                flag.value = flag.parser(value)
            except ValueError as e:
                raise IllegalFlagValueError(f"flag --{name}={value}: {e}") from None
            flag.present = True
        for name in self._required:
            if self._flags[name].value is None:
                raise IllegalFlagValueError(f"flag --{name} must have a value other than None.")
        object.__setattr__(self, "_parsed", True)
        return rest

    def _usage(self, prog):
        lines = [f"usage: {prog} [flags]", ""]
        for f in self._flags.values():
            lines.append(f"  --{f.name}: {f.help}\n    (default: {f.default!r})")
        return "\n".join(lines)

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        if name not in flags:
            raise AttributeError(name)
        if not object.__getattribute__(self, "_parsed"):
            self(sys.argv, known_only=True)
        return flags[name].value

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"Flag {name} is not defined")
        self._flags[name].value = value

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
    flag_values._define(Flag(name, default, help, str, "string"))


def DEFINE_integer(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **kwargs):  # noqa: N802
    def parse(v):
        x = int(v)
        if lower_bound is not None and x < lower_bound or upper_bound is not None and x > upper_bound:
            raise ValueError(f"{x} is out of range")
        return x
    flag_values._define(Flag(name, default, help, parse, "int"))


def DEFINE_float(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **kwargs):  # noqa: N802
    flag_values._define(Flag(name, default, help, float, "float"))


def DEFINE_boolean(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    flag_values._define(Flag(name, default, help, _bool, "bool"))


DEFINE_bool = DEFINE_boolean


def DEFINE_list(name, default, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    if isinstance(default, str):
        default = [x for x in default.split(",") if x]
    flag_values._define(Flag(name, default, help, lambda v: [x for x in v.split(",") if x], "list"))


def DEFINE_enum(name, default, enum_values, help, flag_values=FLAGS, **kwargs):  # noqa: N802
    def parse(v):
        if v not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return v
    flag_values._define(Flag(name, default, help, parse, "enum"))


def mark_flag_as_required(name, flag_values=FLAGS):
    flag_values._required.add(name)
