"""The shipped KJV corpus and the PTB-style reader: vocabulary order, unknown words, batching."""

import numpy as np
import pytest

from tensorweave.datasets import text


def test_corpus_and_split():
    lines = text.load_kjv()
    assert len(lines) == 2746
    assert lines[0] == "in the beginning god created the heaven and the earth"
    assert sum(len(line.split()) for line in lines) == 70950
    train, valid, test, vocab = text.kjv_raw_data()
    assert train.dtype == np.int32 and len(train) + len(valid) + len(test) == 70950 + 2746
    assert vocab[text.EOS] < 5 and text.UNK in vocab and len(vocab) <= 3394
    assert max(train.max(), valid.max(), test.max()) < len(vocab)
    small = text.kjv_raw_data(vocab_size=100)
    assert len(small[3]) == 100 and small[0].max() == 99
    assert (small[1] == small[3][text.UNK]).mean() > 0.2


def test_build_vocab_orders_by_count_then_spelling():
    vocab = text.build_vocab("b a c b a b d".split())
    assert vocab == {"b": 0, "a": 1, "c": 2, "d": 3, text.UNK: 4}
    assert text.build_vocab("b a c b".split(), max_size=2) == {"b": 0, text.UNK: 1}
    np.testing.assert_array_equal(text.words_to_ids(["a", "zzz"], vocab), [1, 4])
    with pytest.raises(ValueError):
        text.build_vocab(["a"], max_size=0)


def test_ptb_iterator():
    data = np.arange(43)
    batches = list(text.ptb_iterator(data, batch_size=3, num_steps=4))
    # 43 // 3 = 14 per row; (14 - 1) // 4 = 3 windows
    assert len(batches) == 3 == text.ptb_epoch_size(43, 3, 4)
    x0, y0 = batches[0]
    np.testing.assert_array_equal(x0, [[0, 1, 2, 3], [14, 15, 16, 17], [28, 29, 30, 31]])
    np.testing.assert_array_equal(y0, x0 + 1)
    x1, _ = batches[1]
    np.testing.assert_array_equal(x1[:, 0], x0[:, -1] + 1)       # rows continue across batches
    assert x0.dtype == np.int32
    with pytest.raises(ValueError, match="epoch_size == 0"):
        list(text.ptb_iterator(np.arange(5), batch_size=5, num_steps=3))
