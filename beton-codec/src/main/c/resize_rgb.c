/*
 * The horizontal pass of the fixed-point resize (declared in resize_passes.h; the arithmetic is described in
 * resize.c) for packed RGB, on SSE2, AVX2 and AVX-512 paths computing the same integers, and horizontal_pass,
 * which hands a plane to plane_horizontal (resize_plane.c).
 */
#include "betoncodec.h"
#include "resize_passes.h"

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

#ifdef RESIZE_SSE2
/* The AVX-512 path (BW, VL, VNNI CPUs, on 256-bit vectors): the same pixel pairs, sums and w8 as
 * pixel_pair_avx2, with fewer loads and instructions per tap pair. One 32-byte load of each pixel's taps and one
 * two-source word permute (vpermt2w) put R0 R1 G0 G1 B0 B1 of pixel j in lane 0 and of pixel j + 4 in lane 1,
 * where the AVX2 path needs two 16-byte loads, an insert and a byte shuffle; vpdpwssd sums in place of
 * vpmaddwd + vpaddd (the same wrapping int32 sums). A 32-byte load holds a pixel's first 5 taps, so T <= 4 loads
 * each pixel once (the second pair's elements are 6 on); larger T loads each tap pair. The x lanes read R0 R1
 * again and are dropped by block_512's compaction. */
static inline __attribute__((always_inline, target("avx512bw,avx512vl,avx512vnni"))) __m256i pixel_pair_512(
    const int16_t *mid, const int *o, int taps, const __m256i *w, __m256i bias, __m128i shift) {
  /* elements 0-15: pixel j's load, 16-31: pixel j + 4's */
  const __m256i idx = _mm256_setr_epi16(0, 3, 1, 4, 2, 5, 0, 3, 16, 19, 17, 20, 18, 21, 16, 19);
  const int16_t *pa = mid + o[0];
  const int16_t *pb = mid + o[4 * taps];
  __m256i s = bias;
  if (taps <= 4) {
    __m256i a = _mm256_loadu_si256((const __m256i *)pa);
    __m256i b = _mm256_loadu_si256((const __m256i *)pb);
    s = _mm256_dpwssd_epi32(s, _mm256_permutex2var_epi16(a, idx, b), _mm256_load_si256(w));
    if (taps == 4) {
      __m256i idx1 = _mm256_add_epi16(idx, _mm256_set1_epi16(6));
      s = _mm256_dpwssd_epi32(s, _mm256_permutex2var_epi16(a, idx1, b), _mm256_load_si256(w + 1));
    }
  } else {
    for (int h = 0; h < taps / 2; h++) {
      __m256i a = _mm256_loadu_si256((const __m256i *)(pa + 6 * h));
      __m256i b = _mm256_loadu_si256((const __m256i *)(pb + 6 * h));
      s = _mm256_dpwssd_epi32(s, _mm256_permutex2var_epi16(a, idx, b), _mm256_load_si256(w + h));
    }
  }
  return _mm256_sra_epi32(s, shift);
}

/* block_avx2 on the AVX-512 path */
static inline __attribute__((always_inline, target("avx512bw,avx512vl,avx512vnni"))) __m256i block_512(
    const int16_t *mid, const int *o, int taps, const __m256i *w, __m256i bias, __m128i shift) {
  const __m256i compact = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128);
  int h = taps / 2;
  __m256i s0 = pixel_pair_512(mid, o, taps, w, bias, shift);
  __m256i s1 = pixel_pair_512(mid, o + taps, taps, w + h, bias, shift);
  __m256i s2 = pixel_pair_512(mid, o + 2 * taps, taps, w + 2 * h, bias, shift);
  __m256i s3 = pixel_pair_512(mid, o + 3 * taps, taps, w + 3 * h, bias, shift);
  __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
  return _mm256_shuffle_epi8(b, compact);
}

/* taps_avx2 on the AVX-512 path (the same blocks and stores); a pixel's 32-byte load reads at most 3T + 10
 * elements from its first tap, inside taps_padding */
static inline __attribute__((always_inline, target("avx512bw,avx512vl,avx512vnni"))) void taps_512(
    const int16_t *mid, const int *off, int taps, const int32_t *w8, int shift, int outW, unsigned char *out) {
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m256i *w = (const __m256i *)w8;
  const int *o = off;
  int step = 4 * (taps / 2);
  int ox = 0;
  for (; ox + 10 <= outW; ox += 8, o += 8 * taps, w += step) {
    __m256i b = block_512(mid, o, taps, w, bias, sh);
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3), _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3 + 12), _mm256_extracti128_si256(b, 1));
  }
  for (; ox < outW; ox += 8, o += 8 * taps, w += step) {
    unsigned char buf[28];
    __m256i b = block_512(mid, o, taps, w, bias, sh);
    _mm_storeu_si128((__m128i *)buf, _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(buf + 12), _mm256_extracti128_si256(b, 1));
    memcpy(out + (size_t)ox * 3, buf, (size_t)(outW - ox < 8 ? outW - ox : 8) * 3);
  }
}

__attribute__((target("avx512bw,avx512vl,avx512vnni")))
static void horizontal_512(const int16_t *mid, const int *off, int taps, const int32_t *w8, int shift, int outW,
                           unsigned char *out) {
  switch (taps) {
    case 2: taps_512(mid, off, 2, w8, shift, outW, out); break;
    case 4: taps_512(mid, off, 4, w8, shift, outW, out); break;
    case 6: taps_512(mid, off, 6, w8, shift, outW, out); break;
    default: taps_512(mid, off, taps, w8, shift, outW, out); break;
  }
}
#endif

#ifdef RESIZE_SSE2
/* The AVX-512 pass of tables made wide (T <= 4, every block's windows within 64 elements; taps_done): 8 pixels
 * (24 pixel-channels) per block. Two 64-byte loads hold the block's windows; a vpermt2w per step with the
 * block's indices (widx) lays out each pixel-channel's tap pairs and a vpdpwssd sums them against ww. T = 2:
 * step 0 gives pixel-channels 0-15, step 1 those of 16-23 in its first 8 lanes (and where every index is
 * below 32, wide == 2 as in bilinear enlargements, from one load with step 1 on 256-bit vectors); T = 4:
 * steps 0 and 1 give 0-15 whole, step 2 those of 16-23 in two halves that one add joins (the bias in the
 * first half only). The same int32 sums as the other paths, shifted, clamped to 0-255 (vpmaxsd, then vpmovusdb
 * saturates) and stored as 24 bytes in pixel order, masked at the row's end. */
static inline __attribute__((always_inline, target("avx512f,avx512bw,avx512vl,avx512vnni"))) void wide_taps_512(
    const int16_t *mid, const tap_table *t, int taps, int narrow, int shift, int outW, unsigned char *out) {
  const __m512i bias = _mm512_set1_epi32(1 << (shift - 1));
  const __m512i halfBias = _mm512_maskz_mov_epi32(0x00FF, bias);
  const __m512i zero = _mm512_setzero_si512();
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m512i *ix = (const __m512i *)t->widx;
  const __m512i *ww = (const __m512i *)t->ww;
  for (int b = 0, ox = 0; ox < outW; b++, ox += 8, ix += 3, ww += 3) {
    const int16_t *p = mid + t->wbase[b];
    __m512i lo = _mm512_loadu_si512((const void *)p);
    __m512i s;
    __m256i r8;
    if (narrow) {
      /* every index < 32: one 64-byte load, and step 1 (8 lanes) on 256-bit vectors */
      s = _mm512_dpwssd_epi32(bias, _mm512_permutexvar_epi16(_mm512_load_si512(ix), lo), _mm512_load_si512(ww));
      __m256i idx1 = _mm256_load_si256((const __m256i *)(ix + 1));
      __m256i w1 = _mm256_load_si256((const __m256i *)(ww + 1));
      __m256i b = _mm256_loadu_si256((const __m256i *)(p + 16));
      r8 = _mm256_dpwssd_epi32(_mm512_castsi512_si256(bias),
                               _mm256_permutex2var_epi16(_mm512_castsi512_si256(lo), idx1, b), w1);
      goto store;
    }
    __m512i hi = _mm512_loadu_si512((const void *)(p + 32));
    s = _mm512_dpwssd_epi32(bias, _mm512_permutex2var_epi16(lo, _mm512_load_si512(ix), hi), _mm512_load_si512(ww));
    if (taps == 2) {
      r8 = _mm512_castsi512_si256(_mm512_dpwssd_epi32(
          bias, _mm512_permutex2var_epi16(lo, _mm512_load_si512(ix + 1), hi), _mm512_load_si512(ww + 1)));
    } else {
      s = _mm512_dpwssd_epi32(s, _mm512_permutex2var_epi16(lo, _mm512_load_si512(ix + 1), hi),
                              _mm512_load_si512(ww + 1));
      __m512i r = _mm512_dpwssd_epi32(halfBias, _mm512_permutex2var_epi16(lo, _mm512_load_si512(ix + 2), hi),
                                      _mm512_load_si512(ww + 2));
      r8 = _mm256_add_epi32(_mm512_castsi512_si256(r), _mm512_extracti64x4_epi64(r, 1));
    }
  store:;
    __m128i first = _mm512_cvtusepi32_epi8(_mm512_max_epi32(_mm512_sra_epi32(s, sh), zero));
    __m128i last = _mm256_cvtusepi32_epi8(_mm256_max_epi32(_mm256_sra_epi32(r8, sh), _mm512_castsi512_si256(zero)));
    unsigned char *o = out + (size_t)ox * 3;
    if (ox + 8 <= outW) {
      _mm_storeu_si128((__m128i *)o, first);
      _mm_storel_epi64((__m128i *)(o + 16), last);
    } else {
      int n = (outW - ox) * 3; /* 3 to 21 bytes */
      _mm_mask_storeu_epi8(o, (__mmask16)(n >= 16 ? 0xFFFF : (1u << n) - 1), first);
      _mm_mask_storeu_epi8(o + 16, (__mmask16)(n > 16 ? (1u << (n - 16)) - 1 : 0), last);
    }
  }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
static void wide_512(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
  if (t->wide == 2) {
    wide_taps_512(mid, t, 2, 1, shift, outW, out);
  } else if (t->taps == 2) {
    wide_taps_512(mid, t, 2, 0, shift, outW, out);
  } else {
    wide_taps_512(mid, t, 4, 0, shift, outW, out);
  }
}
#endif

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
  if (t->wide) {
    wide_512(mid, t, shift, outW, out);
    return;
  }
  if (resize_avx512()) {
    horizontal_512(mid, off, taps, t->w8, shift, outW, out);
    return;
  }
  if (resize_avx2()) {
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
