"""A small word-level text corpus and the PTB-style reader for language models.

The corpus is the books of Genesis and Exodus of the King James Version (public domain, about
71,000 words; see data/README), one verse per line. Like the classic PTB reader, each line ends
with an "<eos>" token, words are numbered by decreasing frequency in the training split (ties by
spelling), and `ptb_iterator` cuts a long id sequence into `batch_size` rows and yields
(inputs, targets) windows of `num_steps` words, targets shifted by one.

    train, valid, test, vocab = kjv_raw_data()
    for x, y in ptb_iterator(train, batch_size=20, num_steps=20):
        ...   # x, y: int32 [20, 20]
"""

import collections
import gzip
import os

import numpy as np

__all__ = ["load_kjv", "kjv_raw_data", "build_vocab", "words_to_ids", "ptb_iterator", "ptb_epoch_size",
           "EOS", "UNK"]

EOS = "<eos>"
UNK = "<unk>"
_PATH = os.path.join(os.path.dirname(__file__), "data", "kjv_genesis_exodus.txt.gz")


def load_kjv():
    """The corpus as a list of lines (verses), each a string of lowercase words."""
    with gzip.open(_PATH, "rt", encoding="ascii") as f:
        return [line.strip() for line in f if line.strip()]


def _words(lines):
    out = []
    for line in lines:
        out.extend(line.split())
        out.append(EOS)
    return out


def build_vocab(words, max_size=None):
    """word -> id, most frequent first (ties by spelling, as the PTB reader sorts); "<unk>" is
    always present (last if the corpus lacks it). With max_size, rarer words are cut so the
    vocabulary, "<unk>" included, has at most max_size entries."""
    counter = collections.Counter(words)
    counter.pop(UNK, None)
    ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    if max_size is not None:
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        ranked = ranked[:max_size - 1]
    vocab = {w: i for i, (w, _) in enumerate(ranked)}
    vocab[UNK] = len(vocab)
    return vocab


def words_to_ids(words, vocab):
    """Word ids (int32); words not in vocab map to "<unk>"."""
    unk = vocab[UNK]
    return np.array([vocab.get(w, unk) for w in words], dtype=np.int32)


def kjv_raw_data(vocab_size=None, split=(0.8, 0.1)):
    """(train_ids, valid_ids, test_ids, vocab): the corpus' verses split in order (80/10/10 by
    default), each split flattened to one int32 id sequence with "<eos>" after every verse; the
    vocabulary comes from the training split (at most vocab_size words)."""
    lines = load_kjv()
    n = len(lines)
    a = int(round(n * split[0]))
    b = a + int(round(n * split[1]))
    train_w, valid_w, test_w = _words(lines[:a]), _words(lines[a:b]), _words(lines[b:])
    vocab = build_vocab(train_w, vocab_size)
    return words_to_ids(train_w, vocab), words_to_ids(valid_w, vocab), words_to_ids(test_w, vocab), vocab


def ptb_epoch_size(data_len, batch_size, num_steps):
    """How many (x, y) windows ptb_iterator yields for a sequence of data_len ids."""
    return ((data_len // batch_size) - 1) // num_steps


def ptb_iterator(raw_data, batch_size, num_steps):
    """Yields (x, y) int32 [batch_size, num_steps] pairs over raw_data (a 1-D id sequence):
    row i of every batch continues row i of the previous one, and y is x shifted by one word
    (the classic PTB reader's batching, so an LSTM's state can carry over between batches)."""
    raw_data = np.asarray(raw_data, dtype=np.int32).reshape(-1)
    if batch_size < 1 or num_steps < 1:
        raise ValueError(f"batch_size and num_steps must be positive, got {batch_size} and {num_steps}")
    batch_len = len(raw_data) // batch_size
    data = raw_data[:batch_size * batch_len].reshape(batch_size, batch_len)
    epoch_size = (batch_len - 1) // num_steps
    if epoch_size <= 0:
        raise ValueError("epoch_size == 0, decrease batch_size or num_steps")
    for i in range(epoch_size):
        x = data[:, i * num_steps:(i + 1) * num_steps]
        y = data[:, i * num_steps + 1:(i + 1) * num_steps + 1]
        yield x.copy(), y.copy()
