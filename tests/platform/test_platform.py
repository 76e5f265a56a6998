"""tf.flags, tf.app.run, tf.logging and tf.gfile."""

import os
import subprocess
import sys
import textwrap

import pytest

import tensorweave as tf
from tensorweave.platform import flags as flags_mod


def test_flags_parse_values_and_leave_other_arguments():
    fv = flags_mod._FlagValues()
    flags_mod.DEFINE_integer("steps", 3, "n", flag_values=fv)
    flags_mod.DEFINE_boolean("fast", False, "f", flag_values=fv)
    flags_mod.DEFINE_string("name", "a", "s", flag_values=fv)
    flags_mod.DEFINE_float("lr", 0.1, "lr", flag_values=fv)
    rest = fv(["prog", "--steps=5", "--fast", "pos", "--name", "b", "--lr=0.5"])
    assert rest == ["prog", "pos"]
    assert (fv.steps, fv.fast, fv.name, fv.lr) == (5, True, "b", 0.5)
    fv(["prog", "--nofast"])
    assert fv.fast is False
    with pytest.raises(ValueError):
        fv(["prog", "--steps=x"])
    with pytest.raises(ValueError):
        fv(["prog", "--unknown=1"])
    with pytest.raises(ValueError):
        flags_mod.DEFINE_integer("steps", 1, "again", flag_values=fv)


def test_app_run_in_a_real_process(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import tensorweave as tf
        tf.app.flags.DEFINE_integer("n", 1, "how many")
        FLAGS = tf.app.flags.FLAGS

        def main(argv):
            print("n =", FLAGS.n, "argv =", argv[1:])
            return 3

        if __name__ == "__main__":
            tf.app.run()
    """))
    out = subprocess.run([sys.executable, str(script), "--n=7", "extra"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 3, out.stderr
    assert "n = 7 argv = ['extra']" in out.stdout


def test_logging_levels():
    old = tf.logging.get_verbosity()
    try:
        tf.logging.set_verbosity(tf.logging.INFO)
        assert tf.logging.get_verbosity() == tf.logging.INFO
        tf.logging.info("value %d", 3)
        tf.logging.log_every_n(tf.logging.INFO, "every", 2)
    finally:
        tf.logging.set_verbosity(old)
    assert tf.logging.WARN == 30 and tf.logging.DEBUG == 10


def test_gfile_round_trip(tmp_path):
    d = tmp_path / "a" / "b"
    tf.gfile.MakeDirs(str(d))
    assert tf.gfile.IsDirectory(str(d)) and tf.gfile.Exists(str(d))
    f = d / "x.txt"
    with tf.gfile.GFile(str(f), "w") as fh:
        fh.write("hello")
    with tf.gfile.Open(str(f)) as fh:
        assert fh.read() == "hello"
    assert tf.gfile.ListDirectory(str(d)) == ["x.txt"]
    assert tf.gfile.Glob(str(d / "*.txt")) == [str(f)]
    tf.gfile.Copy(str(f), str(d / "y.txt"))
    with pytest.raises(tf.errors.AlreadyExistsError):
        tf.gfile.Copy(str(f), str(d / "y.txt"))
    tf.gfile.Rename(str(d / "y.txt"), str(d / "z.txt"))
    tf.gfile.Remove(str(d / "z.txt"))
    missing = tf.gfile.GFile(str(d / "missing"))  # opened lazily, as TF's FileIO
    with pytest.raises(tf.errors.NotFoundError):
        missing.read()
    tf.gfile.DeleteRecursively(str(tmp_path / "a"))
    assert not os.path.exists(tmp_path / "a")
