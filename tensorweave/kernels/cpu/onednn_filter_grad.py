"""The order in which TF's oneDNN kernels add a float32 filter gradient (Conv2DBackpropFilter).

Measured on TF 2.21 (x86-64, AVX-512, NHWC, 2 intra-op threads) by comparing bits on about 50
shapes (LeNet's and mnist_deep's layers, AlexNet-sized, 1x1, strided, 1-2048 channels): every
output equal. oneDNN picks its kernel and thread split by shape, and each split fixes where a
running sum restarts from zero:

* Filters bigger than 1x1 ("jit:avx512_core"): `_balance` splits the threads between the batch
  (nthr_mb) and blocks of 16 output/input channels; the batch share of each mb-thread is
  oneDNN's balance211. With fewer than 16 input channels or a column stride, the kernel keeps
  its sums in memory: one running FMA per filter element over the thread's positions (image,
  row, column). Otherwise each output row is cut into column chunks (`_row_chunks`: the whole
  row up to 28 columns), each chunk a running FMA from zero added to the thread's sum.
* 1x1 filters ("jit_1x1:avx512_core"): the positions of each image are cut into reduce blocks
  and the (image, block) pairs are split over the mb-threads by balance211, so a thread may
  start or end inside an image; each kernel call covers a few blocks (`_conf_1x1`), a running
  FMA from zero added to the thread's sum.

The threads' sums are then added in thread order. Dilated filters and filters wider than 14
(another oneDNN kernel) are not covered: `plan()` returns None and the caller keeps its own order.
"""

import functools
import os

import numpy as np

from .direct_conv import balance211

__all__ = ["plan"]

_MAX_UR_W = 28          # the widest output-row chunk of the 2-D kernel
_MAX_FILTER_WIDTH = 14


def _div_up(a, b):
    return -(-a // b)


def _l1_floats():
    """float32 values in the L1 data cache (oneDNN sizes the 1x1 reduce steps by it)."""
    try:
        with open("/sys/devices/system/cpu/cpu0/cache/index0/size") as f:
            text = f.read().strip().upper()
        size = int(text[:-1]) * 1024 if text.endswith("K") else int(text)
        return size // 4
    except (OSError, ValueError):
        return 32 * 1024 // 4


_L1_FLOATS = _l1_floats()


def _balance(mb, nb_ic, nb_oc, ic_block, ih, iw, oh, ow, kh, kw, strides, threads):
    """(nthr_mb, nthr_oc_b, nthr_ic_b) of the 2-D kernel: the split of least memory traffic,
    then of least compute within 10% of it."""
    def mem(nmb, noc, nic):
        return (_div_up(mb, nmb) * _div_up(nb_ic, nic) * ic_block * ih * iw // strides[0] // strides[1]
                + _div_up(mb, nmb) * _div_up(nb_oc, noc) * 16 * oh * ow
                + 8 * _div_up(nb_oc, noc) * _div_up(nb_ic, nic) * kh * kw * ic_block * 16)

    def comp(nmb, noc, nic):
        return _div_up(mb, nmb) * _div_up(nb_oc, noc) * _div_up(nb_ic, nic)

    splits = [(nmb, noc, min(threads // nmb // noc, nb_ic))
              for nmb in range(1, min(threads, mb) + 1)
              for noc in range(1, min(threads // nmb, nb_oc) + 1)]
    best = (1, 1, 1)
    best_mem = mem(*best)
    for s in splits:
        if mem(*s) <= best_mem:
            best, best_mem = s, mem(*s)
    best_comp = comp(*best)
    for s in splits:
        c = comp(*s)
        if (c <= best_comp and mem(*s) < 1.1 * best_mem) or 4 * c <= 3 * best_comp:
            best, best_comp = s, c
    nmb = best[0]
    if threads // 2 < nmb < threads:
        nmb = min(mb, threads)
    return nmb, best[1], best[2]


def _row_chunks(ow, kw, right_pad, strided_rows):
    """The column ranges [c0, c1) of an output row that each start a sum from zero."""
    if (kw <= 3 and ow <= 16 and not strided_rows) or ow <= _MAX_UR_W:
        return [(0, ow)]
    ur_w = _MAX_UR_W
    trips, tail = ow // ur_w, ow % ur_w
    if (tail == 0 and right_pad != 0) or (right_pad > 0 and right_pad >= tail):
        if trips > 1:
            tail += ur_w
            trips -= 1
        else:
            tail += ur_w - ur_w // 2
            ur_w //= 2
    bounds = [i * ur_w for i in range(trips + 1)]
    if tail:
        bounds.append(bounds[-1] + tail)
    return list(zip(bounds[:-1], bounds[1:]))


def _best_divider(value, min_d, max_d, find_max):
    """oneDNN's best_divider: the divisor in [min_d, max_d] whose rounding up of `value` wastes
    the least (ratios compared in float32)."""
    max_d = max(1, min(max_d, value))
    min_d = max(1, min(min_d, max_d))
    best, chosen = np.float32(np.inf), max_d
    for d in range(max_d, min_d - 1, -1):
        up = _div_up(value, d) * d
        loss = np.float32(up - value) / np.float32(up)
        if loss < best or (not find_max and loss == best):
            best, chosen = loss, d
    return chosen


def _conf_1x1(mb, oh, ow, ic, oc, threads):
    """(reduce block, blocks per image, nthr_mb, step, step_max) of the 1x1 kernel."""
    positions = oh * ow
    block = _best_divider(positions, 7, 16, True)
    if positions % block:
        block = _best_divider(ow, 4, ow, False)
    if block > 256:
        block = 1
    ur = 8 if block <= 19 and oc > 16 else 16
    nb_ic, nb_oc, nb_reduce = _div_up(ic, 16), _div_up(oc, 16), _div_up(positions, block)

    def mem(nmb, noc, nic):
        return (_div_up(mb * nb_reduce, nmb) * _div_up(nb_ic, nic) * 16 * block
                + _div_up(mb * nb_reduce, nmb) * _div_up(nb_oc, noc) * 16 * block
                + 12 * _div_up(nb_oc, noc) * _div_up(nb_ic, nic) * 256)
    best, nmb_best = mem(1, 1, 1), 1
    for nmb in range(1, min(threads, mb * nb_reduce) + 1):
        for noc in range(1, min(threads // nmb, nb_oc) + 1):
            m = mem(nmb, noc, min(threads // nmb // noc, nb_ic))
            if m <= best:
                best, nmb_best = m, nmb
    if threads // 2 < nmb_best < threads:
        nmb_best = min(mb, threads)
    if positions >= 28 * 28 and oc >= 128:
        reduce = _div_up(min(ow, 256), block) * block
    else:
        l1 = _L1_FLOATS
        reduce = _best_divider(positions, min(l1 // ur, max(ow, oh)), min(l1 // ur, positions), True)
        reduce = max(reduce // block * block, block)
    step, step_max = _div_up(reduce, block), _div_up(reduce * 3 // 2 // block * block, block)
    if ic * 4 % 1024 == 0:          # rows that alias in the cache: short steps
        step = step_max = min(4, step)
    return block, nb_reduce, nmb_best, step, step_max


def _pieces_1x1(mb, oh, ow, ic, oc, threads):
    block, nb_reduce, nmb, step, step_max = _conf_1x1(mb, oh, ow, ic, oc, threads)
    positions = oh * ow
    out = []
    for start, stop in balance211(mb * nb_reduce, nmb):
        calls = []
        w = start
        while w < stop:
            img, b = divmod(w, nb_reduce)
            left = min(nb_reduce - b, stop - w)
            take = left if left < step_max else step
            calls.append((img, b * block, min((b + take) * block, positions)))
            w += take
        out.append(np.array(calls, np.int64).reshape(-1, 3))
    return out


def plan(n, h, w, c, co, kh, kw, oh, ow, strides, dilations, pads):
    """How TF's kernel adds the filter gradient of this convolution: ("running", slices) for one
    running FMA per batch slice (direct_conv.filter_grad), ("pieces", per-thread arrays) for
    direct_conv.filter_grad_pieces, or None where the order is not known. (Cached: a training
    step asks the same every time; the arrays are read, never written.)"""
    from .parallel import get_intra_op_threads
    threads = max(1, get_intra_op_threads() or os.cpu_count() or 1)
    return _plan(n, h, w, c, co, kh, kw, oh, ow, tuple(strides), tuple(dilations),
                 tuple(map(tuple, pads)), threads)


@functools.lru_cache(maxsize=128)
def _plan(n, h, w, c, co, kh, kw, oh, ow, strides, dilations, pads, threads):
    if dilations != (1, 1) or kw > _MAX_FILTER_WIDTH or n * oh * ow == 0:
        return None
    (top, bottom), (left, right) = pads
    if kh == kw == 1:
        if top or bottom or left or right:
            return None
        return "pieces", _pieces_1x1(n, oh, ow, c, co, threads)
    first_conv = c < 16
    ic_block = c if first_conv else 16
    nmb = _balance(n, _div_up(c, ic_block), _div_up(co, 16), ic_block, h, w, oh, ow, kh, kw,
                   strides, threads)[0]
    slices = balance211(n, nmb)
    if first_conv or strides[1] != 1:
        return "running", slices
    right_pad = max(0, (ow - 1) * strides[1] + kw - w - left)
    chunks = _row_chunks(ow, kw, right_pad, strides[0] > 1)
    per_image = np.array([(r * ow + c0, r * ow + c1) for r in range(oh) for c0, c1 in chunks], np.int64)
    out = []
    for i0, i1 in slices:
        imgs = np.repeat(np.arange(i0, i1, dtype=np.int64), len(per_image))
        out.append(np.column_stack([imgs, np.tile(per_image, (i1 - i0, 1))]))
    return "pieces", out
