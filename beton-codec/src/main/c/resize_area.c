#include "resize_passes.h"

/*
 * The weights of an area resize axis (see resize.c for the arithmetic): how many bits they take
 * (area_precision) and each output pixel's window of source pixels with its quantised weights (area_taps),
 * computed with the same double operations as the Java twin (Resizer.areaPrecision, JavaResize's area tables).
 */

/* Weight bits of an area axis shrinking by `scale` >= 1 (Resizer.areaPrecision): no tap weighs more than
 * 1 / floor(scale), so 14 + floor(log2(floor(scale))) bits still fit a signed 16-bit lane, and the rounding
 * error of the many small taps of a large shrink stays far below a level. */
int area_precision(double scale, int max) {
  int p = PREC + 31 - __builtin_clz((unsigned)(int)scale);
  return p < max ? p : max;
}

/* ceil(x) as an int for |x| < 2^31: a truncating conversion and a correction, shorter (in latency, on the
 * weights' dependency chains) than ceil() */
static inline int ceil_int(double x) {
  int i = (int)x;
  return i + (x > i);
}

/* A weight cover / scale (cover in (0, 1]) quantised to `prec` bits: rounded to nearest (Resizer.quantize; the
 * value is > 0, so truncation is its floor) */
static inline int quantize_one(double cover, double scale, int one) {
  return (int)(cover / scale * one + 0.5);
}

/* The numbers of area windows k < count (see area_taps) that take floating point: the first source index i0,
 * how many indices the window spans, the quantised weights of its first and last pixel, and whether each covers
 * more than 1e-9 (bits of hasFirst, hasLast). The first pixel covers f0 (>= i0) to the window's end or i0 + 1;
 * the last, when not the first, i1 - 1 (> f0) to the window's end or i1. */
typedef struct {
  int i0[64];
  int span[64];
  int vFirst[64];
  int vLast[64];
  uint64_t hasFirst;
  uint64_t hasLast;
} area_numbers;

static void area_numbers_scalar(int first, const int *map, int k0, int count, double scale, int limit, int one,
                                area_numbers *a) {
  a->hasFirst = a->hasLast = 0;
  for (int k = 0; k < count; k++) {
    int o = first + (map == NULL ? k0 + k : map[k0 + k]);
    double f0 = (double)o * scale;
    double f1 = (double)(o + 1) * scale;
    int i0 = (int)f0;
    int e = ceil_int(f1 - 1e-9);
    int i1 = e < limit ? e : limit;
    double coverFirst = (f1 < i0 + 1 ? f1 : i0 + 1) - f0;
    double coverLast = (f1 < i1 ? f1 : i1) - (i1 - 1);
    a->i0[k] = i0;
    a->span[k] = i1 - i0;
    a->vFirst[k] = quantize_one(coverFirst, scale, one);
    a->vLast[k] = quantize_one(coverLast, scale, one);
    a->hasFirst |= (uint64_t)(coverFirst > 1e-9) << k;
    a->hasLast |= (uint64_t)(coverLast > 1e-9) << k;
  }
}

#ifdef __SSE2__
/* area_numbers_scalar 4 windows at a time (AVX2 CPUs): the same IEEE operations in the same order (vminpd is
 * a < b ? a : b as the scalar selects; vcvttpd2dq truncates as (int) does), so the same numbers; the last step
 * may compute windows past count, which are not read */
__attribute__((target("avx2"))) static void area_numbers_avx2(int first, const int *map, int k0, int count,
                                                             double scale, int limit, int one, area_numbers *a) {
  const __m256d s = _mm256_set1_pd(scale);
  const __m256d eps = _mm256_set1_pd(1e-9);
  const __m256d ones = _mm256_set1_pd(1.0);
  const __m256d oneQ = _mm256_set1_pd(one);
  const __m256d half = _mm256_set1_pd(0.5);
  const __m128i one32 = _mm_set1_epi32(1);
  const __m128i lim = _mm_set1_epi32(limit);
  a->hasFirst = a->hasLast = 0;
  for (int k = 0; k < count; k += 4) {
    __m128i o;
    if (map == NULL) {
      o = _mm_add_epi32(_mm_set1_epi32(first + k0 + k), _mm_setr_epi32(0, 1, 2, 3));
    } else {
      int m[4];
      for (int j = 0; j < 4; j++) {
        m[j] = k + j < count ? map[k0 + k + j] : map[k0 + k];
      }
      o = _mm_add_epi32(_mm_set1_epi32(first), _mm_loadu_si128((const __m128i *)m));
    }
    __m256d f0 = _mm256_mul_pd(_mm256_cvtepi32_pd(o), s);
    __m256d f1 = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm_add_epi32(o, one32)), s);
    __m128i i0 = _mm256_cvttpd_epi32(f0);
    /* ceil_int(f1 - 1e-9): the truncation, plus 1 where it is below */
    __m256d x = _mm256_sub_pd(f1, eps);
    __m128i ix = _mm256_cvttpd_epi32(x);
    __m256d below = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_cvtepi32_pd(ix), _CMP_GT_OQ), ones);
    __m128i i1 = _mm_min_epi32(_mm_add_epi32(ix, _mm256_cvttpd_epi32(below)), lim);
    __m256d coverFirst = _mm256_sub_pd(_mm256_min_pd(f1, _mm256_cvtepi32_pd(_mm_add_epi32(i0, one32))), f0);
    __m256d coverLast = _mm256_sub_pd(_mm256_min_pd(f1, _mm256_cvtepi32_pd(i1)),
                                      _mm256_cvtepi32_pd(_mm_sub_epi32(i1, one32)));
    __m128i vFirst = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_div_pd(coverFirst, s), oneQ), half));
    __m128i vLast = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_div_pd(coverLast, s), oneQ), half));
    _mm_storeu_si128((__m128i *)(a->i0 + k), i0);
    _mm_storeu_si128((__m128i *)(a->span + k), _mm_sub_epi32(i1, i0));
    _mm_storeu_si128((__m128i *)(a->vFirst + k), vFirst);
    _mm_storeu_si128((__m128i *)(a->vLast + k), vLast);
    a->hasFirst |= (uint64_t)_mm256_movemask_pd(_mm256_cmp_pd(coverFirst, eps, _CMP_GT_OQ)) << k;
    a->hasLast |= (uint64_t)_mm256_movemask_pd(_mm256_cmp_pd(coverLast, eps, _CMP_GT_OQ)) << k;
  }
}
#endif

/* The windows of an area axis shrinking `limit` source pixels (columns or rows) by `scale`, for the output
 * indices first + map[k] (map NULL: first + k), k < count: window k covers the source pixels start[k] ..
 * start[k] + n[k] - 1 with the weights q[k * stride + t], t < n[k] (zero from there to stride >= max): cover /
 * scale quantised to `prec` bits as Resizer.quantize does, each rounded to nearest, the first largest taking the
 * remainder, so that they sum to exactly 1 << prec. Returns 0, or -1 when a window covers no pixel or more
 * than max.
 * The pixels strictly inside a window cover exactly 1 (the same double as (i + 1) - i), so their weight `inner`
 * is computed once; only the first and the last pixel take floating point (area_numbers, 64 windows at a time,
 * 4 at once with AVX2). */
int area_taps(int first, const int *map, int count, double scale, int limit, int prec, int max, int stride,
                     int *start, int *n, int *q) {
  int one = 1 << prec;
  int inner = quantize_one(1.0, scale, one);
  area_numbers a;
  for (int k0 = 0; k0 < count; k0 += 64) {
    int chunk = count - k0 < 64 ? count - k0 : 64;
#ifdef __SSE2__
    if (resize_avx2()) {
      area_numbers_avx2(first, map, k0, chunk, scale, limit, one, &a);
    } else {
      area_numbers_scalar(first, map, k0, chunk, scale, limit, one, &a);
    }
#else
    area_numbers_scalar(first, map, k0, chunk, scale, limit, one, &a);
#endif
    for (int j = 0; j < chunk; j++) {
      int k = k0 + j;
      int span = a.span[j];
      if (span <= 0) {
        return -1;
      }
      /* & and selects rather than && and ifs: the window sizes follow the scale's pattern, branches on them
       * would be mispredicted */
      int hasFirst = (int)(a.hasFirst >> j) & 1;
      int hasLast = (span > 1) & (int)(a.hasLast >> j);
      int nInner = span > 2 ? span - 2 : 0;
      int taps = hasFirst + nInner + hasLast;
      if (taps == 0 || taps > max) {
        return -1;
      }
      int vFirst = a.vFirst[j];
      int vLast = a.vLast[j];
      /* the first largest, in the order first, inner, last */
      int big = 0;
      int most = hasFirst ? vFirst : -1;
      int takeInner = (nInner > 0) & (inner > most);
      big = takeInner ? hasFirst : big;
      most = takeInner ? inner : most;
      big = hasLast & (vLast > most) ? taps - 1 : big;
      int *w = q + (size_t)k * stride;
      for (int t = 0; t < stride; t++) {
        w[t] = (unsigned)(t - hasFirst) < (unsigned)nInner ? inner : 0;
      }
      if (hasFirst) {
        w[0] = vFirst;
      }
      if (hasLast) {
        w[taps - 1] = vLast;
      }
      w[big] += one - (hasFirst * vFirst + nInner * inner + hasLast * vLast);
      start[k] = a.i0[j] + !hasFirst;
      n[k] = taps;
    }
  }
  return 0;
}
