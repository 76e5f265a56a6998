"""End to end: the `tensorweave demo` model trains to a stated held-out accuracy."""

import numpy as np
import pytest

from tensorweave.demos import digits


@pytest.mark.slow
def test_digits_demo_reaches_95_percent():
    result = digits.train(seed=0, progress=False)
    assert result.steps == digits.DEFAULTS["steps"]
    assert result.train_examples + result.test_examples == 1797
    assert np.isfinite(result.loss)
    assert result.accuracy >= 0.95, result


def test_digits_demo_is_reproducible_with_a_seed():
    a = digits.train(steps=30, seed=3, progress=False)
    b = digits.train(steps=30, seed=3, progress=False)
    assert a.loss == b.loss
    assert a.accuracy == b.accuracy


def test_demo_writes_tensorboard_summaries(tmp_path):
    import glob

    import tensorweave as tf
    from tensorweave.demos import digits

    result = digits.train(steps=60, progress=False, logdir=str(tmp_path))
    assert result.steps == 60
    files = glob.glob(str(tmp_path / "events.out.tfevents.*"))
    assert len(files) == 1
    tags, has_graph = set(), False
    for event in tf.train.summary_iterator(files[0]):
        has_graph |= event.HasField("graph_def")
        if event.HasField("summary"):
            tags.update(v.tag for v in event.summary.value)
    assert has_graph
    assert {"loss", "batch_accuracy", "hidden_kernel"} <= tags
