"""MNIST IDX loader on small files written by the test."""

import gzip

import numpy as np
import pytest

from tensorweave.datasets import mnist


def _idx(magic, arr):
    head = magic.to_bytes(4, "big") + b"".join(int(d).to_bytes(4, "big") for d in arr.shape)
    return head + arr.astype(np.uint8).tobytes()


def _write_set(d, n_train=12, n_test=4, gz=True):
    rng = np.random.RandomState(0)
    sets = {}
    for base, n in (("train", n_train), ("t10k", n_test)):
        imgs = rng.randint(0, 256, (n, 28, 28))
        labs = rng.randint(0, 10, n)
        for kind, magic, arr in (("images-idx3-ubyte", 2051, imgs), ("labels-idx1-ubyte", 2049, labs)):
            data = _idx(magic, arr)
            name = f"{base}-{kind}" + (".gz" if gz else "")
            (d / name).write_bytes(gzip.compress(data) if gz else data)
        sets[base] = (imgs, labs)
    return sets


@pytest.mark.parametrize("gz", [True, False])
def test_load_images_and_labels(tmp_path, gz):
    sets = _write_set(tmp_path, gz=gz)
    suffix = ".gz" if gz else ""
    imgs = mnist.load_images(str(tmp_path / f"train-images-idx3-ubyte{suffix}"))
    labs = mnist.load(str(tmp_path / f"train-labels-idx1-ubyte{suffix}"))
    assert imgs.dtype == np.uint8 and imgs.shape == (12, 28, 28)
    np.testing.assert_array_equal(imgs, sets["train"][0])
    np.testing.assert_array_equal(labs, sets["train"][1])


def test_bad_files_give_clear_errors(tmp_path):
    p = tmp_path / "bad"
    p.write_bytes(_idx(2049, np.arange(3)))
    with pytest.raises(ValueError, match="Invalid magic number 2049"):
        mnist.load_images(str(p))
    p.write_bytes(_idx(2049, np.arange(3))[:-1])
    with pytest.raises(ValueError, match="header says"):
        mnist.load_labels(str(p))
    p.write_bytes(b"\x00\x00")
    with pytest.raises(ValueError, match="too short"):
        mnist.load_labels(str(p))
    with pytest.raises(FileNotFoundError):
        mnist.load_labels(str(tmp_path / "missing"))


def test_read_data_sets_and_next_batch(tmp_path):
    sets = _write_set(tmp_path)
    data = mnist.read_data_sets(str(tmp_path), one_hot=True, validation_size=2, seed=0)
    assert data.train.num_examples == 10 and data.validation.num_examples == 2 and data.test.num_examples == 4
    assert data.train.images.shape == (10, 784) and data.train.images.dtype == np.float32
    assert data.train.images.max() <= 1.0 and data.train.labels.shape == (10, 10)
    np.testing.assert_array_equal(data.test.labels.argmax(1), sets["t10k"][1])
    seen = [data.train.next_batch(4)[1].argmax(1) for _ in range(6)]  # 24 examples: 2 epochs begun
    assert data.train.epochs_completed == 2 and all(len(s) == 4 for s in seen)
    assert sorted(np.concatenate(seen[:2] + [seen[2][:2]])) == sorted(sets["train"][1][2:])
    with pytest.raises(FileNotFoundError, match="does not download"):
        mnist.read_data_sets(str(tmp_path / "empty"))
