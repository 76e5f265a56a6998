"""FlagHolders returned by DEFINE_*, DEFINE_enum_class, set_default and override_value (behaviour and
messages recorded from TF 2.21's tf.flags, i.e. absl)."""

import enum

import pytest

from tensorweave.platform import flags as F


class Color(enum.Enum):
    RED = 1
    BLUE = 2


def test_holders_enum_class_set_default_override():
    fv = F.FlagValues()
    h = F.DEFINE_string("name", "bob", "a name", flag_values=fv)
    c = F.DEFINE_enum_class("color", Color.RED, Color, "a color", flag_values=fv)
    assert (type(h).__name__, h.name, h.default, h.present) == ("FlagHolder", "name", "bob", False)
    fv(["prog", "--color=blue", "--name=al"])
    assert (c.value, fv.color, h.value, h.present) == (Color.BLUE, Color.BLUE, "al", True)
    F.set_default(h, "zed")
    assert (h.default, h.value) == ("zed", "al")     # given on the command line: value kept
    F.override_value(h, "tmp")
    assert h.value == "tmp"
    with pytest.raises(F.IllegalFlagValueError, match=r"^flag --color=green: value should be one of <red\|blue>$"):
        fv(["prog", "--color=green"])
    assert fv["color"].default is Color.RED and fv.get_flag_value("nope", 3) == 3
