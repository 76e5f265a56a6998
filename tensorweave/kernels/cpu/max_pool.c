/* Max pooling and its gradient for float32 NHWC on x86-64 with AVX-512F, the source of
 * _max_pool_code.py (regenerate with `python scripts/gen_native.py`; loaded by pooling.py
 * through machine_code.py). Freestanding: no libc, no globals, no constant tables. Channels are
 * 16 to a vector, the last one under a mask.
 *
 * max_pool: y[i, r, q, ch] over the window of the padded x at (r*sh, q*sw), in pooling.py's
 * order and with NumPy's np.maximum(m, v) at each step (NaN in m, else NaN in v, else the larger,
 * v on ties such as -0.0 and +0.0): first down each window column, then across the columns.
 *
 * max_pool_grad_tiled, for windows that tile the input (ksize == strides, no padding):
 * out[i, r*kh + a, q*kw + b, ch] = g[i, r, q, ch] at the first tap (a, b), in row-major order,
 * whose x equals y[i, r, q, ch] (TF's tie rule), +0.0 at the window's other taps. A NaN never
 * equals, so a window whose maximum is NaN gets zeros, as in pooling.py's NumPy path.
 * Only the windows' rows and columns are written: the caller zeroes what lies past the last
 * window.
 */
#include <immintrin.h>

typedef long i64;

static inline __m512 np_maximum(__m512 m, __m512 v)
{
    /* vmaxps gives v unless m > v; a NaN in m must win too */
    return _mm512_mask_mov_ps(_mm512_max_ps(m, v), _mm512_cmp_ps_mask(m, m, _CMP_UNORD_Q), m);
}

void max_pool(const float *x, float *y, i64 n, i64 h, i64 w, i64 c, i64 oh, i64 ow,
              i64 kh, i64 kw, i64 sh, i64 sw)
{
    for (i64 i = 0; i < n; i++)
    for (i64 r = 0; r < oh; r++)
    for (i64 q = 0; q < ow; q++) {
        const float *corner = x + ((i * h + r * sh) * w + q * sw) * c;
        float *out = y + ((i * oh + r) * ow + q) * c;
        for (i64 c0 = 0; c0 < c; c0 += 16) {
            const __mmask16 lanes = c - c0 >= 16 ? (__mmask16)0xffff
                                                 : (__mmask16)((1u << (c - c0)) - 1);
            __m512 best = _mm512_setzero_ps();
            for (i64 b = 0; b < kw; b++) {
                __m512 col = _mm512_maskz_loadu_ps(lanes, corner + b * c + c0);
                for (i64 a = 1; a < kh; a++)
                    col = np_maximum(col, _mm512_maskz_loadu_ps(lanes, corner + (a * w + b) * c + c0));
                best = b ? np_maximum(best, col) : col;
            }
            _mm512_mask_storeu_ps(out + c0, lanes, best);
        }
    }
}

void max_pool_grad_tiled(const float *x, const float *y, const float *g, float *out,
                         i64 n, i64 h, i64 w, i64 c, i64 oh, i64 ow, i64 kh, i64 kw)
{
    for (i64 i = 0; i < n; i++)
    for (i64 r = 0; r < oh; r++)
    for (i64 q = 0; q < ow; q++) {
        const i64 o = ((i * oh + r) * ow + q) * c;
        const i64 corner = ((i * h + r * kh) * w + q * kw) * c;
        for (i64 c0 = 0; c0 < c; c0 += 16) {
            const __mmask16 lanes = c - c0 >= 16 ? (__mmask16)0xffff
                                                 : (__mmask16)((1u << (c - c0)) - 1);
            const __m512 yv = _mm512_maskz_loadu_ps(lanes, y + o + c0);
            const __m512 gv = _mm512_maskz_loadu_ps(lanes, g + o + c0);
            __mmask16 open = lanes;         /* lanes whose first maximum is still ahead */
            for (i64 a = 0; a < kh; a++)
            for (i64 b = 0; b < kw; b++) {
                const i64 at = corner + (a * w + b) * c + c0;
                const __m512 xv = _mm512_maskz_loadu_ps(lanes, x + at);
                const __mmask16 hit = _mm512_mask_cmp_ps_mask(open, xv, yv, _CMP_EQ_OQ);
                open &= (__mmask16)~hit;
                _mm512_mask_storeu_ps(out + at, lanes, _mm512_maskz_mov_ps(hit, gv));
            }
        }
    }
}
