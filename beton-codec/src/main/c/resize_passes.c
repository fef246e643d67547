#include "betoncodec.h"
#include "resize_passes.h"

/*
 * The SIMD passes of the fixed-point resize (declared in resize_passes.h; the arithmetic is described in
 * resize.c): SSE2 on every x86-64, AVX2 where the CPU has it (chosen per call; Resizer.sse2Only forces SSE2
 * for tests), scalar loops computing the same integers elsewhere.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#define RESIZE_SSE2 1
#endif


#ifdef RESIZE_SSE2
/* set by tests (Resizer.sse2Only) to run the SSE2 paths on an AVX2 machine */
static volatile int sse2_only = 0;

static int has_avx2(void) {
  __builtin_cpu_init(); /* idempotent; needed before constructors have run */
  return !sse2_only && __builtin_cpu_supports("avx2");
}

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
  if (n >= 32 && has_avx2()) {
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

#ifdef RESIZE_SSE2
/* pixels [ox, end) with exactly `taps` (even) taps each; a constant `taps` lets the compiler unroll */
static inline __attribute__((always_inline)) void taps_sse2(const int16_t *mid, const int *off, const int32_t *pw,
                                                             int taps, int shift, int ox, int end,
                                                             unsigned char *out) {
  const __m128i bias = _mm_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  for (; ox < end; ox++) {
    const int *o = off + (size_t)ox * taps;
    const int32_t *w = pw + (size_t)ox * (taps / 2);
    __m128i a = bias;
    for (int t = 0; t < taps; t += 2) {
      /* R0 R1 G0 G1 B0 B1 x x: one madd gives R, G, B (and x) of the two taps */
      __m128i p = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(mid + o[t])),
                                     _mm_loadl_epi64((const __m128i *)(mid + o[t + 1])));
      a = _mm_add_epi32(a, _mm_madd_epi16(p, _mm_set1_epi32(w[t / 2])));
    }
    a = _mm_sra_epi32(a, sh);
    __m128i i16 = _mm_packs_epi32(a, a);
    int px = _mm_cvtsi128_si32(_mm_packus_epi16(i16, i16));
    /* 4 bytes stored, the 4th overwritten by the next pixel */
    memcpy(out + (size_t)ox * 3, &px, 4);
  }
}
#endif

#ifdef RESIZE_SSE2
/* pixels j and j + 4 of the 8-pixel block at o (offsets) and w (its w8 vectors) of horizontal_pass, summed and
 * shifted: lane 0 R G B x of j, lane 1 of j + 4. The taps of a pixel are contiguous (off[ox*T + t] = off[ox*T]
 * + 3t), so one 16-byte load of the intermediate row holds two taps; shuffled to R0 R1 G0 G1 B0 B1 0 0 they
 * need one madd against w (lane 0: pair(w0, w1) of pixel j 4 times, lane 1: those of j + 4; then taps 2, 3,
 * ...). */
static inline __attribute__((always_inline, target("avx2"))) __m256i pixel_pair_avx2(
    const int16_t *mid, const int *o, int taps, const __m256i *w, __m256i shuf, __m256i bias, __m128i shift) {
  const int16_t *pa = mid + o[0];
  const int16_t *pb = mid + o[4 * taps];
  __m256i s = bias;
  for (int h = 0; h < taps / 2; h++) {
    __m256i v = _mm256_loadu2_m128i((const __m128i *)(pb + 6 * h), (const __m128i *)(pa + 6 * h));
    s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), _mm256_load_si256(w + h)));
  }
  return _mm256_sra_epi32(s, shift);
}

/* the 8 pixels of the block at o and w (see pixel_pair_avx2) as 24 bytes: pixels 0-3 in bytes 0-11 of lane 0,
 * pixels 4-7 in bytes 0-11 of lane 1. Pairing j with j + 4 (not j + 1) lets the packs leave each lane's pixels
 * in order. */
static inline __attribute__((always_inline, target("avx2"))) __m256i block_avx2(
    const int16_t *mid, const int *o, int taps, const __m256i *w, __m256i shuf, __m256i bias, __m128i shift) {
  /* R G B x of 4 pixels -> 12 bytes, in each lane */
  const __m256i compact = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128);
  int h = taps / 2;
  __m256i s0 = pixel_pair_avx2(mid, o, taps, w, shuf, bias, shift);
  __m256i s1 = pixel_pair_avx2(mid, o + taps, taps, w + h, shuf, bias, shift);
  __m256i s2 = pixel_pair_avx2(mid, o + 2 * taps, taps, w + 2 * h, shuf, bias, shift);
  __m256i s3 = pixel_pair_avx2(mid, o + 3 * taps, taps, w + 3 * h, shuf, bias, shift);
  /* lanes {0, 1, 2, 3 | 4, 5, 6, 7} as RGBx bytes, then 12 bytes each */
  __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
  return _mm256_shuffle_epi8(b, compact);
}

/* horizontal_pass 8 pixels at a time (AVX2 CPUs), every pixel: the tables are padded to whole blocks (see
 * taps_alloc), and a block whose stores would pass the end of the row goes through a buffer */
static inline __attribute__((always_inline, target("avx2"))) void taps_avx2(const int16_t *mid, const int *off,
                                                                            int taps, const int32_t *w8, int shift,
                                                                            int outW, unsigned char *out) {
  const __m256i shuf = _mm256_setr_epi8(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -128, -128, -128, -128,
                                        0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -128, -128, -128, -128);
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m256i *w = (const __m256i *)w8;
  const int *o = off;
  int step = 4 * (taps / 2);
  int ox = 0;
  /* 24 bytes in two 16-byte stores: the second ends at 3 * ox + 28 */
  for (; ox + 10 <= outW; ox += 8, o += 8 * taps, w += step) {
    __m256i b = block_avx2(mid, o, taps, w, shuf, bias, sh);
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3), _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3 + 12), _mm256_extracti128_si256(b, 1));
  }
  for (; ox < outW; ox += 8, o += 8 * taps, w += step) {
    unsigned char buf[28];
    __m256i b = block_avx2(mid, o, taps, w, shuf, bias, sh);
    _mm_storeu_si128((__m128i *)buf, _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(buf + 12), _mm256_extracti128_si256(b, 1));
    memcpy(out + (size_t)ox * 3, buf, (size_t)(outW - ox < 8 ? outW - ox : 8) * 3);
  }
}

__attribute__((target("avx2")))
static void horizontal_avx2(const int16_t *mid, const int *off, int taps, const int32_t *w8, int shift, int outW,
                            unsigned char *out) {
  /* a constant taps lets the compiler unroll the common cases */
  switch (taps) {
    case 2: taps_avx2(mid, off, 2, w8, shift, outW, out); break;
    case 4: taps_avx2(mid, off, 4, w8, shift, outW, out); break;
    case 6: taps_avx2(mid, off, 6, w8, shift, outW, out); break;
    default: taps_avx2(mid, off, taps, w8, shift, outW, out); break;
  }
}
#endif

/* allocates t's arrays for outW pixels of `taps` taps; returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int outW, int taps) {
  /* the AVX2 pass reads off and w8 in whole blocks of 8 pixels: the pixels past outW start at element 0 and
   * weigh 0 (zeroed) */
  size_t padded = ((size_t)outW + 7) / 8 * 8;
  size_t w8Bytes = padded / 2 * taps / 2 * 8 * sizeof(int32_t);
  t->taps = taps;
  t->off = calloc(padded * taps, sizeof(int));
  t->w = malloc((size_t)outW * taps * sizeof(int));
  t->pw = malloc((size_t)outW * taps / 2 * sizeof(int32_t));
  /* 32-byte vectors read whole: aligned so that none straddles a cache line (w8Bytes is a multiple of 32) */
  t->w8 = aligned_alloc(32, w8Bytes);
  if (t->off == NULL || t->w == NULL || t->pw == NULL || t->w8 == NULL) {
    free(t->off);
    free(t->w);
    free(t->pw);
    free(t->w8);
    t->off = t->w = NULL;
    t->pw = t->w8 = NULL;
    return RC_NO_MEMORY;
  }
  memset(t->w8, 0, w8Bytes);
  return 0;
}

void taps_free(tap_table *t) {
  free(t->off);
  free(t->w);
  free(t->pw);
  free(t->w8);
}

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
void taps_set(tap_table *t, int ox, int start, const int *wt, int n) {
  int taps = t->taps;
  int *o = t->off + (size_t)ox * taps;
  int *w = t->w + (size_t)ox * taps;
  int32_t *pw = t->pw + (size_t)ox * (taps / 2);
  /* w8 (see block_avx2): per block of 8 pixels, 4 vectors of T / 2 tap pairs; vector j % 4 holds pixel j in
   * lane j / 4, tap pair h as 4 times pair(w[2h], w[2h+1]) */
  int j = ox % 8;
  int32_t *w8 = t->w8 + ((size_t)(ox / 8) * 4 + j % 4) * (taps / 2) * 8 + j / 4 * 4;
  for (int h = 0; h < taps / 2; h++) {
    int a = 2 * h < n ? wt[2 * h] : 0;
    int b = 2 * h + 1 < n ? wt[2 * h + 1] : 0;
    o[2 * h] = start + 6 * h;
    o[2 * h + 1] = start + 6 * h + 3;
    w[2 * h] = a;
    w[2 * h + 1] = b;
    pw[h] = pair(a, b);
    for (int k = 0; k < 4; k++) {
      w8[8 * h + k] = pw[h];
    }
  }
}

/* elements an intermediate row needs past its end for the taps of t (see taps_avx2 and taps_sse2) */
int taps_padding(const tap_table *t) {
  return 3 * t->taps + 16;
}

/* out[3*ox + c] = (sum over k of w[ox*T + k] * mid[off[ox*T + k] + c] + 2^(shift-1)) >> shift, shift = weight
 * bits + 7; mid has taps_padding(t) readable elements past its end (the caller pads it) */
void horizontal_pass(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
  const int *off = t->off;
  const int *w = t->w;
  int taps = t->taps;
  int ox = 0;
#ifdef RESIZE_SSE2
  if (has_avx2()) {
    horizontal_avx2(mid, off, taps, t->w8, shift, outW, out);
    return;
  }
  const int32_t *pw = t->pw;
  /* every pixel but the last: its 4-byte store must not pass the end of the row */
  int end = outW - 1;
  switch (taps) {
    case 2: taps_sse2(mid, off, pw, 2, shift, ox, end, out); break;
    case 4: taps_sse2(mid, off, pw, 4, shift, ox, end, out); break;
    case 6: taps_sse2(mid, off, pw, 6, shift, ox, end, out); break;
    default: taps_sse2(mid, off, pw, taps, shift, ox, end, out); break;
  }
  ox = end > ox ? end : ox;
#endif
  for (; ox < outW; ox++) {
    const int *o = off + (size_t)ox * taps;
    const int *wt = w + (size_t)ox * taps;
    for (int c = 0; c < 3; c++) {
      int a = 1 << (shift - 1);
      for (int t = 0; t < taps; t++) {
        a += wt[t] * mid[o[t] + c];
      }
      a >>= shift;
      out[(size_t)ox * 3 + c] = (unsigned char)(a > 255 ? 255 : a);
    }
  }
}

/* tests only: 1 keeps the resize on its SSE2 paths even where the CPU has AVX2; returns 1 if that changes
 * anything here (an x86-64 build) */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_sse2Only0(JNIEnv *env, jclass cls, jboolean on) {
  (void)env;
  (void)cls;
#ifdef RESIZE_SSE2
  sse2_only = on ? 1 : 0;
  return 1;
#else
  (void)on;
  return 0;
#endif
}
