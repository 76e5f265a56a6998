"""Helpers shared by the TF1-program test files: run a fetch in a fresh Session, or run it and
return the InvalidArgumentError's message."""

import pytest

import tensorweave as tf


def run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def run_error(t, feed=None):
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(t, feed)
    return str(e.value)
