#include "betoncodec.h"

/*
 * The float16-planes case of ChannelLookup computed instead of looked up, where that gives the table's
 * exact bits: when a float16 table is an affine map of the byte (NormalizeImage's (v - mean) / std, and
 * anything else affine the loader composes), each plane value is cvtps_ph(fma(v, a, b)), 8 values per
 * instruction, where the lookup loop does one load and one store per value.
 *
 * Exactness is not argued, it is checked: fitHalfAffine0 finds per channel a line through the rounding
 * intervals of the table's 256 entries, then tries floats a few ulps around its a and b and keeps the first
 * pair whose results, computed by the very function the kernel calls (half8), equal the table's bits for all
 * 256 bytes. SIMD lanes do the
 * same operations whatever their position, so a pair that reproduces 0..255 reproduces every pixel. No pair
 * found (a non-affine table, or rounding that no float pair reproduces): the caller keeps the lookup.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#define AFFINE_X86 1
#endif

#ifdef AFFINE_X86
static int has_f16c_fma(void) {
  __builtin_cpu_init(); /* idempotent; needed before constructors have run */
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
}

/* float16 bits of a * v + b (one rounding to float32, fused) for the 8 bytes v in the low half of bytes */
static inline __attribute__((always_inline, target("avx2,fma,f16c"))) __m128i half8(__m128i bytes, __m256 a,
                                                                                    __m256 b) {
  __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
  return _mm256_cvtps_ph(_mm256_fmadd_ps(v, a, b), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* 1 when half8 with (a, b) gives table[0..255] exactly */
__attribute__((target("avx2,fma,f16c"))) static int reproduces(const uint16_t *table, float a, float b) {
  __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
  for (int v = 0; v < 256; v += 8) {
    __m128i bytes = _mm_setr_epi8((char)v, (char)(v + 1), (char)(v + 2), (char)(v + 3), (char)(v + 4),
                                  (char)(v + 5), (char)(v + 6), (char)(v + 7), 0, 0, 0, 0, 0, 0, 0, 0);
    uint16_t got[8];
    _mm_storeu_si128((__m128i *)got, half8(bytes, va, vb));
    if (memcmp(got, table + v, sizeof(got)) != 0) {
      return 0;
    }
  }
  return 1;
}

/* deinterleaves 16 RGB pixels (48 bytes) and writes 16 float16 values to each plane */
__attribute__((target("avx2,fma,f16c"))) static void affine_planes(const unsigned char *in, jlong pixels,
                                                                    const float *ab, const uint16_t *table,
                                                                    uint16_t *p0, uint16_t *p1, uint16_t *p2) {
  const __m128i r0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i r1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
  const __m128i r2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
  const __m128i g0 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i g1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
  const __m128i g2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
  const __m128i b0 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
  const __m128i b2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
  const __m256 a0 = _mm256_set1_ps(ab[0]), c0 = _mm256_set1_ps(ab[1]);
  const __m256 a1 = _mm256_set1_ps(ab[2]), c1 = _mm256_set1_ps(ab[3]);
  const __m256 a2 = _mm256_set1_ps(ab[4]), c2 = _mm256_set1_ps(ab[5]);
  jlong i = 0;
  for (; i + 16 <= pixels; i += 16) {
    const unsigned char *s = in + 3 * i;
    __m128i x = _mm_loadu_si128((const __m128i *)s);
    __m128i y = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i z = _mm_loadu_si128((const __m128i *)(s + 32));
    __m128i r = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(x, r0), _mm_shuffle_epi8(y, r1)), _mm_shuffle_epi8(z, r2));
    __m128i g = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(x, g0), _mm_shuffle_epi8(y, g1)), _mm_shuffle_epi8(z, g2));
    __m128i b = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(x, b0), _mm_shuffle_epi8(y, b1)), _mm_shuffle_epi8(z, b2));
    _mm_storeu_si128((__m128i *)(p0 + i), half8(r, a0, c0));
    _mm_storeu_si128((__m128i *)(p0 + i + 8), half8(_mm_srli_si128(r, 8), a0, c0));
    _mm_storeu_si128((__m128i *)(p1 + i), half8(g, a1, c1));
    _mm_storeu_si128((__m128i *)(p1 + i + 8), half8(_mm_srli_si128(g, 8), a1, c1));
    _mm_storeu_si128((__m128i *)(p2 + i), half8(b, a2, c2));
    _mm_storeu_si128((__m128i *)(p2 + i + 8), half8(_mm_srli_si128(b, 8), a2, c2));
  }
  for (; i < pixels; i++) { /* the last < 16 pixels from the table: the same bits */
    const unsigned char *s = in + 3 * i;
    memcpy(p0 + i, table + s[0], 2);
    memcpy(p1 + i, table + 256 + s[1], 2);
    memcpy(p2 + i, table + 512 + s[2], 2);
  }
}

/* exact value of float16 bits (finite or not) */
static double half_value(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v = exp == 0 ? ldexp(mant, -24) : exp == 0x1f ? (mant ? NAN : INFINITY) : ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

/* the float16 bits next to h towards +infinity (up) or -infinity (down) */
static uint16_t half_next(uint16_t h, int up) {
  if ((h & 0x7fff) == 0) {
    return up ? 0x0001 : 0x8001; /* either zero: the smallest subnormals */
  }
  return ((h & 0x8000) == 0) == (up != 0) ? (uint16_t)(h + 1) : (uint16_t)(h - 1);
}

/*
 * A line a*v + b through the rounding intervals of the 256 entries (the reals that round to each entry lie
 * between the midpoints to its neighbours): the intervals bound a by every pair of entries, and the middle
 * of what is left, then the middle of the b range for that a, stays as far from every interval's edge as it
 * can. 0 when no line fits (not an affine map, or not finite).
 */
static int fit_line(const uint16_t *t, double *slope, double *intercept) {
  double lo[256], hi[256];
  for (int v = 0; v < 256; v++) {
    /* an infinite neighbour (the entry is the largest finite half) leaves no finite interval edge */
    double x = half_value(t[v]), down = half_value(half_next(t[v], 0)), up = half_value(half_next(t[v], 1));
    if (!isfinite(x) || !isfinite(down) || !isfinite(up)) {
      return 0;
    }
    lo[v] = (x + down) / 2;
    hi[v] = (x + up) / 2;
  }
  double amin = -INFINITY, amax = INFINITY;
  for (int u = 0; u < 256; u++) {
    for (int v = u + 1; v < 256; v++) {
      double d = v - u, low = (lo[v] - hi[u]) / d, high = (hi[v] - lo[u]) / d;
      if (low > amin) amin = low;
      if (high < amax) amax = high;
    }
  }
  if (!(amin < amax)) {
    return 0;
  }
  double a = (amin + amax) / 2, bmin = -INFINITY, bmax = INFINITY;
  for (int v = 0; v < 256; v++) {
    if (lo[v] - a * v > bmin) bmin = lo[v] - a * v;
    if (hi[v] - a * v < bmax) bmax = hi[v] - a * v;
  }
  if (!(bmin < bmax)) {
    return 0;
  }
  *slope = a;
  *intercept = (bmin + bmax) / 2;
  return 1;
}

/* ulps around the fitted floats tried for a and for b: (2 * SEARCH + 1)^2 pairs at most per channel */
#define SEARCH 6

/* the k-th float in the order x, x-1ulp, x+1ulp, x-2ulp, x+2ulp, ... */
static float ulps_away(float x, int k) {
  int steps = (k + 1) / 2;
  float toward = (k % 2 == 1) ? -INFINITY : INFINITY;
  for (int s = 0; s < steps; s++) {
    x = nextafterf(x, toward);
  }
  return x;
}
#endif /* AFFINE_X86: the fit below runs only where the kernel can */

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_pixels_ChannelLookup_fitHalfAffine0(
    JNIEnv *env, jclass cls, jshortArray tableArray, jfloatArray abArray) {
  (void)cls;
#ifdef AFFINE_X86
  if (tableArray == NULL || abArray == NULL || (*env)->GetArrayLength(env, tableArray) != 768
      || (*env)->GetArrayLength(env, abArray) != 6) {
    return RC_BAD_ARGUMENT;
  }
  if (!has_f16c_fma()) {
    return 0;
  }
  float ab[6];
  uint16_t table[768];
  (*env)->GetShortArrayRegion(env, tableArray, 0, 768, (jshort *)table);
  for (int c = 0; c < 3; c++) {
    double slope, intercept;
    if (!fit_line(table + 256 * c, &slope, &intercept)) {
      return 0;
    }
    float a = (float)slope, b = (float)intercept;
    if (!isfinite(a) || !isfinite(b)) {
      return 0;
    }
    int found = 0;
    for (int i = 0; i < 2 * SEARCH + 1 && !found; i++) {
      for (int j = 0; j < 2 * SEARCH + 1 && !found; j++) {
        float ta = ulps_away(a, i), tb = ulps_away(b, j);
        if (reproduces(table + 256 * c, ta, tb)) {
          ab[2 * c] = ta;
          ab[2 * c + 1] = tb;
          found = 1;
        }
      }
    }
    if (!found) {
      return 0;
    }
  }
  (*env)->SetFloatArrayRegion(env, abArray, 0, 6, ab);
  return 1;
#else
  (void)env; (void)tableArray; (void)abArray;
  return 0;
#endif
}

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_pixels_ChannelLookup_applyHalfAffine0(
    JNIEnv *env, jclass cls, jobject inBuf, jlong inOff, jlong pixels, jshortArray tableArray, jfloatArray abArray,
    jobject outBuf, jlong outOff) {
  (void)cls;
#ifdef AFFINE_X86
  unsigned char *inBase = (*env)->GetDirectBufferAddress(env, inBuf);
  unsigned char *outBase = (*env)->GetDirectBufferAddress(env, outBuf);
  jlong inCap = (*env)->GetDirectBufferCapacity(env, inBuf);
  jlong outCap = (*env)->GetDirectBufferCapacity(env, outBuf);
  if (inBase == NULL || outBase == NULL || inCap < 0 || outCap < 0 || tableArray == NULL || abArray == NULL
      || pixels < 0 || inOff < 0 || outOff < 0 || pixels > (inCap - inOff) / 3 || pixels > (outCap - outOff) / 6
      || (*env)->GetArrayLength(env, tableArray) != 768 || (*env)->GetArrayLength(env, abArray) != 6
      || !has_f16c_fma()) {
    return RC_BAD_ARGUMENT;
  }
  float ab[6];
  uint16_t table[768];
  (*env)->GetFloatArrayRegion(env, abArray, 0, 6, ab);
  (*env)->GetShortArrayRegion(env, tableArray, 0, 768, (jshort *)table);
  unsigned char *out = outBase + outOff;
  uint16_t *p0 = (uint16_t *)out, *p1 = (uint16_t *)(out + 2 * pixels), *p2 = (uint16_t *)(out + 4 * pixels);
  affine_planes(inBase + inOff, pixels, ab, table, p0, p1, p2);
  return 0;
#else
  (void)env; (void)inBuf; (void)inOff; (void)pixels; (void)tableArray; (void)abArray; (void)outBuf; (void)outOff;
  return RC_UNSUPPORTED;
#endif
}
