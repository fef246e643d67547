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

/*
 * One channel (a plane): output pixel ox sums the T contiguous int16 elements mid[s, s + T), s = off[ox*T],
 * against its T weights. Pixels go 8 at a time (a block); taps_done lays out the weights of a block in w8 in
 * the order the loads build the pixels' elements (plane_w8), in one of two ways:
 *  - pairs (T = 2, or T = 4 with the window loads): vector e of a block holds pair(w[2e], w[2e+1]) of pixels
 *    0..7 in order, and the elements (s + 2e, s + 2e + 1) of each pixel sit in the same dword of the data vector:
 *    one madd per vector, summed, gives the 8 sums;
 *  - chunks (T = 4k otherwise): per chunk c of 4 taps, a vector X for pixels 0, 2, 4, 6 and a vector Y for 1, 3,
 *    5, 7, each pixel pair(w[4c], w[4c+1]), pair(w[4c+2], w[4c+3]); a 64-bit load holds a pixel's 4 elements of
 *    the chunk, and a madd leaves 2 partial sums per pixel, added across the chunks. Then each even pixel's two
 *    partials are summed in its low dword (srli_epi64 + add), each odd pixel's in its high dword (slli_epi64 +
 *    add), and one blend (SSE2: and/andnot/or) interleaves them back to pixels 0..7 in order.
 * AVX2 takes a block per vector (lane 0 pixels 0-3, lane 1 pixels 4-7). Where each lane's 4 pixels start within
 * 6 elements of its first (T <= 4 and shrinks up to 2x, the common case; taps_done checks every block), a lane
 * is one 16-byte load from its first pixel's start (pair 1 of T = 4: from 2 elements on) and one vpshufb by the
 * block's mask (plane_near_avx2); elsewhere each pixel's 32-bit or 64-bit elements are broadcast from memory and
 * blended in (plane8_avx2). SSE2 takes each half of a block apart, with the pairs or chunks of the broadcasts.
 */

/* the int32 of w8 that holds weight pair e (weights 2e, 2e + 1) of pixel j of a plane block */
static size_t plane_w8(int taps, int pairs, int ox, int e) {
  size_t block = (size_t)(ox / 8) * 4 * taps; /* 4T int32 per block */
  int j = ox % 8;
  if (pairs) {
    return block + (size_t)e * 8 + j;
  }
  int c = e / 2; /* the chunk of 4 taps */
  return block + (size_t)c * 16 + (j % 2) * 8 + (j / 2) * 2 + e % 2;
}

static inline int32_t load32(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline int64_t load64(const int16_t *p) {
  int64_t v;
  memcpy(&v, p, 8);
  return v;
}

#ifdef RESIZE_SSE2
/* the int32 sums (with bias, before the shift) of pixels j0..j0+3 of a block, j0 = 0 or 4, from the pairs (T =
 * 2) or chunks of plane_w8; s = their start elements; w = the block's weights */
static inline __attribute__((always_inline)) __m128i plane4_sse2(const int16_t *mid, const int *s, int taps,
                                                                 const int32_t *w, int j0, __m128i bias) {
  if (taps == 2) {
    __m128i d = _mm_setr_epi32(load32(mid + s[0]), load32(mid + s[taps]), load32(mid + s[2 * taps]),
                               load32(mid + s[3 * taps]));
    return _mm_add_epi32(bias, _mm_madd_epi16(d, _mm_loadu_si128((const __m128i *)(w + j0))));
  }
  __m128i ax = _mm_setzero_si128(), ay = _mm_setzero_si128();
  for (int c = 0; c < taps / 4; c++) {
    const int16_t *m = mid + 4 * c;
    __m128i x = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(m + s[0])),
                                   _mm_loadl_epi64((const __m128i *)(m + s[2 * taps])));
    __m128i y = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(m + s[taps])),
                                   _mm_loadl_epi64((const __m128i *)(m + s[3 * taps])));
    const int32_t *wc = w + 16 * c + j0; /* dwords j0.. of X and of Y: this half's lane */
    ax = _mm_add_epi32(ax, _mm_madd_epi16(x, _mm_loadu_si128((const __m128i *)wc)));
    ay = _mm_add_epi32(ay, _mm_madd_epi16(y, _mm_loadu_si128((const __m128i *)(wc + 8))));
  }
  /* even pixels' sums in dwords 0 and 2, odd pixels' in 1 and 3 */
  ax = _mm_add_epi32(ax, _mm_srli_epi64(ax, 32));
  ay = _mm_add_epi32(ay, _mm_slli_epi64(ay, 32));
  const __m128i even = _mm_setr_epi32(-1, 0, -1, 0);
  return _mm_add_epi32(bias, _mm_or_si128(_mm_and_si128(even, ax), _mm_andnot_si128(even, ay)));
}

/* the plane's pixels 4 at a time; a group that would pass outW goes through a buffer */
static inline __attribute__((always_inline)) void plane_sse2(const int16_t *mid, const int *off, int taps,
                                                             const int32_t *w8, int shift, int outW,
                                                             unsigned char *out) {
  const __m128i bias = _mm_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  for (int ox = 0; ox < outW; ox += 4) {
    const int32_t *w = w8 + (size_t)(ox / 8) * 4 * taps;
    __m128i a = _mm_sra_epi32(plane4_sse2(mid, off + (size_t)ox * taps, taps, w, ox % 8, bias), sh);
    __m128i i16 = _mm_packs_epi32(a, a);
    int px = _mm_cvtsi128_si32(_mm_packus_epi16(i16, i16));
    memcpy(out + ox, &px, (size_t)(outW - ox < 4 ? outW - ox : 4));
  }
}

/* the int32 sums (with bias, before the shift) of the 8 pixels of a block, lane 0 pixels 0-3, lane 1 4-7, from
 * broadcasts (see plane_w8; T = 2: pairs, else chunks); s = their start elements, w = the block's weights */
static inline __attribute__((always_inline, target("avx2"))) __m256i plane8_avx2(const int16_t *mid, const int *s,
                                                                                 int taps, const int32_t *w,
                                                                                 __m256i bias) {
  if (taps == 2) {
    __m256i d = _mm256_set1_epi32(load32(mid + s[0]));
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[taps])), 0x02);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[2 * taps])), 0x04);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[3 * taps])), 0x08);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[4 * taps])), 0x10);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[5 * taps])), 0x20);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[6 * taps])), 0x40);
    d = _mm256_blend_epi32(d, _mm256_set1_epi32(load32(mid + s[7 * taps])), 0x80);
    return _mm256_add_epi32(bias, _mm256_madd_epi16(d, _mm256_load_si256((const __m256i *)w)));
  }
  __m256i ax = _mm256_setzero_si256(), ay = _mm256_setzero_si256();
  for (int c = 0; c < taps / 4; c++) {
    const int16_t *m = mid + 4 * c;
    __m256i x = _mm256_set1_epi64x(load64(m + s[0]));
    x = _mm256_blend_epi32(x, _mm256_set1_epi64x(load64(m + s[2 * taps])), 0x0C);
    x = _mm256_blend_epi32(x, _mm256_set1_epi64x(load64(m + s[4 * taps])), 0x30);
    x = _mm256_blend_epi32(x, _mm256_set1_epi64x(load64(m + s[6 * taps])), 0xC0);
    __m256i y = _mm256_set1_epi64x(load64(m + s[taps]));
    y = _mm256_blend_epi32(y, _mm256_set1_epi64x(load64(m + s[3 * taps])), 0x0C);
    y = _mm256_blend_epi32(y, _mm256_set1_epi64x(load64(m + s[5 * taps])), 0x30);
    y = _mm256_blend_epi32(y, _mm256_set1_epi64x(load64(m + s[7 * taps])), 0xC0);
    ax = _mm256_add_epi32(ax, _mm256_madd_epi16(x, _mm256_load_si256((const __m256i *)(w + 16 * c))));
    ay = _mm256_add_epi32(ay, _mm256_madd_epi16(y, _mm256_load_si256((const __m256i *)(w + 16 * c + 8))));
  }
  ax = _mm256_add_epi32(ax, _mm256_srli_epi64(ax, 32));
  ay = _mm256_add_epi32(ay, _mm256_slli_epi64(ay, 32));
  return _mm256_add_epi32(bias, _mm256_blend_epi32(ax, ay, 0xAA));
}

/* the 8 sums (with bias, before the shift) of a block from its windows (plane_near_avx2): lane 0 loaded from the
 * start s0 of pixel 0, lane 1 from s4 of pixel 4; pair 1 of T = 4 from 2 elements further */
static inline __attribute__((always_inline, target("avx2"))) __m256i near8_avx2(const int16_t *mid, int s0, int s4,
                                                                                int taps, const int32_t *w,
                                                                                __m256i mask, __m256i bias) {
  __m256i x = _mm256_loadu2_m128i((const __m128i *)(mid + s4), (const __m128i *)(mid + s0));
  __m256i a = _mm256_add_epi32(bias, _mm256_madd_epi16(_mm256_shuffle_epi8(x, mask),
                                                       _mm256_load_si256((const __m256i *)w)));
  if (taps == 4) {
    __m256i y = _mm256_loadu2_m128i((const __m128i *)(mid + s4 + 2), (const __m128i *)(mid + s0 + 2));
    a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_shuffle_epi8(y, mask),
                                              _mm256_load_si256((const __m256i *)(w + 8))));
  }
  return a;
}

/* the plane's pixels from windows (T = 2 or 4, t->near), 16 at a time: two blocks' sums packed to 16 bytes in
 * order by one vpermd; a last single block, or one that would pass outW, goes through a buffer */
static inline __attribute__((always_inline, target("avx2"))) void plane_near_avx2(const int16_t *mid,
                                                                                  const tap_table *t, int taps,
                                                                                  int shift, int outW,
                                                                                  unsigned char *out) {
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  /* after the packs, lane 0 holds pixels 0-3 and 8-11, lane 1 4-7 and 12-15, 4 bytes each */
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const int *s = t->off;
  const int32_t *w = t->w8;
  const __m256i *mask = (const __m256i *)t->shuf;
  int ox = 0;
  for (; ox + 16 <= outW; ox += 16, s += 16 * taps, w += 8 * taps, mask += 2) {
    __m256i a = _mm256_sra_epi32(near8_avx2(mid, s[0], s[4 * taps], taps, w, mask[0], bias), sh);
    __m256i b = _mm256_sra_epi32(near8_avx2(mid, s[8 * taps], s[12 * taps], taps, w + 4 * taps, mask[1], bias), sh);
    __m256i i16 = _mm256_packs_epi32(a, b);
    __m256i u8 = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(i16, i16), order);
    _mm_storeu_si128((__m128i *)(out + ox), _mm256_castsi256_si128(u8));
  }
  for (; ox < outW; ox += 8, s += 8 * taps, w += 4 * taps, mask++) {
    __m256i a = _mm256_sra_epi32(near8_avx2(mid, s[0], s[4 * taps], taps, w, mask[0], bias), sh);
    __m256i i16 = _mm256_packs_epi32(a, a);
    __m256i u8 = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(i16, i16), order);
    unsigned char buf[16];
    _mm_storeu_si128((__m128i *)buf, _mm256_castsi256_si128(u8));
    memcpy(out + ox, buf, (size_t)(outW - ox < 8 ? outW - ox : 8));
  }
}

/* the plane's pixels 8 at a time from broadcasts, every block (the tables are padded to whole blocks); a block
 * that would pass outW goes through a buffer */
static inline __attribute__((always_inline, target("avx2"))) void plane_avx2(const int16_t *mid, const int *off,
                                                                             int taps, const int32_t *w8, int shift,
                                                                             int outW, unsigned char *out) {
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const int32_t *w = w8;
  const int *s = off;
  for (int ox = 0; ox < outW; ox += 8, w += 4 * taps, s += 8 * taps) {
    __m256i a = _mm256_sra_epi32(plane8_avx2(mid, s, taps, w, bias), sh);
    /* bytes of pixels 0-3 in lane 0, 4-7 in lane 1, then side by side */
    __m256i i16 = _mm256_packs_epi32(a, a);
    __m256i u8 = _mm256_packus_epi16(i16, i16);
    __m128i px = _mm_unpacklo_epi32(_mm256_castsi256_si128(u8), _mm256_extracti128_si256(u8, 1));
    if (ox + 8 <= outW) {
      _mm_storel_epi64((__m128i *)(out + ox), px);
    } else {
      unsigned char buf[8];
      _mm_storel_epi64((__m128i *)buf, px);
      memcpy(out + ox, buf, (size_t)(outW - ox));
    }
  }
}

/* a constant taps lets the compiler unroll the common cases */
__attribute__((target("avx2")))
static void plane_horizontal_avx2(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
  if (t->near) {
    if (t->taps == 2) {
      plane_near_avx2(mid, t, 2, shift, outW, out);
    } else {
      plane_near_avx2(mid, t, 4, shift, outW, out);
    }
    return;
  }
  switch (t->taps) {
    case 2: plane_avx2(mid, t->off, 2, t->w8, shift, outW, out); break;
    case 4: plane_avx2(mid, t->off, 4, t->w8, shift, outW, out); break;
    case 8: plane_avx2(mid, t->off, 8, t->w8, shift, outW, out); break;
    default: plane_avx2(mid, t->off, t->taps, t->w8, shift, outW, out); break;
  }
}

static void plane_horizontal_sse2(const int16_t *mid, const int *off, int taps, const int32_t *w8, int shift,
                                  int outW, unsigned char *out) {
  switch (taps) {
    case 2: plane_sse2(mid, off, 2, w8, shift, outW, out); break;
    case 4: plane_sse2(mid, off, 4, w8, shift, outW, out); break;
    case 8: plane_sse2(mid, off, 8, w8, shift, outW, out); break;
    default: plane_sse2(mid, off, taps, w8, shift, outW, out); break;
  }
}
#endif

/* horizontal_pass of a plane (t->channels == 1); t->near tables were made for an AVX2 CPU (taps_done) */
static void plane_horizontal(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
#ifdef RESIZE_SSE2
  if (t->near || has_avx2()) {
    plane_horizontal_avx2(mid, t, shift, outW, out);
  } else {
    plane_horizontal_sse2(mid, t->off, t->taps, t->w8, shift, outW, out);
  }
#else
  int taps = t->taps;
  for (int ox = 0; ox < outW; ox++) {
    const int16_t *m = mid + t->off[(size_t)ox * taps];
    const int *wt = t->w + (size_t)ox * taps;
    int a = 1 << (shift - 1);
    for (int k = 0; k < taps; k++) {
      a += wt[k] * m[k];
    }
    a >>= shift;
    out[ox] = (unsigned char)(a > 255 ? 255 : a);
  }
#endif
}

/* allocates t's arrays for outW pixels of `channels` (3 or 1) with up to `taps` real taps each (rounded up to
 * the T the passes need); returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int channels, int outW, int taps) {
  /* RGB pairs taps; a plane takes 2 (one 32-bit load a pixel) or chunks of 4 (64-bit loads) */
  taps = channels == 1 && taps > 2 ? (taps + 3) & ~3 : (taps + 1) & ~1;
  /* the SIMD passes read off and w8 in whole blocks of 8 pixels: the pixels past outW weigh 0 (zeroed) and start
   * at element 0 (RGB) or where the last pixel does (a plane, taps_done); a block takes 16T int32 of w8 for RGB,
   * 4T for a plane */
  size_t padded = ((size_t)outW + 7) / 8 * 8;
  size_t w8Bytes = padded / 8 * (channels == 1 ? 4 : 16) * (size_t)taps * sizeof(int32_t);
  t->channels = channels;
  t->taps = taps;
  t->outW = outW;
  t->near = 0;
  /* the plane windows' shuffle masks (taps_done), 32 bytes per block, where T allows the window loads */
  t->shuf = channels == 1 && taps <= 4 ? aligned_alloc(32, padded / 8 * 32) : NULL;
  t->off = calloc(padded * taps, sizeof(int));
  t->w = malloc((size_t)outW * taps * sizeof(int));
  t->pw = channels == 3 ? malloc((size_t)outW * taps / 2 * sizeof(int32_t)) : NULL; /* RGB's SSE2 weights */
  /* 32-byte vectors read whole: aligned so that none straddles a cache line (w8Bytes is a multiple of 32) */
  t->w8 = aligned_alloc(32, w8Bytes);
  if (t->off == NULL || t->w == NULL || (channels == 3 && t->pw == NULL) || t->w8 == NULL
      || (channels == 1 && taps <= 4 && t->shuf == NULL)) {
    taps_free(t);
    t->off = t->w = NULL;
    t->pw = t->w8 = NULL;
    t->shuf = NULL;
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
  free(t->shuf);
}

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
void taps_set(tap_table *t, int ox, int start, const int *wt, int n) {
  int taps = t->taps;
  int ch = t->channels;
  int *o = t->off + (size_t)ox * taps;
  int *w = t->w + (size_t)ox * taps;
  for (int k = 0; k < taps; k++) {
    o[k] = start + k * ch;
    w[k] = k < n ? wt[k] : 0;
  }
  if (ch == 1) {
    return; /* the SIMD weights are laid out by taps_done */
  }
  /* RGB: pw for SSE2, and w8 (see block_avx2): per block of 8 pixels, 4 vectors of T / 2 tap pairs; vector j % 4
   * holds pixel j in lane j / 4, tap pair h as 4 times pair(w[2h], w[2h+1]) */
  int32_t *pw = t->pw + (size_t)ox * (taps / 2);
  int j = ox % 8;
  int32_t *w8 = t->w8 + ((size_t)(ox / 8) * 4 + j % 4) * (taps / 2) * 8 + j / 4 * 4;
  for (int h = 0; h < taps / 2; h++) {
    pw[h] = pair(w[2 * h], w[2 * h + 1]);
    for (int k = 0; k < 4; k++) {
      w8[8 * h + k] = pw[h];
    }
  }
}

#ifdef RESIZE_SSE2
/* Whether the window loads fit every block of a plane: each lane's 4 pixels start within 6 elements of its first
 * pixel's start s (pixel k's pair, bytes 2d .. 2d + 3 from s, d = its start - s, stays in the lane's 16 bytes);
 * if so, the shuffle masks: lane bytes 4k .. 4k + 3 = 2d .. 2d + 3. */
static int plane_masks(tap_table *t, size_t blocks) {
  const int *off = t->off;
  int taps = t->taps;
  for (size_t lane = 0; lane < 2 * blocks; lane++) {
    const int *s = off + lane * 4 * taps;
    for (int k = 0; k < 4; k++) {
      uint32_t d = (uint32_t)(s[k * taps] - s[0]); /* a negative difference wraps to a large one */
      if (d > 6) {
        return 0;
      }
      uint32_t bytes = 2 * d * 0x01010101u + 0x03020100u;
      memcpy(t->shuf + lane * 16 + 4 * k, &bytes, 4);
    }
  }
  return 1;
}
#endif

/* after the last taps_set (see resize_passes.h) */
void taps_done(tap_table *t) {
  if (t->channels != 1) {
    return;
  }
  int taps = t->taps;
  int outW = t->outW;
  size_t padded = ((size_t)outW + 7) / 8 * 8;
  int *off = t->off;
  /* the padding pixels (weight 0) read where the last pixel does, so that starts never decrease in a block */
  int last = off[(size_t)(outW - 1) * taps];
  for (size_t ox = (size_t)outW; ox < padded; ox++) {
    for (int k = 0; k < taps; k++) {
      off[ox * taps + k] = last + k;
    }
  }
#ifdef RESIZE_SSE2
  /* decided for the CPU this call runs on: plane_horizontal takes the window loads whenever near is set */
  t->near = t->shuf != NULL && has_avx2() && plane_masks(t, padded / 8);
#endif
  /* the weights as the SIMD passes read them (plane_w8): pairs for T = 2 and for the windows, else chunks */
  const int *w = t->w;
  if (taps == 2 || t->near) {
    for (int ox = 0; ox < outW; ox++, w += taps) {
      int32_t *w8 = t->w8 + (size_t)(ox / 8) * 4 * taps + ox % 8;
      for (int e = 0; e < taps / 2; e++) {
        w8[8 * e] = pair(w[2 * e], w[2 * e + 1]);
      }
    }
    return;
  }
  for (int ox = 0; ox < outW; ox++, w += taps) {
    for (int e = 0; e < taps / 2; e++) {
      t->w8[plane_w8(taps, 0, ox, e)] = pair(w[2 * e], w[2 * e + 1]);
    }
  }
}

/* elements an intermediate row needs past its end for the taps of t. RGB: see taps_avx2 and taps_sse2. Plane:
 * a pixel's taps start inside the row (bilinear: at most at its last element, whose second tap reads the
 * padding with weight 0); the broadcasts read its T elements, the windows 8 from its start and, for T = 4,
 * 8 from 2 elements on */
int taps_padding(const tap_table *t) {
  return t->channels == 1 ? t->taps + 8 : 3 * t->taps + 16;
}

/* out[C*ox + c] = (sum over k of w[ox*T + k] * mid[off[ox*T + k] + c] + 2^(shift-1)) >> shift for the C =
 * t->channels channels c, shift = weight bits + 7; mid has taps_padding(t) readable elements past its end (the
 * caller pads it); exactly outW * C bytes of out are written */
void horizontal_pass(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
  if (t->channels == 1) {
    plane_horizontal(mid, t, shift, outW, out);
    return;
  }
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

int resize_avx2(void) {
#ifdef RESIZE_SSE2
  return has_avx2();
#else
  return 0;
#endif
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
