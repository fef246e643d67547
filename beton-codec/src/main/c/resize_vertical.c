/*
 * The vertical pass of the fixed-point resize (declared in resize_passes.h; the arithmetic is described in
 * resize.c): weighted source rows summed into a 16-bit intermediate row. SSE2, AVX2 where resize_avx2() says so,
 * a scalar loop computing the same integers elsewhere.
 */
#include "betoncodec.h"
#include "resize_passes.h"

#ifdef RESIZE_SSE2
/* elements [i, i + 32) of vertical_pass (AVX2 CPUs); a constant npairs unrolls the rows and keeps their
 * pointers and weights in registers */
static inline __attribute__((always_inline, target("avx2"))) void rows32_avx2(
    const unsigned char *const *rows, const int32_t *pw, int npairs, __m256i bias, __m128i shift,
    int16_t *restrict mid, int i) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i a0 = bias, a1 = bias, a2 = bias, a3 = bias;
  for (int k = 0; k < npairs; k++) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(rows[2 * k] + i));
    __m256i b = _mm256_loadu_si256((const __m256i *)(rows[2 * k + 1] + i));
    __m256i w = _mm256_set1_epi32(pw[k]);
    __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), w));
    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), w));
    a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), w));
    a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), w));
  }
  /* in-lane unpacks: p = elements {0-7 | 16-23}, q = {8-15 | 24-31} */
  __m256i p = _mm256_packs_epi32(_mm256_sra_epi32(a0, shift), _mm256_sra_epi32(a1, shift));
  __m256i q = _mm256_packs_epi32(_mm256_sra_epi32(a2, shift), _mm256_sra_epi32(a3, shift));
  _mm256_storeu_si256((__m256i *)(mid + i), _mm256_permute2x128_si256(p, q, 0x20));
  _mm256_storeu_si256((__m256i *)(mid + i + 16), _mm256_permute2x128_si256(p, q, 0x31));
}

/* vertical_pass 32 elements at a time, n >= 32: the last block ends at n, overlapping the one before it
 * (each element is recomputed to the same value) instead of leaving a tail to slower loops */
static inline __attribute__((always_inline, target("avx2"))) void rows_avx2(
    const unsigned char *const *rows, const int32_t *pw, int npairs, int shift, int16_t *restrict mid, int n) {
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int i = 0;
  for (; i + 32 <= n; i += 32) {
    rows32_avx2(rows, pw, npairs, bias, sh, mid, i);
  }
  if (i < n) {
    rows32_avx2(rows, pw, npairs, bias, sh, mid, n - 32);
  }
}

/* Two and three rows whose weights sum to exactly 1 << (shift + 7) (every bilinear row, and the area windows of
 * shrinks under 2x) take fewer instructions than pairs of rows in vpmaddwd: with one row as base, the sum is
 * base << (shift + 7) plus the weighted differences of the other rows from it, and the base term passes the
 * shift whole: mid = base * 128 + ((sum over k of (row_k - base) * wy[k] + round) >> shift), the same integer.
 * Rows are widened 16 at a time (vpmovzxbw), which also keeps the elements in order. */

/* two rows, mid[i, i + 16) (see two_rows_avx2) */
static inline __attribute__((always_inline, target("avx2"))) void two_rows16_avx2(
    const unsigned char *base, const unsigned char *other, __m256i y, int16_t *restrict mid, int i) {
  __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(base + i)));
  __m256i o = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(other + i)));
  __m256i d = _mm256_slli_epi16(_mm256_sub_epi16(o, b), 7);
  _mm256_storeu_si256((__m256i *)(mid + i), _mm256_add_epi16(_mm256_slli_epi16(b, 7), _mm256_mulhrs_epi16(d, y)));
}

/* Two rows, base the heavier, other weighing w <= 2^(shift + 6), shift <= 8: the rounded weighted difference
 * ((other - base) * w + 2^(shift-1)) >> shift is one vpmulhrsw, which rounds x * y at bit 15: x = (other -
 * base) * 128 (|x| <= 32640) and y = w << (8 - shift) (<= 2^14) make x * y = (other - base) * w << (15 - shift).
 * 16 elements at a time, the last block ending at n (n >= 16; see rows_avx2). */
static inline __attribute__((always_inline, target("avx2"))) void two_rows_avx2(
    const unsigned char *base, const unsigned char *other, int w, int shift, int16_t *restrict mid, int n) {
  const __m256i y = _mm256_set1_epi16((int16_t)(w << (8 - shift)));
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    two_rows16_avx2(base, other, y, mid, i);
  }
  if (i < n) {
    two_rows16_avx2(base, other, y, mid, n - 16);
  }
}

/* three rows, mid[i, i + 16): rows 1 and 2 less row 0, interleaved for one vpmaddwd against pair(wy[1], wy[2])
 * (|sum| <= 255 << (shift + 7)) */
static inline __attribute__((always_inline, target("avx2"))) void three_rows16_avx2(
    const unsigned char *const *rows, __m256i w12, __m256i round, __m128i shift, int16_t *restrict mid, int i) {
  __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[0] + i)));
  __m256i b = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[1] + i))), a);
  __m256i c = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(rows[2] + i))), a);
  __m256i lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(b, c), w12);
  __m256i hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(b, c), w12);
  lo = _mm256_sra_epi32(_mm256_add_epi32(lo, round), shift);
  hi = _mm256_sra_epi32(_mm256_add_epi32(hi, round), shift);
  /* the in-lane unpacks and pack cancel out: elements in order */
  __m256i r = _mm256_packs_epi32(lo, hi);
  _mm256_storeu_si256((__m256i *)(mid + i), _mm256_add_epi16(_mm256_slli_epi16(a, 7), r));
}

/* three rows (a fourth weighing 0 is left out), 16 elements at a time, the last block ending at n (n >= 16) */
static inline __attribute__((always_inline, target("avx2"))) void three_rows_avx2(
    const unsigned char *const *rows, const int *wy, int shift, int16_t *restrict mid, int n) {
  const __m256i w12 = _mm256_set1_epi32(pair(wy[1], wy[2]));
  const __m256i round = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    three_rows16_avx2(rows, w12, round, sh, mid, i);
  }
  if (i < n) {
    three_rows16_avx2(rows, w12, round, sh, mid, n - 16);
  }
}

/* vertical_pass on AVX2 CPUs, n >= 32: the two- and three-row forms where the weights allow, else pairs of rows */
__attribute__((target("avx2")))
static void vertical_avx2(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs,
                          int shift, int16_t *restrict mid, int n) {
  int one = 1 << (shift + 7);
  if (npairs == 1 && wy[0] >= 0 && wy[1] >= 0 && wy[0] + wy[1] == one && shift <= 8) {
    if (wy[0] >= wy[1]) {
      two_rows_avx2(rows[0], rows[1], wy[1], shift, mid, n);
    } else {
      two_rows_avx2(rows[1], rows[0], wy[0], shift, mid, n);
    }
    return;
  }
  if (npairs == 2 && wy[3] == 0 && wy[0] >= 0 && wy[1] >= 0 && wy[2] >= 0 && wy[0] + wy[1] + wy[2] == one) {
    three_rows_avx2(rows, wy, shift, mid, n);
    return;
  }
  /* 4 to 6 rows: area shrinks from 2x to ~5x */
  switch (npairs) {
    case 2: rows_avx2(rows, pw, 2, shift, mid, n); break;
    case 3: rows_avx2(rows, pw, 3, shift, mid, n); break;
    default: rows_avx2(rows, pw, npairs, shift, mid, n); break;
  }
}
#endif

/* mid[i] = (sum over k of wy[k] * rows[k][i] + 2^(shift-1)) >> shift for i < n, shift = weight bits - 7;
 * rows and wy padded to 2 * npairs (a padding row repeats the last one with weight 0); pw[k] = pair(wy[2k],
 * wy[2k+1]) */
void vertical_pass(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs,
                          int shift, int16_t *restrict mid, int n) {
  int i = 0;
#ifdef RESIZE_SSE2
  if (n >= 32 && resize_avx2()) {
    vertical_avx2(rows, wy, pw, npairs, shift, mid, n);
    return;
  }
  const __m128i zero = _mm_setzero_si128();
  const __m128i bias = _mm_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  for (; i + 16 <= n; i += 16) {
    __m128i a0 = bias, a1 = bias, a2 = bias, a3 = bias;
    for (int k = 0; k < npairs; k++) {
      __m128i a = _mm_loadu_si128((const __m128i *)(rows[2 * k] + i));
      __m128i b = _mm_loadu_si128((const __m128i *)(rows[2 * k + 1] + i));
      __m128i w = _mm_set1_epi32(pw[k]);
      __m128i lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
      a0 = _mm_add_epi32(a0, _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), w));
      a1 = _mm_add_epi32(a1, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), w));
      a2 = _mm_add_epi32(a2, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), w));
      a3 = _mm_add_epi32(a3, _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), w));
    }
    _mm_storeu_si128((__m128i *)(mid + i),
                     _mm_packs_epi32(_mm_sra_epi32(a0, sh), _mm_sra_epi32(a1, sh)));
    _mm_storeu_si128((__m128i *)(mid + i + 8),
                     _mm_packs_epi32(_mm_sra_epi32(a2, sh), _mm_sra_epi32(a3, sh)));
  }
#else
  (void)pw;
#endif
  for (; i < n; i++) {
    int a = 1 << (shift - 1);
    for (int k = 0; k < 2 * npairs; k++) {
      a += wy[k] * rows[k][i];
    }
    mid[i] = (int16_t)(a >> shift);
  }
}
