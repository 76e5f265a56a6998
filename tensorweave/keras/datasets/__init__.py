"""`tf.keras.datasets`: TF's loaders over TF's cache (~/.keras/datasets). A file not in the
cache is fetched as TF fetches it ("Downloading data from <url>"); offline, that fails at once
with TF's "URL fetch failure on <url>: ..." Exception rather than waiting. CIFAR-10/100, IMDB and
Reuters are refused: their archives are pickles, and tensorweave never unpickles a file."""

from . import boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters  # noqa: F401
