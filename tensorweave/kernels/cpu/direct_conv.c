/* Direct float32 convolution kernels for x86-64 with AVX-512F, the source of
 * _direct_conv_code.py (regenerate with `python scripts/gen_native.py`; see direct_conv.py for
 * how the code is loaded and called).
 *
 * Freestanding on purpose: no libc, no globals, no constant tables, so the linked .text is one
 * position-independent block that runs wherever it is mapped.
 *
 * Both kernels see the (padded, NHWC, contiguous) input through a list of K element offsets,
 * one per filter element k = (kh, kw, ci) in the order the sum must take, so one kernel serves
 * every stride, dilation and channel count:
 *
 *   x value of filter element k at output (i, r, c) = x[i*xn + r*xr + c*xc + xoff[k]]
 *
 * fwd_NJxRW:  y[i, r, c, j] = sum_k x(k; i, r, c) * w[k, j], a running fused multiply-add from
 *             zero over k in list order: the order of TF's oneDNN kernels (measured on TF 2.21).
 *             Then, when `bias` is not null, + bias[j] (BiasAdd's one float add), and with
 *             `relu`, lanes below zero become +0.0 (Relu's max(0, x): -0.0 and NaN pass as they
 *             are). A register block is RW output columns by NJ vectors of 16 output channels;
 *             the caller pads x so that columns up to a multiple of RW can be read; only columns
 *             below `ow` are stored.
 * dw_NJxKB:   dw[k, j] += sum over the positions (i, r, c), in that order, of
 *             x(k; i, r, c) * dy[i, r, c, j]: a running FMA per filter element, KB filter
 *             elements by NJ vectors of output channels per register block; dw is read and
 *             written back once per image (so the sum's order is the positions' order).
 *
 * dwp_NJxKB:  the same filter gradient in pieces: pieces[3q..3q+2] = (image, p0, p1) covers the
 *             positions p0 <= p < p1 of that image (p = row * ow + column); each piece is a
 *             running FMA from zero, then added to dw (dw = dw + piece), pieces in list order:
 *             the order of oneDNN's filter-gradient kernels, whose register blocks start from
 *             zero per output-row chunk (or per reduce block for 1x1 filters).
 *
 * The last vector of a block is loaded and stored under the 16-bit mask `m` (output channels
 * that are not a multiple of 16).
 */
#include <immintrin.h>

typedef long i64;

#define LOADV(p, j) ((j) == NJv - 1 ? _mm512_maskz_loadu_ps(m, (p) + 16 * (j)) \
                                    : _mm512_loadu_ps((p) + 16 * (j)))
#define STOREV(p, j, v) do {                                                   \
        if ((j) == NJv - 1) _mm512_mask_storeu_ps((p) + 16 * (j), m, (v));     \
        else _mm512_storeu_ps((p) + 16 * (j), (v));                            \
    } while (0)

#define FWD(NJ, RW)                                                                         \
void fwd_##NJ##x##RW(const float *x, const i64 *xoff, i64 K, const float *w, i64 wld,      \
                     float *y, i64 yld, i64 n, i64 oh, i64 ow, i64 xn, i64 xr, i64 xc,      \
                     i64 mask, const float *bias, i64 relu)                                 \
{                                                                                           \
    enum { NJv = NJ };                                                                      \
    const __mmask16 m = (__mmask16)mask;                                                    \
    for (i64 i = 0; i < n; i++)                                                             \
    for (i64 r = 0; r < oh; r++)                                                            \
    for (i64 c0 = 0; c0 < ow; c0 += RW) {                                                   \
        const float *xb = x + i * xn + r * xr + c0 * xc;                                    \
        __m512 acc[RW][NJ];                                                                 \
        for (int a = 0; a < RW; a++)                                                        \
            for (int j = 0; j < NJ; j++) acc[a][j] = _mm512_setzero_ps();                   \
        for (i64 k = 0; k < K; k++) {                                                       \
            const float *xk = xb + xoff[k];                                                 \
            const float *wk = w + k * wld;                                                  \
            __m512 wv[NJ];                                                                  \
            for (int j = 0; j < NJ; j++) wv[j] = LOADV(wk, j);                              \
            for (int a = 0; a < RW; a++) {                                                  \
                const __m512 xv = _mm512_set1_ps(xk[a * xc]);                               \
                for (int j = 0; j < NJ; j++) acc[a][j] = _mm512_fmadd_ps(xv, wv[j], acc[a][j]); \
            }                                                                               \
        }                                                                                   \
        if (bias) {                                                                         \
            __m512 bv[NJ];                                                                  \
            for (int j = 0; j < NJ; j++) bv[j] = LOADV(bias, j);                            \
            for (int a = 0; a < RW; a++)                                                    \
                for (int j = 0; j < NJ; j++) acc[a][j] = _mm512_add_ps(acc[a][j], bv[j]);   \
        }                                                                                   \
        if (relu)                                                                           \
            for (int a = 0; a < RW; a++)                                                    \
                for (int j = 0; j < NJ; j++) {                                              \
                    const __m512 zero = _mm512_setzero_ps();                                \
                    const __mmask16 neg = _mm512_cmp_ps_mask(acc[a][j], zero, _CMP_LT_OQ);  \
                    acc[a][j] = _mm512_mask_mov_ps(acc[a][j], neg, zero);                   \
                }                                                                           \
        float *yb = y + ((i * oh + r) * ow + c0) * yld;                                     \
        for (int a = 0; a < RW; a++)                                                        \
            if (c0 + a < ow)                                                                \
                for (int j = 0; j < NJ; j++) STOREV(yb + a * yld, j, acc[a][j]);            \
    }                                                                                       \
}

#define DW(NJ, KB)                                                                          \
void dw_##NJ##x##KB(const float *x, const i64 *xoff, i64 K, const float *dy, i64 dyld,     \
                    float *dw, i64 dwld, i64 n, i64 oh, i64 ow, i64 xn, i64 xr, i64 xc,     \
                    i64 mask)                                                               \
{                                                                                           \
    enum { NJv = NJ };                                                                      \
    const __mmask16 m = (__mmask16)mask;                                                    \
    for (i64 i = 0; i < n; i++)                                                             \
    for (i64 k0 = 0; k0 < K; k0 += KB) {                                                    \
        __m512 acc[KB][NJ];                                                                 \
        const float *xs[KB];                                                                \
        for (int b = 0; b < KB; b++) {                                                      \
            for (int j = 0; j < NJ; j++) acc[b][j] = LOADV(dw + (k0 + b) * dwld, j);        \
            xs[b] = x + i * xn + xoff[k0 + b];                                              \
        }                                                                                   \
        const float *g = dy + i * oh * ow * dyld;                                           \
        for (i64 r = 0; r < oh; r++)                                                        \
        for (i64 c = 0; c < ow; c++, g += dyld) {                                           \
            const i64 o = r * xr + c * xc;                                                  \
            __m512 gv[NJ];                                                                  \
            for (int j = 0; j < NJ; j++) gv[j] = LOADV(g, j);                               \
            for (int b = 0; b < KB; b++) {                                                  \
                const __m512 xv = _mm512_set1_ps(xs[b][o]);                                 \
                for (int j = 0; j < NJ; j++) acc[b][j] = _mm512_fmadd_ps(xv, gv[j], acc[b][j]); \
            }                                                                               \
        }                                                                                   \
        for (int b = 0; b < KB; b++)                                                        \
            for (int j = 0; j < NJ; j++) STOREV(dw + (k0 + b) * dwld, j, acc[b][j]);        \
    }                                                                                       \
}

#define DWP(NJ, KB)                                                                         \
void dwp_##NJ##x##KB(const float *x, const i64 *xoff, i64 K, const float *dy, i64 dyld,    \
                     float *dw, i64 dwld, const i64 *pieces, i64 npieces, i64 hw, i64 ow,   \
                     i64 xn, i64 xr, i64 xc, i64 mask)                                      \
{                                                                                           \
    enum { NJv = NJ };                                                                      \
    const __mmask16 m = (__mmask16)mask;                                                    \
    for (i64 q0 = 0, q1; q0 < npieces; q0 = q1) {                                           \
        const i64 img = pieces[3 * q0];                                                     \
        for (q1 = q0 + 1; q1 < npieces && pieces[3 * q1] == img; q1++) {}                  \
        for (i64 k0 = 0; k0 < K; k0 += KB) {                                                \
            const float *xs[KB];                                                            \
            for (int b = 0; b < KB; b++) xs[b] = x + img * xn + xoff[k0 + b];               \
            for (i64 q = q0; q < q1; q++) {                                                 \
                const i64 p0 = pieces[3 * q + 1], p1 = pieces[3 * q + 2];                   \
                __m512 acc[KB][NJ];                                                         \
                for (int b = 0; b < KB; b++)                                                \
                    for (int j = 0; j < NJ; j++) acc[b][j] = _mm512_setzero_ps();           \
                i64 r = p0 / ow, c = p0 - (p0 / ow) * ow;                                   \
                const float *g = dy + (img * hw + p0) * dyld;                               \
                for (i64 p = p0; p < p1; p++, g += dyld) {                                  \
                    const i64 o = r * xr + c * xc;                                          \
                    __m512 gv[NJ];                                                          \
                    for (int j = 0; j < NJ; j++) gv[j] = LOADV(g, j);                       \
                    for (int b = 0; b < KB; b++) {                                          \
                        const __m512 xv = _mm512_set1_ps(xs[b][o]);                         \
                        for (int j = 0; j < NJ; j++)                                        \
                            acc[b][j] = _mm512_fmadd_ps(xv, gv[j], acc[b][j]);              \
                    }                                                                       \
                    if (++c == ow) { c = 0; r++; }                                          \
                }                                                                           \
                for (int b = 0; b < KB; b++)                                                \
                    for (int j = 0; j < NJ; j++) {                                          \
                        float *t = dw + (k0 + b) * dwld;                                    \
                        STOREV(t, j, _mm512_add_ps(LOADV(t, j), acc[b][j]));                \
                    }                                                                       \
            }                                                                               \
        }                                                                                   \
    }                                                                                       \
}

/* mm_NJxRW: c[i, j] = a @ w for one output-column block and `rows` a multiple of RW, a read through
 * strides (row i, element kk at a[i * ars + kk * aks], so a transposed view needs no copy) and
 * w (K, wld) row-major: each block [kb[q], kb[q + 1]) of k is a running FMA from zero, the first
 * stored to c and the later ones added (c = c + block): oneDNN's GEMM order. */
#define MM(NJ, RW)                                                                          \
void mm_##NJ##x##RW(const float *a, i64 ars, i64 aks, const i64 *kb, i64 nkb,              \
                    const float *w, i64 wld, float *c, i64 cld, i64 rows, i64 mask)            \
{                                                                                           \
    enum { NJv = NJ };                                                                      \
    const __mmask16 m = (__mmask16)mask;                                                  \
    for (i64 q = 0; q < nkb; q++)       /* (k-blocks outer: each block of w read once) */ \
    for (i64 r0 = 0; r0 < rows; r0 += RW) {                                                    \
        __m512 acc[RW][NJ];                                                                 \
        for (int t = 0; t < RW; t++)                                                        \
            for (int j = 0; j < NJ; j++) acc[t][j] = _mm512_setzero_ps();                   \
        const float *ar = a + r0 * ars;                                                     \
        for (i64 k = kb[q]; k < kb[q + 1]; k++) {                                           \
            const float *ak = ar + k * aks;                                                 \
            const float *wk = w + k * wld;                                                  \
            __m512 wv[NJ];                                                                  \
            for (int j = 0; j < NJ; j++) wv[j] = LOADV(wk, j);                              \
            for (int t = 0; t < RW; t++) {                                                  \
                const __m512 xv = _mm512_set1_ps(ak[t * ars]);                              \
                for (int j = 0; j < NJ; j++) acc[t][j] = _mm512_fmadd_ps(xv, wv[j], acc[t][j]); \
            }                                                                               \
        }                                                                                   \
        for (int t = 0; t < RW; t++) {                                                      \
            float *ct = c + (r0 + t) * cld;                                                 \
            for (int j = 0; j < NJ; j++)                                                    \
                STOREV(ct, j, q ? _mm512_add_ps(LOADV(ct, j), acc[t][j]) : acc[t][j]);      \
        }                                                                                   \
    }                                                                                       \
}

/* Register blocks: NJ * RW (or NJ * KB) accumulators plus NJ vectors stay within the 32 zmm
 * registers (fwd_4x7 spills one accumulator and still measured fastest for 4 vectors). */
FWD(4, 7)
FWD(3, 7)
FWD(2, 14)
FWD(1, 14)
DW(4, 6)
DW(3, 8)
DW(2, 12)
DW(1, 24)
DWP(4, 6)
DWP(3, 8)
DWP(2, 12)
DWP(1, 24)
MM(4, 7)
MM(3, 7)
MM(2, 14)
MM(1, 14)
