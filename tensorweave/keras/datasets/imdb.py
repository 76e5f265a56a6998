"""IMDB reviews: `load_data` is refused (TF's archive is pickled object arrays, see
_fetch.refuse_pickled); `get_word_index` reads TF's JSON word index."""

import json

from ._fetch import get_file, refuse_pickled
from .mnist import _ORIGIN


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
              oov_char=2, index_from=3, cache_dir=None, **kwargs):
    refuse_pickled("imdb")


def get_word_index(path="imdb_word_index.json"):
    path = get_file(path, origin=_ORIGIN + "imdb_word_index.json",
                    file_hash="bfafd718b763782e994055a2d397834f")
    with open(path) as f:
        return json.load(f)
