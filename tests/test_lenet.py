"""End to end: the LeNet-style CNN reaches >= 0.97 held-out accuracy on the bundled digits."""

from tensorweave.demos import lenet


def test_lenet_trains_on_digits():
    result = lenet.train(steps=150, seed=1, progress=False)
    assert result.accuracy >= 0.97, result
