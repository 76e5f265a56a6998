"""Reuters newswires: `load_data` is refused (TF's archive is pickled object arrays, see
_fetch.refuse_pickled); the word index and the 46 topic names are TF's."""

import json

from ._fetch import get_file, refuse_pickled
from .mnist import _ORIGIN


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3, cache_dir=None, **kwargs):
    refuse_pickled("reuters")


def get_word_index(path="reuters_word_index.json"):
    path = get_file(path, origin=_ORIGIN + "reuters_word_index.json",
                    file_hash="4d44cc38712099c9e383dc6e5f11a921")
    with open(path) as f:
        return json.load(f)


def get_label_names():
    return ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
            "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass",
            "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum",
            "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
            "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
            "dlr", "gas", "silver", "wpi", "hog", "lead")
