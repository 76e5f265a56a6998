"""`ufunc.at(out, indices, updates)` for rows: integer indices into axis 0 of an array of rank 2 or
more, with the same result bit for bit, in a fixed number of NumPy calls.

TF's CPU scatter kernels (ScatterAdd/Sub/Mul/Div/Max/Min, UnsortedSegmentSum) apply the updates
one after another in index order, so a row that several indices name gets
((out - u1) - u2) - ... rounded at every step. NumPy's `ufunc.at` does the same, but one row at a
time through a slow generic loop (~2.5 us a row: 1-4 ms for an embedding update of 400 rows).
Here the rows named once are updated by one fancy-indexed operation, and each row named k > 1 times
becomes a segment [out[row], u1, ..., uk] of one array, folded left to right by `ufunc.reduceat`
along axis 0: the same operations, in the same order, on whole rows at a time. (Sums run as
subtractions of the negated updates, since NumPy's add.reduceat sums pairwise; float16, which
NumPy folds in float32, keeps ufunc.at.)
"""

import numpy as np

__all__ = ["rows_at"]

_SMALL = 8      # fewer updates than this: ufunc.at's own loop is cheaper than the bookkeeping


def rows_at(ufunc, out, indices, updates):
    """ufunc.at(out, indices, updates), updates shaped indices.shape + out.shape[1:]."""
    indices = np.asarray(indices)
    updates = np.asarray(updates)
    idx = indices.reshape(-1)
    n = idx.size
    if out.ndim < 2 or n < _SMALL or out.size == 0 or updates.dtype != out.dtype or \
            out.dtype == np.float16 or updates.shape != indices.shape + out.shape[1:]:
        ufunc.at(out, indices, updates)
        return
    upd = updates.reshape((n,) + out.shape[1:])
    order = np.argsort(idx, kind="stable")      # each row's updates stay in index order
    s = idx[order]
    first = np.empty(n, bool)
    first[0] = True
    np.not_equal(s[1:], s[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    counts = np.diff(np.append(starts, n))
    single = counts == 1
    once = order[starts[single]]
    if once.size:
        rows = idx[once]
        out[rows] = ufunc(out[rows], upd[once])
    if once.size == starts.size:
        return
    multi = ~single
    rows = s[starts[multi]]
    seg_len = counts[multi] + 1
    seg_start = np.cumsum(seg_len) - seg_len
    a = np.empty((int(seg_len.sum()),) + out.shape[1:], out.dtype)
    a[seg_start] = out[rows]
    is_update = np.ones(a.shape[0], bool)
    is_update[seg_start] = False
    u = upd[order[np.repeat(multi, counts)]]
    if ufunc is np.add:
        # add.reduceat sums pairwise; out - (-u) is out + u exactly, except that a NaN update
        # would come out with its sign flipped.
        if u.dtype.kind == "f" and np.isnan(u).any():
            ufunc.at(out, rows.repeat(counts[multi]), u)
            return
        np.negative(u, out=u)
        ufunc = np.subtract
    a[is_update] = u
    out[rows] = ufunc.reduceat(a, seg_start, axis=0)
