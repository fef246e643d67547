/*
 * The horizontal pass of the fixed-point resize for one channel (a plane of YCbCr): plane_horizontal, called by
 * horizontal_pass (resize_rgb.c), and plane_w8, the weight layout taps_done (resize_taps.c) writes for it.
 */
#include "betoncodec.h"
#include "resize_passes.h"

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
size_t plane_w8(int taps, int pairs, int ox, int e) {
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
void plane_horizontal(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
#ifdef RESIZE_SSE2
  if (t->near || resize_avx2()) {
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
