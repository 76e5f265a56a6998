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
