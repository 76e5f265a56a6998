/* Row sums in order for float32 on x86-64 with AVX-512F, the source of _rows_code.py
 * (regenerate with `python scripts/gen_native.py`; loaded by tf_order.py through
 * machine_code.py). Freestanding: no libc, no globals, no constant tables.
 *
 * sum_rows: out[j] = ((x[0, j] + x[1, j]) + x[2, j]) + ... for rows of `cols` contiguous
 * values (a row pitch of `ld`), one float add per row: the order of TF's BiasAddGrad and
 * column sums, which NumPy reaches only one narrow row at a time. Columns are 16 to a vector,
 * the last one under a mask.
 */
#include <immintrin.h>

typedef long i64;

void sum_rows(const float *x, i64 rows, i64 cols, i64 ld, float *out)
{
    for (i64 c0 = 0; c0 < cols; c0 += 64) {
        __m512 acc[4];
        __mmask16 lanes[4];
        for (int j = 0; j < 4; j++) {
            const i64 left = cols - c0 - 16 * j;
            lanes[j] = left >= 16 ? (__mmask16)0xffff : left > 0 ? (__mmask16)((1u << left) - 1) : 0;
            acc[j] = _mm512_maskz_loadu_ps(lanes[j], x + c0 + 16 * j);
        }
        for (i64 r = 1; r < rows; r++) {
            const float *row = x + r * ld + c0;
            for (int j = 0; j < 4; j++)
                acc[j] = _mm512_add_ps(acc[j], _mm512_maskz_loadu_ps(lanes[j], row + 16 * j));
        }
        for (int j = 0; j < 4; j++)
            _mm512_mask_storeu_ps(out + c0 + 16 * j, lanes[j], acc[j]);
    }
}
