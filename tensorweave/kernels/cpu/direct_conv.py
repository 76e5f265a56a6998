"""Direct float32 convolutions in machine code (x86-64 with AVX-512F): TF's order at full speed.

TF's oneDNN kernels compute a convolution output as one running fused multiply-add over the
filter's elements (kh, kw, ci) (columns outermost for one input channel in a padded batch), and
its input gradient the same way over the flipped filter; measured bit-equal on TF 2.21 for
LeNet's, AlexNet's and smaller shapes. NumPy cannot add in that order fast: im2col + BLAS adds
in blocks (other last bits), and an emulation needs a float64 pass per filter element. So the
kernels in direct_conv.c do it in registers, 16 output channels per vector, reading the padded
input in place (no patch matrix): 110 GFLOP/s per core here, where OpenBLAS's GEMM on the same
patch matrix reaches 77. Their machine code (_direct_conv_code.py, generated from the C source
by scripts/gen_native.py) is mapped executable and called through ctypes (machine_code.py),
one call per batch slice and block of output channels.

The same file has the filter gradient (one running sum per batch slice, or restarted in the
pieces onednn_filter_grad.py describes) and a GEMM whose sums restart at given k-blocks (the
order onednn_gemm.py describes for TF's MatMul).

`available()` is False off x86-64 Linux, without AVX-512F, or with the environment variable
TENSORWEAVE_DIRECT_CONV=0; kernels/cpu/conv.py then keeps its NumPy paths.
"""

import ctypes

import numpy as np

from . import machine_code
from .parallel import SPLIT_MACS as _SPLIT_MACS, _workers, batch_slices, intra_op_workers, parallel_map

__all__ = ["available", "forward", "filter_grad", "filter_grad_pieces", "matmul", "readable_width",
           "balance211"]

# Output columns per register block of the forward kernel, and filter elements per block of the
# filter-gradient kernel, by the number of 16-channel vectors in the block (direct_conv.c).
_COLUMNS = {4: 7, 3: 7, 2: 14, 1: 14}
_ELEMENTS = {4: 6, 3: 8, 2: 12, 1: 24}
_VECTOR = 16
_P, _I = ctypes.c_void_p, ctypes.c_int64
_ARGS = (_P, _P, _I, _P, _I, _P, _I, _I, _I, _I, _I, _I, _I, _I)
_FWD = ctypes.CFUNCTYPE(None, *_ARGS, _P, _I)       # (+ bias, relu)
_DW = ctypes.CFUNCTYPE(None, *_ARGS)
_DWP = ctypes.CFUNCTYPE(None, _P, _P, _I, _P, _I, _P, _I, _P, _I, _I, _I, _I, _I, _I, _I)
_MM = ctypes.CFUNCTYPE(None, _P, _I, _I, _P, _I, _P, _I, _P, _I, _I, _I)


def _map():
    from . import _direct_conv_code as generated
    names = {("fwd", nj): f"fwd_{nj}x{rw}" for nj, rw in _COLUMNS.items()}
    names.update({("mm", nj): f"mm_{nj}x{rw}" for nj, rw in _COLUMNS.items()})
    for kind in ("dw", "dwp"):
        names.update({(kind, nj): f"{kind}_{nj}x{kb}" for nj, kb in _ELEMENTS.items()})
    protos = {"fwd": _FWD, "dw": _DW, "dwp": _DWP, "mm": _MM}
    page, fns = machine_code.load(generated, {name: protos[kind] for (kind, _), name in names.items()})
    code = {"_page": page, "fwd": {}, "dw": {}, "dwp": {}, "mm": {}}
    for (kind, nj), name in names.items():
        code[kind][nj] = fns[name]
    # A check of the mapping on a tiny strided problem with a masked block: small integers,
    # so every order gives the exact sum.
    x = np.arange(1 * 3 * 44 * 2, dtype=np.float32).reshape(1, 3, 44, 2) % 7
    w = np.arange(2 * 2 * 2 * 57, dtype=np.float32).reshape(2, 2, 2, 57) % 5
    want = sum(x[:, a:a + 2, b:b + 29:2, :, None] * w[a, b] for a in range(2) for b in range(2))
    if not np.array_equal(_forward(code["fwd"], x, w, 2, 15, (1, 2), (1, 1)), want.sum(3)):
        return {}
    return code


# {"fwd" | "dw" | "dwp" | "mm": {vectors: fn}, "_page": mapping}, or {} where the code cannot run
_load = machine_code.Loader(_map, {"avx512f", "fma"}, "TENSORWEAVE_DIRECT_CONV")


def available():
    """Whether the direct kernels run on this machine."""
    return bool(_load())


def _blocks(co):
    """(first channel, vectors, mask of the last vector) per block of at most 4 vectors."""
    for j0 in range(0, co, 4 * _VECTOR):
        width = min(4 * _VECTOR, co - j0)
        nj = -(-width // _VECTOR)
        yield j0, nj, (1 << (width - _VECTOR * (nj - 1))) - 1


def readable_width(ow, kw, col_stride, col_dilation, co):
    """The padded input width forward() reads for `ow` output columns: the register blocks run
    to a multiple of their column count (the extra columns are read, never stored)."""
    block = int(np.lcm.reduce([1] + [_COLUMNS[nj] for _, nj, _ in _blocks(co)]))
    return (-(-ow // block) * block - 1) * col_stride + (kw - 1) * col_dilation + 1


def _offsets(kh, kw, c, row_pitch, dilations, kw_outer):
    off = (np.arange(kh)[:, None, None] * (dilations[0] * row_pitch)
           + np.arange(kw)[None, :, None] * (dilations[1] * c) + np.arange(c)[None, None, :])
    if kw_outer:
        off = off.transpose(1, 0, 2)
    return np.ascontiguousarray(off.reshape(-1), np.int64)


def forward(xp, w, oh, ow, strides, dilations, kw_outer=False, bias=None, relu=False,
            reverse_taps=False, first_column=0):
    """The convolution of padded NHWC float32 `xp` (at least readable_width() wide) by `w`
    (KH, KW, C, CO): (N, OH, OW, CO) float32, each output a running FMA from 0 over the filter
    elements (kh, kw, ci), or (kw, kh, ci) with `kw_outer`, or with `reverse_taps` over (kh, kw)
    descending (ci ascending); then + `bias` (CO float32) when given, then with `relu`
    max(0, y) (negative lanes +0.0; -0.0 and NaN kept), in registers. `first_column` starts the
    windows that many columns into `xp` (a shifted view without a copy; the columns read must
    still lie inside `xp`)."""
    return _forward(_load()["fwd"], xp, w, oh, ow, strides, dilations, kw_outer, bias, relu,
                    reverse_taps, first_column)


def _forward(fns, xp, w, oh, ow, strides, dilations, kw_outer=False, bias=None, relu=False,
             reverse_taps=False, first_column=0):
    xp = np.ascontiguousarray(xp, np.float32)
    n, hp, wp, c = xp.shape
    kh, kw, _, co = w.shape
    wk = w.transpose(1, 0, 2, 3) if kw_outer else w[::-1, ::-1] if reverse_taps else w
    wk = np.ascontiguousarray(wk, np.float32).reshape(kh * kw * c, co)
    xoff = _offsets(kh, kw, c, wp * c, dilations, kw_outer)
    if reverse_taps:
        xoff = np.ascontiguousarray(xoff.reshape(kh, kw, c)[::-1, ::-1].reshape(-1))
    y = np.empty((n, oh, ow, co), np.float32)
    xn, xr, xc = hp * wp * c, strides[0] * wp * c, strides[1] * c
    if bias is not None:
        bias = np.ascontiguousarray(bias, np.float32)

    def run(s):
        i0, i1 = s
        for j0, nj, mask in _blocks(co):
            fns[nj](xp.ctypes.data + 4 * (i0 * xn + first_column * c), xoff.ctypes.data, len(xoff),
                    wk.ctypes.data + 4 * j0, co, y.ctypes.data + 4 * (i0 * oh * ow * co + j0), co,
                    i1 - i0, oh, ow, xn, xr, xc, mask,
                    None if bias is None else bias.ctypes.data + 4 * j0, int(relu))
    if n and oh and ow and co:
        parallel_map(run, batch_slices(n, n * oh * ow * co * len(xoff)))
    return y


def filter_grad(xp, dy, kh, kw, strides, dilations, slices):
    """The filter gradient (KH, KW, C, CO) float32 of the convolution of padded NHWC float32
    `xp` given the output gradient `dy` (N, OH, OW, CO): for each batch slice in `slices`
    (start, stop), a running FMA per filter element over the slice's positions (image, row,
    column), then the slices' partial sums added in order."""
    fns = _load()["dw"]

    def call(nj, geo, dw, j0, r0, count, mask, s):
        i0, i1 = s
        fns[nj](geo.xp.ctypes.data + 4 * i0 * geo.xn, geo.xoff.ctypes.data + 8 * r0, count,
                geo.dy.ctypes.data + 4 * (i0 * geo.oh * geo.ow * geo.co + j0), geo.co,
                dw.ctypes.data + 4 * (r0 * geo.co + j0), geo.co, i1 - i0, geo.oh, geo.ow,
                geo.xn, geo.xr, geo.xc, mask)
    return _filter_grad(xp, dy, kh, kw, strides, dilations, slices, call)


def filter_grad_pieces(xp, dy, kh, kw, strides, dilations, pieces):
    """filter_grad() summed in pieces: `pieces` holds, per thread, an (P, 3) int64 array of
    (image, p0, p1) position ranges (p = row * OW + column); each piece is a running FMA per
    filter element from 0, added to its thread's sum in order; the threads' sums are then added
    in order."""
    fns = _load()["dwp"]
    pieces = [np.ascontiguousarray(p, np.int64) for p in pieces]

    def call(nj, geo, dw, j0, r0, count, mask, part):
        fns[nj](geo.xp.ctypes.data, geo.xoff.ctypes.data + 8 * r0, count,
                geo.dy.ctypes.data + 4 * j0, geo.co, dw.ctypes.data + 4 * (r0 * geo.co + j0), geo.co,
                part.ctypes.data, len(part), geo.oh * geo.ow, geo.ow, geo.xn, geo.xr, geo.xc, mask)
    return _filter_grad(xp, dy, kh, kw, strides, dilations, pieces, call)


class _Geometry:
    __slots__ = ("xp", "dy", "xoff", "co", "oh", "ow", "xn", "xr", "xc")


# Filter-element rows are split between workers at multiples of every block's element count.
_ROW_ALIGN = 24


def _filter_grad(xp, dy, kh, kw, strides, dilations, parts, call):
    """The driver of both filter gradients: one sum per part (a batch slice or a thread's
    pieces), added in order. A step with more workers than parts also splits each part's
    output channels (or filter elements) between them: independent sums, so the same bits."""
    geo = _Geometry()
    geo.xp = xp = np.ascontiguousarray(xp, np.float32)
    geo.dy = dy = np.ascontiguousarray(dy, np.float32)
    n, hp, wp, c = xp.shape
    _, geo.oh, geo.ow, geo.co = dy.shape
    co = geo.co
    xoff = _offsets(kh, kw, c, wp * c, dilations, False)
    k = len(xoff)
    blocks = list(_blocks(co))
    rows = -(-k // _ROW_ALIGN) * _ROW_ALIGN
    geo.xoff = np.concatenate([xoff, np.zeros(rows - k, np.int64)])    # (padding rows read x[0])
    geo.xn, geo.xr, geo.xc = hp * wp * c, strides[0] * wp * c, strides[1] * c
    dws = [np.zeros((rows, co), np.float32) for _ in parts]
    jobs = [(i, blocks, 0, k) for i in range(len(parts))]
    ways = intra_op_workers() // max(len(parts), 1)
    if ways > 1:
        if len(blocks) >= ways:
            per = -(-len(blocks) // ways)
            jobs = [(i, blocks[b:b + per], 0, k) for i in range(len(parts)) for b in range(0, len(blocks), per)]
        elif k >= 2 * _ROW_ALIGN:
            step = -(-(-(-k // ways)) // _ROW_ALIGN) * _ROW_ALIGN
            jobs = [(i, blocks, r, min(k, r + step)) for i in range(len(parts)) for r in range(0, k, step)]

    def run(job):
        i, bl, r0, r1 = job
        for j0, nj, mask in bl:
            elements = _ELEMENTS[nj]
            call(nj, geo, dws[i], j0, r0, -(-(r1 - r0) // elements) * elements, mask, parts[i])
    if n * geo.oh * geo.ow and co:
        parallel_map(run, jobs)
    total = dws[0]
    for p in dws[1:]:
        total += p
    return total[:k].reshape(kh, kw, c, co)


def matmul(a, b, k_bounds=None):
    """a @ b for float32 (m, k) by (k, n), each output a running FMA from 0 over k (the mm
    kernels read `a` through its strides, so transposed views cost no copy). With `k_bounds`
    [0, k1, ..., k], each block of k is such a run and the blocks' results are added in order
    (oneDNN's GEMM). Big products split their 64-column blocks (or their rows) between the
    intra-op workers in a splitting step."""
    fns = _load()["mm"]
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), np.float32)
    if not (m and n):
        return out
    if not k:
        out.fill(0)
        return out
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    if not b.flags.c_contiguous and b.T.flags.c_contiguous and a.size < b.size:
        # a @ W^T: as (W @ a^T)^T, W read in place and only the smaller a copied
        return np.ascontiguousarray(matmul(b.T, a.T, k_bounds).T)
    if a.strides[0] % 4 or a.strides[1] % 4 or min(a.strides) < 0:
        a = np.ascontiguousarray(a)
    b = np.ascontiguousarray(b)
    bounds = np.asarray([0, k] if k_bounds is None else k_bounds, np.int64)
    ars, aks = a.strides[0] // 4, a.strides[1] // 4
    blocks = list(_blocks(n))
    parts = [(0, m, blocks)]
    workers = _workers()
    if workers > 1 and m * k * n >= _SPLIT_MACS:
        if len(blocks) >= workers:
            per = -(-len(blocks) // workers)
            parts = [(0, m, blocks[i:i + per]) for i in range(0, len(blocks), per)]
        elif m >= 28 * workers:
            step = -(-(-(-m // workers)) // 14) * 14
            parts = [(i, min(m, i + step), blocks) for i in range(0, m, step)]

    def run(part):
        i0, i1, bl = part
        tails = {}      # the last rows, in a buffer of one whole register block per block width
        for j0, nj, mask in bl:
            rw = _COLUMNS[nj]
            full = (i1 - i0) // rw * rw
            if full:
                fns[nj](a.ctypes.data + 4 * i0 * ars, ars, aks, bounds.ctypes.data, len(bounds) - 1,
                        b.ctypes.data + 4 * j0, n, out.ctypes.data + 4 * (i0 * n + j0), n, full, mask)
            rows = i1 - i0 - full
            if rows:
                if rw not in tails:
                    tail = np.zeros((rw, k), np.float32)
                    tail[:rows] = a[i0 + full:i1]
                    tails[rw] = tail, np.empty((rw, n), np.float32)
                tail, res = tails[rw]
                fns[nj](tail.ctypes.data, k, 1, bounds.ctypes.data, len(bounds) - 1,
                        b.ctypes.data + 4 * j0, n, res.ctypes.data + 4 * j0, n, rw, mask)
                out[i0 + full:i1, j0:j0 + 16 * nj] = res[:rows, j0:j0 + 16 * nj]
    parallel_map(run, parts, always=True)
    return out


def balance211(n, parts):
    """oneDNN's split of n items over `parts` threads: contiguous (start, stop) shares, the
    first n % parts of them one item longer."""
    parts = max(1, min(n, parts))
    big, small = -(-n // parts), n // parts
    bounds = [0]
    for t in range(parts):
        bounds.append(bounds[-1] + (big if t < n - small * parts else small))
    return [(bounds[t], bounds[t + 1]) for t in range(parts)]


