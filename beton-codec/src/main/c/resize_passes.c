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

/* vertical_pass 32 bytes at a time (AVX2 CPUs); returns how many elements it did */
__attribute__((target("avx2")))
static int vertical_avx2(const unsigned char *const *rows, const int32_t *pw, int npairs, int shift,
                         int16_t *restrict mid, int n) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  int i = 0;
  for (; i + 32 <= n; i += 32) {
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
    __m256i p = _mm256_packs_epi32(_mm256_sra_epi32(a0, sh), _mm256_sra_epi32(a1, sh));
    __m256i q = _mm256_packs_epi32(_mm256_sra_epi32(a2, sh), _mm256_sra_epi32(a3, sh));
    _mm256_storeu_si256((__m256i *)(mid + i), _mm256_permute2x128_si256(p, q, 0x20));
    _mm256_storeu_si256((__m256i *)(mid + i + 16), _mm256_permute2x128_si256(p, q, 0x31));
  }
  return i;
}
#endif

/* mid[i] = (sum over k of wy[k] * rows[k][i] + 2^(shift-1)) >> shift for i < n, shift = weight bits - 7;
 * rows and wy padded to 2 * npairs (a padding row repeats the last one with weight 0); pw[k] = pair(wy[2k],
 * wy[2k+1]) */
void vertical_pass(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs,
                          int shift, int16_t *restrict mid, int n) {
  int i = 0;
#ifdef RESIZE_SSE2
  if (has_avx2()) {
    i = vertical_avx2(rows, pw, npairs, shift, mid, n);
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
/* R0 R1 G0 G1 B0 B1 0 0 from the 16-bit R0 G0 B0 R1 G1 B1 .. of a lane */
#define PAIR_SHUFFLE 0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -128, -128, -128, -128

/* pixels ox and ox + 1 (ox even) of horizontal_pass, summed and shifted: lane 0 R G B x of ox, lane 1 of
 * ox + 1. The taps of a pixel are contiguous (off[ox*T + t] = off[ox*T] + 3t), so one 16-byte load of the
 * intermediate row holds two taps; shuffled to R0 R1 G0 G1 B0 B1 0 0 they need one madd against w8 (lane 0
 * pair(w0, w1) of pixel ox 4 times, lane 1 those of ox + 1; then taps 2, 3, ...). */
static inline __attribute__((always_inline, target("avx2"))) __m256i pixel_pair_avx2(
    const int16_t *mid, const int *off, int taps, const __m256i *w8, int ox, __m256i shuf, __m256i bias,
    __m128i shift) {
  const int16_t *pa = mid + off[(size_t)ox * taps];
  const int16_t *pb = mid + off[(size_t)(ox + 1) * taps];
  const __m256i *w = w8 + (size_t)(ox / 2) * (taps / 2);
  __m256i s = bias;
  for (int h = 0; h < taps / 2; h++) {
    __m256i v = _mm256_loadu2_m128i((const __m128i *)(pb + 6 * h), (const __m128i *)(pa + 6 * h));
    s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), _mm256_loadu_si256(w + h)));
  }
  return _mm256_sra_epi32(s, shift);
}

/* horizontal_pass 8 pixels, then 2 pixels, at a time (AVX2 CPUs), for pixels [0, outW - 1); returns where it
 * stopped */
static inline __attribute__((always_inline, target("avx2"))) int taps_avx2(const int16_t *mid, const int *off,
                                                                           int taps, const int32_t *w8, int shift,
                                                                           int outW, unsigned char *out) {
  const __m256i shuf = _mm256_setr_epi8(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -128, -128, -128, -128,
                                        0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -128, -128, -128, -128);
  /* R G B x of 4 pixels -> 12 bytes, in each lane */
  const __m256i compact = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m256i *w = (const __m256i *)w8;
  int ox = 0;
  /* 8 pixels, 24 bytes in two 16-byte stores: the second ends at 3 * ox + 28 */
  for (; ox + 10 <= outW; ox += 8) {
    __m256i s0 = pixel_pair_avx2(mid, off, taps, w, ox, shuf, bias, sh);
    __m256i s1 = pixel_pair_avx2(mid, off, taps, w, ox + 2, shuf, bias, sh);
    __m256i s2 = pixel_pair_avx2(mid, off, taps, w, ox + 4, shuf, bias, sh);
    __m256i s3 = pixel_pair_avx2(mid, off, taps, w, ox + 6, shuf, bias, sh);
    /* lanes: {ox, ox+2, ox+4, ox+6 | ox+1, ox+3, ox+5, ox+7} as RGBx dwords, then in order, then 12 bytes each */
    __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
    b = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(b, order), compact);
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3), _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *)(out + (size_t)ox * 3 + 12), _mm256_extracti128_si256(b, 1));
  }
  /* pixel ox + 1 stores 4 bytes: it must not be the last */
  for (; ox + 2 < outW; ox += 2) {
    __m256i s = pixel_pair_avx2(mid, off, taps, w, ox, shuf, bias, sh);
    s = _mm256_packs_epi32(s, s);
    s = _mm256_packus_epi16(s, s);
    int p0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(s));
    int p1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(s, 1));
    memcpy(out + (size_t)ox * 3, &p0, 4);
    memcpy(out + (size_t)ox * 3 + 3, &p1, 4);
  }
  return ox;
}

__attribute__((target("avx2")))
static int horizontal_avx2(const int16_t *mid, const int *off, int taps, const int32_t *w8, int shift, int outW,
                           unsigned char *out) {
  /* a constant taps lets the compiler unroll the common cases */
  switch (taps) {
    case 2: return taps_avx2(mid, off, 2, w8, shift, outW, out);
    case 4: return taps_avx2(mid, off, 4, w8, shift, outW, out);
    case 6: return taps_avx2(mid, off, 6, w8, shift, outW, out);
    default: return taps_avx2(mid, off, taps, w8, shift, outW, out);
  }
}
#endif


/* allocates t's arrays for outW pixels of `taps` taps; returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int outW, int taps) {
  t->taps = taps;
  t->off = malloc((size_t)outW * taps * sizeof(int));
  t->w = malloc((size_t)outW * taps * sizeof(int));
  t->pw = malloc((size_t)outW * taps / 2 * sizeof(int32_t));
  /* an odd last pixel has no partner: its lane 1 weighs 0 */
  t->w8 = calloc((size_t)(outW + 1) / 2 * taps / 2 * 8, sizeof(int32_t));
  if (t->off == NULL || t->w == NULL || t->pw == NULL || t->w8 == NULL) {
    free(t->off);
    free(t->w);
    free(t->pw);
    free(t->w8);
    t->off = t->w = NULL;
    t->pw = t->w8 = NULL;
    return RC_NO_MEMORY;
  }
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
  int *o = t->off + (size_t)ox * t->taps;
  int *w = t->w + (size_t)ox * t->taps;
  for (int k = 0; k < t->taps; k++) {
    o[k] = start + 3 * k;
    w[k] = k < n ? wt[k] : 0;
  }
  for (int k = 0; k < t->taps; k += 2) {
    t->pw[((size_t)ox * t->taps + k) / 2] = pair(w[k], w[k + 1]);
  }
  /* w8: per pixel pair, per tap pair h: 4 times pair(w[2h], w[2h+1]) of the even pixel, then of the odd one */
  int32_t *w8 = t->w8 + (size_t)(ox / 2) * (t->taps / 2) * 8 + (ox & 1) * 4;
  for (int h = 0; h < t->taps / 2; h++) {
    for (int j = 0; j < 4; j++) {
      w8[8 * h + j] = pair(w[2 * h], w[2 * h + 1]);
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
  const int32_t *pw = t->pw;
  int taps = t->taps;
  int ox = 0;
#ifdef RESIZE_SSE2
  if (has_avx2()) {
    ox = horizontal_avx2(mid, off, taps, t->w8, shift, outW, out);
  }
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
