"""CRC-32C (Castagnoli), as TFRecord and TensorBoard event files use it, in NumPy.

`value(data)` is the standard CRC-32C (init and final XOR 0xFFFFFFFF, reflected polynomial
0x82F63B78); `masked(data)` is TensorFlow's masked form stored in record headers:
((crc >> 15) | (crc << 17)) + 0xA282EAD8.

Short inputs run a table-driven byte loop. Long inputs are cut into equal chunks whose CRCs are
computed side by side with NumPy (one vectorized table step per byte position), then folded
together with the linear "advance the register over L zero bytes" operator, itself applied
through four 256-entry tables. About 1 GB/s-order throughput on large buffers, no C extension.
"""

import numpy as np

__all__ = ["value", "extend", "masked", "mask", "unmask"]

_POLY = 0x82F63B78
_MASK_DELTA = 0xA282EAD8
_CHUNK = 1024           # bytes per chunk in the vectorized path
_VECTOR_MIN = 4 * _CHUNK


def _make_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _make_table()
_NP_TABLE = np.array(_TABLE, dtype=np.uint32)
_ADVANCE = None  # four 256-entry tables: the register after _CHUNK zero bytes, per input byte


def _raw(reg, data):
    """The register after feeding `data` (no init or final XOR)."""
    t = _TABLE
    for b in data:
        reg = t[(reg ^ b) & 0xFF] ^ (reg >> 8)
    return reg


def _advance_tables():
    global _ADVANCE
    if _ADVANCE is None:
        zeros = bytes(_CHUNK)
        basis = [_raw(1 << k, zeros) for k in range(32)]
        tables = []
        for byte in range(4):
            tab = []
            for v in range(256):
                acc = 0
                for bit in range(8):
                    if v >> bit & 1:
                        acc ^= basis[8 * byte + bit]
                tab.append(acc)
            tables.append(tab)
        _ADVANCE = tables
    return _ADVANCE


def _raw_vectorized(reg, data):
    n = len(data) // _CHUNK
    arr = np.frombuffer(data, dtype=np.uint8, count=n * _CHUNK).reshape(n, _CHUNK)
    cols = np.ascontiguousarray(arr.T)  # one contiguous row per byte position
    crc = np.zeros(n, dtype=np.uint32)
    table = _NP_TABLE
    for j in range(_CHUNK):
        crc = table[(crc ^ cols[j]) & 0xFF] ^ (crc >> 8)
    a0, a1, a2, a3 = _advance_tables()
    for c in crc.tolist():
        reg = a0[reg & 0xFF] ^ a1[(reg >> 8) & 0xFF] ^ a2[(reg >> 16) & 0xFF] ^ a3[reg >> 24] ^ c
    return _raw(reg, memoryview(data)[n * _CHUNK:])


def extend(crc, data):
    """The CRC-32C of (bytes whose CRC-32C is `crc`) followed by `data`."""
    data = bytes(data) if not isinstance(data, (bytes, bytearray, memoryview)) else data
    reg = crc ^ 0xFFFFFFFF
    if len(data) >= _VECTOR_MIN:
        reg = _raw_vectorized(reg, data)
    else:
        reg = _raw(reg, data)
    return reg ^ 0xFFFFFFFF


def value(data):
    """CRC-32C of `data` (bytes-like)."""
    return extend(0, data)


def mask(crc):
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked_crc):
    rot = (masked_crc - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked(data):
    """TensorFlow's masked CRC-32C of `data`."""
    return mask(value(data))
