import numpy as np
import pytest

from tensorweave.datasets import load_digits, train_test_split

# Per-class counts of the 1,797 UCI test-set digits (as scikit-learn reports them).
CLASS_COUNTS = [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def test_shapes_and_dtypes():
    images, labels = load_digits()
    assert images.shape == (1797, 64)
    assert images.dtype == np.float32
    assert labels.shape == (1797,)
    assert labels.dtype == np.int64


def test_value_ranges():
    images, labels = load_digits()
    assert images.min() == 0.0 and images.max() == 1.0
    raw, _ = load_digits(scale=False)
    assert raw.dtype == np.float32
    np.testing.assert_array_equal(raw, np.round(raw))        # integer counts
    assert raw.max() == 16.0
    np.testing.assert_array_equal(raw / 16.0, images)
    assert set(np.unique(labels)) == set(range(10))


def test_class_counts():
    _, labels = load_digits()
    assert np.bincount(labels, minlength=10).tolist() == CLASS_COUNTS


def test_first_example():
    images, labels = load_digits(flatten=False, scale=False)
    assert images.shape == (1797, 8, 8)
    assert labels[0] == 0
    np.testing.assert_array_equal(images[0, 1], [0, 0, 13, 15, 10, 15, 5, 0])


def test_fresh_arrays():
    images, labels = load_digits()
    images[:] = -1
    labels[:] = -1
    images2, labels2 = load_digits()
    assert images2.min() == 0.0 and labels2.min() == 0


def test_split_sizes_and_stratification():
    images, labels = load_digits()
    (xtr, ytr), (xte, yte) = train_test_split(images, labels, test_fraction=0.2, seed=0)
    assert xtr.shape[0] + xte.shape[0] == 1797
    assert xtr.shape[1:] == xte.shape[1:] == (64,)
    assert xte.shape[0] == sum(int(round(c * 0.2)) for c in CLASS_COUNTS)
    counts = np.bincount(yte, minlength=10)
    np.testing.assert_allclose(counts, np.array(CLASS_COUNTS) * 0.2, atol=1)
    # the two sets are disjoint and together are the whole data set
    rows = {r.tobytes() + bytes([l]) for r, l in zip(images, labels)}
    split_rows = [r.tobytes() + bytes([l]) for r, l in zip(np.concatenate([xtr, xte]),
                                                          np.concatenate([ytr, yte]))]
    assert len(split_rows) == 1797 and set(split_rows) == rows


def test_split_is_deterministic():
    images, labels = load_digits()
    a = train_test_split(images, labels, test_fraction=0.25, seed=7)
    b = train_test_split(images, labels, test_fraction=0.25, seed=7)
    for (x1, y1), (x2, y2) in zip(a, b):
        np.testing.assert_array_equal(x1, x2)
        np.testing.assert_array_equal(y1, y2)
    c = train_test_split(images, labels, test_fraction=0.25, seed=8)
    assert not np.array_equal(a[1][1], c[1][1]) or not np.array_equal(a[0][1], c[0][1])


def test_split_rejects_bad_arguments():
    images, labels = load_digits()
    with pytest.raises(ValueError):
        train_test_split(images, labels[:10])
    with pytest.raises(ValueError):
        train_test_split(images, labels, test_fraction=1.5)
