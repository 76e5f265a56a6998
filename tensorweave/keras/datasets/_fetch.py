"""TF's keras `get_file` for the dataset loaders: the cached file when there is one (its hash
checked), else a download with TF's messages, bounded by a timeout so that no network means
an immediate error, never a hang."""

import hashlib
import os
import tarfile
import urllib.error
import urllib.request

_TIMEOUT_S = 30


def _hash_ok(fpath, file_hash):
    hasher = hashlib.sha256() if len(file_hash) == 64 else hashlib.md5()
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(65535), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _download(origin, fpath):
    from ..progbar import Progbar
    with urllib.request.urlopen(origin, timeout=_TIMEOUT_S) as response, open(fpath, "wb") as out:
        total = int(response.headers.get("Content-Length") or -1)
        progbar, seen = Progbar(total if total > 0 else None), 0
        for chunk in iter(lambda: response.read(8192), b""):
            out.write(chunk)
            seen += len(chunk)
            progbar.update(min(seen, total) if total > 0 else seen)


def get_file(fname, origin, untar=False, file_hash=None, cache_subdir="datasets",
             cache_dir=None):
    """The local path of `fname` (downloaded from `origin` into the cache when missing)."""
    cache_dir = os.path.expanduser(cache_dir or os.path.join(os.path.expanduser("~"), ".keras"))
    if not os.access(cache_dir, os.W_OK):
        cache_dir = os.path.join("/tmp", ".keras")
    datadir = os.path.join(cache_dir, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    untar_fpath = os.path.join(datadir, fname)
    fpath = untar_fpath + ".tar.gz" if untar else untar_fpath
    download = not os.path.exists(fpath)
    if not download and file_hash is not None and not _hash_ok(fpath, file_hash):
        algorithm = "sha256" if len(file_hash) == 64 else "md5"
        print("A local file was found, but it seems to be incomplete or outdated because the "
              f"{algorithm} file hash does not match the original value of {file_hash} so we "
              "will re-download the data.")
        download = True
    if download:
        print(f"Downloading data from {origin}")
        error_msg = "URL fetch failure on {}: {} -- {}"
        try:
            try:
                _download(origin, fpath)
            except urllib.error.HTTPError as e:
                raise Exception(error_msg.format(origin, e.code, e.msg))
            except urllib.error.URLError as e:
                raise Exception(error_msg.format(origin, e.errno, e.reason))
        except (Exception, KeyboardInterrupt):
            if os.path.exists(fpath):
                os.remove(fpath)
            raise
    if untar:
        if not os.path.exists(untar_fpath):
            with tarfile.open(fpath) as archive:
                archive.extractall(datadir, filter="data")   # (no paths outside datadir)
        return untar_fpath
    return fpath



def refuse_pickled(name):
    """TF's archive for `name` holds pickled Python objects (CIFAR's batches are pickles, IMDB's and
    Reuters' sequences are object arrays), and tensorweave never unpickles a file: an honest
    error before anything is fetched."""
    raise NotImplementedError(f"tf.keras.datasets.{name}.load_data is not supported: TF's archive "
                              "stores pickled Python objects, and tensorweave does not unpickle "
                              "files")
