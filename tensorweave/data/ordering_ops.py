"""Datasets that reorder, repeat or count the input's elements: shuffle (TF's seeded Philox
order), repeat, take, skip, prefetch and cache (in memory or in files, see cache_file)."""

import os

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..ops import random_ops
from . import _runtime
from .batching import _int64_scalar
from .dataset_ops import AUTOTUNE, DatasetV1


# -- order and count --------------------------------------------------------------------------------

class ShuffleDataset(DatasetV1):
    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=None):
        self._inputs = (input_dataset,)
        self._buffer_size = _int64_scalar(buffer_size, "buffer_size")
        self._captures = [self._buffer_size]
        seed, seed2 = random_ops.get_seed(seed)
        self._seeds = None if seed is None and seed2 is None else (int(seed or 0), int(seed2 or 0))
        self._reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        n = int(valmap[self._buffer_size])
        if n <= 0:
            raise errors.InvalidArgumentError(None, None,
                                              "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
        make_input = self._inputs[0]._bind(valmap, rt)
        seeds, reshuffle = self._seeds, self._reshuffle
        if seeds is None or seeds == (0, 0):
            seeds = tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2))
        # TF's seed generators: each pass over the input draws its shuffle seeds from a Philox
        # stream of (seed, seed2) (two 32-bit samples), or reuses (seed, seed2) when
        # reshuffle_each_iteration is False. A new iterator starts the generator over.
        generator = _philox_samples(*seeds) if reshuffle else None

        def make():
            rand = _philox_samples(generator(), generator()) if reshuffle else _philox_samples(*seeds)
            it = make_input()
            try:
                yield from _shuffled(it, n, rand)
            finally:
                it.close()
        return make


def _philox_samples(seed, seed2):
    from ..kernels.cpu.random import PhiloxSamples
    return PhiloxSamples(seed, seed2)


def _shuffled(it, n, rand):
    """TF's ShuffleDataset order: a circular buffer of up to n elements; each output is the
    element at start + (sample % count), which then takes the start element's place."""
    buf = [None] * n
    start = end = 0
    for element in it:
        if isinstance(element, _runtime.Failed):
            yield element  # TF fails the call that met it, drawing nothing, and goes on
            continue
        buf[end % n] = element
        end += 1
        if end - start < n:
            continue
        i = (start + rand() % (end - start)) % n
        out = buf[i]
        buf[i] = buf[start % n]
        start += 1
        yield out
    while end > start:
        i = (start + rand() % (end - start)) % n
        out = buf[i]
        buf[i] = buf[start % n]
        start += 1
        yield out


class RepeatDataset(DatasetV1):
    def __init__(self, input_dataset, count=None):
        self._inputs = (input_dataset,)
        self._count = _int64_scalar(-1 if count is None else count, "count")
        self._captures = [self._count]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        count = int(valmap[self._count])
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            epoch = 0
            while count < 0 or epoch < count:
                produced = False
                it = make_input()
                try:
                    for element in it:
                        produced = True
                        yield element
                finally:
                    it.close()
                epoch += 1
                if not produced:
                    return
        return make


class _CountDataset(DatasetV1):
    """A dataset of its input's elements governed by an int64 `count` (take, skip)."""

    def __init__(self, input_dataset, count):
        self._inputs = (input_dataset,)
        self._count = _int64_scalar(count, "count")
        self._captures = [self._count]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)


class TakeDataset(_CountDataset):
    def _bind(self, valmap, rt):
        count = int(valmap[self._count])
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            if count == 0:
                return
            it = make_input()
            try:
                i = 0
                for element in it:
                    yield element
                    if isinstance(element, _runtime.Failed):
                        continue  # (a failed element is not counted, as in TF)
                    i += 1
                    if count >= 0 and i >= count:
                        return
            finally:
                it.close()
        return make


class SkipDataset(_CountDataset):
    def _bind(self, valmap, rt):
        count = int(valmap[self._count])
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            it = make_input()
            try:
                i = 0
                for element in it:
                    if isinstance(element, _runtime.Failed):
                        yield element  # (raised even while skipping, and not counted, as in TF)
                        continue
                    i += 1
                    if count < 0 or i <= count:
                        continue
                    yield element
            finally:
                it.close()
        return make


class PrefetchDataset(DatasetV1):
    def __init__(self, input_dataset, buffer_size):
        self._inputs = (input_dataset,)
        self._buffer_size = _int64_scalar(buffer_size, "buffer_size")
        self._captures = [self._buffer_size]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        n = int(valmap[self._buffer_size])
        if n == AUTOTUNE:
            n = 2
        make_input = self._inputs[0]._bind(valmap, rt)
        if n == 0:
            return make_input
        return lambda: _runtime.prefetch(make_input, n, rt)


class CacheDataset(DatasetV1):
    """Caches the elements of the first complete pass and replays them: in memory (per session)
    without a filename, else in files under `filename` that later passes, sessions and processes
    read instead of the input (cache_file.py). A failed element is passed on but not cached, so
    the replays leave it out (TF)."""

    _tf_name = "CacheDataset"

    def __init__(self, input_dataset, filename=""):
        self._inputs = (input_dataset,)
        self._filename = convert_to_tensor(filename, dtype=_dtypes.string, name="filename")
        self._captures = [self._filename]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        fname = valmap[self._filename]
        fname = fname.item() if isinstance(fname, np.ndarray) else fname
        fname = fname.decode() if isinstance(fname, bytes) else fname
        make_input = self._inputs[0]._bind(valmap, rt)
        if fname:
            return self._file_cache(fname, make_input)
        cache = rt.ctx.resources.lookup_or_create("dataset_cache", (id(self), ""), lambda: {"done": None})

        def make():
            if cache["done"] is not None:
                yield from cache["done"]
                return
            rows = []
            it = make_input()
            try:
                for element in it:
                    if not isinstance(element, _runtime.Failed):
                        rows.append(element)  # (TF caches the good elements; replays skip the error)
                    yield element
            finally:
                it.close()
            cache["done"] = rows
        return make

    def _file_cache(self, fname, make_input):
        from . import cache_file
        classes = self._classes

        def make():
            if cache_file.exists(fname):
                yield from cache_file.read(fname, classes)
                return
            writer = cache_file.Writer(fname)
            it = make_input()
            complete = False
            try:
                for element in it:
                    if not isinstance(element, _runtime.Failed):
                        writer.add(element)  # (as in memory: a failed element is not cached)
                    yield element
                complete = True
            finally:
                if not complete:
                    # TF reads ahead (an injected prefetch): a pass that consumed every element
                    # has seen the end of its input and completes the cache.
                    try:
                        next(it)
                    except StopIteration:
                        complete = True
                    except Exception:  # noqa: BLE001 - an input error leaves the cache incomplete
                        pass
                it.close()
                writer.finish() if complete else writer.abandon()
        return make
