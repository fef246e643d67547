#include "betoncodec.h"

/*
 * BENCHMARK BASELINE ONLY, not part of the product: a verbatim copy of src/main/c/resize.c as it was before the
 * fixed-point resize (commit a91cdd9), with its JNI names moved to org.sparkbeton.codec.bench.FloatResizeBaseline,
 * so ResizeBenchmark can time the old float arithmetic against the new fixed-point one in the same run and
 * measure how far their pixels differ. Built into target/bench-native/ by the native profile, never into the jar.
 *
 * The original header follows.
 *
 * Native twin of org.sparkbeton.codec.resize.Resizer. The arithmetic is the Java code's, operation for
 * operation (double tables, float accumulation in the same order, no FMA contraction: x86-64 without -mfma,
 * and the AVX2 code is built for target "avx2" alone), so both produce identical bytes; ResizerTest checks
 * that. Only the data layout differs, for SIMD:
 *  - area, vertical pass: all contributing rows are summed per element in one pass (a = w0*r0, a += w1*r1, ...;
 *    Java's 0 + w0*r0 is exactly w0*r0), 16 bytes at a time (SSE2, or AVX2 where the CPU has it);
 *  - area, horizontal pass: every output pixel gets the same number of taps T (padding taps weigh 0 and read
 *    the last real tap, and x + 0*p == x), and one 4-lane SSE vector carries R, G, B (and a lane nobody
 *    stores) per tap. 2.4-2.7x faster than the scalar gather it replaced (446x371 -> 256x212: 850 -> 320 us).
 * Other architectures run the scalar loops, which compute the same values.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#define AREA_SSE2 1
#define AREA_SIMD 1
#else
#define AREA_SIMD 0
#endif

static inline unsigned char clamp_px(float v) {
  int i = (int)(v + 0.5f);
  return (unsigned char)(i < 0 ? 0 : (i > 255 ? 255 : i));
}

#ifdef AREA_SSE2
#include <immintrin.h>
/* 8 bytes as 8 floats */
__attribute__((target("avx2"))) static inline __m256 bytes8_avx2(const unsigned char *p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}

/* sum_rows 8 lanes wide where the CPU has AVX2 (no FMA: target "avx2" alone never contracts mul + add) */
__attribute__((target("avx2")))
static int sum_rows_avx2(const unsigned char *const *rows, const float *wy, int nrows, float *restrict v, int n) {
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256 w = _mm256_set1_ps(wy[0]);
    __m256 a0 = _mm256_mul_ps(w, bytes8_avx2(rows[0] + i));
    __m256 a1 = _mm256_mul_ps(w, bytes8_avx2(rows[0] + i + 8));
    for (int k = 1; k < nrows; k++) {
      w = _mm256_set1_ps(wy[k]);
      a0 = _mm256_add_ps(a0, _mm256_mul_ps(w, bytes8_avx2(rows[k] + i)));
      a1 = _mm256_add_ps(a1, _mm256_mul_ps(w, bytes8_avx2(rows[k] + i + 8)));
    }
    _mm256_storeu_ps(v + i, a0);
    _mm256_storeu_ps(v + i + 8, a1);
  }
  return i;
}

/* set by tests (Resizer.sse2Only) to run the SSE2 paths on an AVX2 machine */
static volatile int sse2_only = 0;

static int has_avx2(void) {
  __builtin_cpu_init(); /* idempotent; needed before constructors have run */
  return !sse2_only && __builtin_cpu_supports("avx2");
}
#endif

/* v[i] = sum over k of wy[k] * rows[k][i], accumulated in k order, for i < n */
static void sum_rows(const unsigned char *const *rows, const float *wy, int nrows, float *restrict v, int n) {
  int i = 0;
#ifdef AREA_SSE2
  if (has_avx2()) {
    i = sum_rows_avx2(rows, wy, nrows, v, n);
  }
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    __m128 a0 = _mm_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int k = 0; k < nrows; k++) {
      __m128i b = _mm_loadu_si128((const __m128i *)(rows[k] + i));
      __m128i lo = _mm_unpacklo_epi8(b, zero), hi = _mm_unpackhi_epi8(b, zero);
      __m128 w = _mm_set1_ps(wy[k]);
      __m128 f0 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero));
      __m128 f1 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero));
      __m128 f2 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero));
      __m128 f3 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero));
      if (k == 0) {
        a0 = _mm_mul_ps(w, f0);
        a1 = _mm_mul_ps(w, f1);
        a2 = _mm_mul_ps(w, f2);
        a3 = _mm_mul_ps(w, f3);
      } else {
        a0 = _mm_add_ps(a0, _mm_mul_ps(w, f0));
        a1 = _mm_add_ps(a1, _mm_mul_ps(w, f1));
        a2 = _mm_add_ps(a2, _mm_mul_ps(w, f2));
        a3 = _mm_add_ps(a3, _mm_mul_ps(w, f3));
      }
    }
    _mm_storeu_ps(v + i, a0);
    _mm_storeu_ps(v + i + 4, a1);
    _mm_storeu_ps(v + i + 8, a2);
    _mm_storeu_ps(v + i + 12, a3);
  }
#endif
  for (; i < n; i++) {
    float a = wy[0] * rows[0][i];
    for (int k = 1; k < nrows; k++) {
      a += wy[k] * rows[k][i];
    }
    v[i] = a;
  }
}

#ifdef AREA_SSE2
/* pixels [ox, end) with exactly `taps` taps each; weights come pre-broadcast (4 equal floats per tap). A
 * constant `taps` lets the compiler unroll the tap loop. */
static inline __attribute__((always_inline)) void taps_sse2(const float *v, const int *off, const float *w4,
                                                             int taps, int ox, int end, unsigned char *out) {
  const __m128 half = _mm_set1_ps(0.5f);
  for (; ox < end; ox++) {
    const int *o = off + (size_t)ox * taps;
    const float *wt = w4 + (size_t)ox * taps * 4;
    __m128 a = _mm_mul_ps(_mm_load_ps(wt), _mm_loadu_ps(v + o[0]));
    for (int t = 1; t < taps; t++) {
      a = _mm_add_ps(a, _mm_mul_ps(_mm_load_ps(wt + 4 * t), _mm_loadu_ps(v + o[t])));
    }
    __m128i i32 = _mm_cvttps_epi32(_mm_add_ps(a, half));
    __m128i i16 = _mm_packs_epi32(i32, i32);
    int px = _mm_cvtsi128_si32(_mm_packus_epi16(i16, i16));
    /* 4 bytes stored, the 4th overwritten by the next pixel */
    memcpy(out + (size_t)ox * 3, &px, 4);
  }
}
#endif

/* out[3*ox + c] = clamp(sum over t of w[ox*T + t] * v[off[ox*T + t] + c]); v has 4 readable floats past each
 * offset (the caller pads it); w4 holds the same weights broadcast 4 times (SSE2 builds only) */
static void sum_taps(const float *v, const int *off, const float *w, const float *w4, int taps, int outW,
                     unsigned char *out) {
  int ox = 0;
#ifdef AREA_SSE2
  /* every pixel but the last: its 4-byte store must not pass the end of the row */
  int end = outW - 1;
  switch (taps) {
    case 1: taps_sse2(v, off, w4, 1, ox, end, out); break;
    case 2: taps_sse2(v, off, w4, 2, ox, end, out); break;
    case 3: taps_sse2(v, off, w4, 3, ox, end, out); break;
    case 4: taps_sse2(v, off, w4, 4, ox, end, out); break;
    default: taps_sse2(v, off, w4, taps, ox, end, out); break;
  }
  ox = end;
#endif
  for (; ox < outW; ox++) {
    const int *o = off + (size_t)ox * taps;
    const float *wt = w + (size_t)ox * taps;
    for (int c = 0; c < 3; c++) {
      float a = wt[0] * v[o[0] + c];
      for (int t = 1; t < taps; t++) {
        a += wt[t] * v[o[t] + c];
      }
      out[(size_t)ox * 3 + c] = clamp_px(a);
    }
  }
}

/* The source pixels (columns or rows below `limit`) the output window [f0, f1) covers, with weights
 * cover / scale: indices into idx, weights into wt, at most max of each. Returns how many, or -1 if more. */
static int area_window(double f0, double f1, int limit, double scale, int *idx, float *wt, int max) {
  int i0 = (int)f0;
  double e = ceil(f1 - 1e-9);
  int i1 = e < limit ? (int)e : limit;
  int n = 0;
  for (int i = i0; i < i1; i++) {
    double lo = f0 > i ? f0 : i;
    double hi = f1 < i + 1 ? f1 : i + 1;
    double cover = hi - lo;
    if (cover > 1e-9) {
      if (n >= max) {
        return -1;
      }
      idx[n] = i;
      wt[n] = (float)(cover / scale);
      n++;
    }
  }
  return n;
}

/* area window: output [outX, outX+outW) x [outY, outY+outH) of resizing w x h by (sx, sy); global source
 * pixel (0, 0) is at byte `base` of src, which is range-checked for every row and column touched. */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_bench_FloatResizeBaseline_area0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong base, jint stride, jint w, jint h, jdouble sx, jdouble sy,
    jint outX, jint outY, jint outW, jint outH, jobject dstBuf, jlong dstOff) {
  (void)cls;
  unsigned char *src = (*env)->GetDirectBufferAddress(env, srcBuf);
  unsigned char *dst = (*env)->GetDirectBufferAddress(env, dstBuf);
  jlong srcCap = (*env)->GetDirectBufferCapacity(env, srcBuf);
  jlong dstCap = (*env)->GetDirectBufferCapacity(env, dstBuf);
  if (src == NULL || dst == NULL || srcCap < 0 || dstCap < 0 || w <= 0 || h <= 0 || outW <= 0 || outH <= 0
      || stride <= 0 || outX < 0 || outY < 0 || sx < 1.0 || sy < 1.0 || dstOff < 0
      || dstOff + (jlong)outW * outH * 3 > dstCap) {
    return RC_BAD_ARGUMENT;
  }
  /* a window [f0, f1) of width sx >= 1 touches at most floor(sx) + 2 source pixels */
  int taps = (int)sx + 2;
  size_t max = (size_t)outW * (size_t)taps;
  int *xOff = malloc(max * sizeof(int));
  float *xW = malloc(max * sizeof(float));
  /* the same bound for the rows one output row sums */
  int maxRows = (int)sy + 2;
  const unsigned char **rows = malloc((size_t)maxRows * sizeof(*rows));
  int *rowIdx = malloc((size_t)maxRows * sizeof(int));
  float *wy = malloc((size_t)maxRows * sizeof(float));
  float *v = NULL;
  float *xW4 = NULL;
  int rc = 0;
  if (xOff == NULL || xW == NULL || rows == NULL || rowIdx == NULL || wy == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  /* taps as global byte columns first; T = the most any pixel needs */
  int used = 0;
  int c0 = -1, c1 = 0;
  for (int ox = 0; ox < outW; ox++) {
    int *o = xOff + (size_t)ox * taps;
    int n = area_window((outX + ox) * sx, (outX + ox + 1) * sx, w, sx, o, xW + (size_t)ox * taps, taps);
    if (n <= 0) {
      rc = RC_BAD_ARGUMENT;
      goto done;
    }
    for (int t = 0; t < n; t++) {
      o[t] *= 3; /* column -> byte offset */
    }
    if (c0 < 0) {
      c0 = o[0];
    }
    c1 = o[n - 1] + 3;
    for (int t = n; t < taps; t++) {
      o[t] = o[n - 1];
      xW[(size_t)ox * taps + t] = 0.0f;
    }
    used = n > used ? n : used;
  }
  /* compact to `used` taps per pixel, relative to c0 */
  for (int ox = 0; ox < outW; ox++) {
    for (int t = 0; t < used; t++) {
      xOff[(size_t)ox * used + t] = xOff[(size_t)ox * taps + t] - c0;
      xW[(size_t)ox * used + t] = xW[(size_t)ox * taps + t];
    }
  }
#ifdef AREA_SSE2
  xW4 = aligned_alloc(16, ((size_t)outW * used * 4 * sizeof(float) + 15) / 16 * 16);
  if (xW4 == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  for (size_t k = 0; k < (size_t)outW * used; k++) {
    xW4[4 * k] = xW4[4 * k + 1] = xW4[4 * k + 2] = xW4[4 * k + 3] = xW[k];
  }
#endif
  /* rows touched */
  int rFirst = (int)(outY * sy);
  double eLast = ceil((outY + outH) * sy - 1e-9);
  int rLast = eLast < h ? (int)eLast : h;
  if (base + (jlong)rFirst * stride + c0 < 0 || base + (jlong)(rLast - 1) * stride + c1 > srcCap) {
    rc = RC_BAD_ARGUMENT;
    goto done;
  }
  int rowLen = c1 - c0;
  v = malloc(((size_t)rowLen + 4) * sizeof(float));
  if (v == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  memset(v + rowLen, 0, 4 * sizeof(float));
  unsigned char *out = dst + dstOff;
  for (int oy = outY; oy < outY + outH; oy++) {
    int n = area_window(oy * sy, (oy + 1) * sy, h, sy, rowIdx, wy, maxRows);
    if (n <= 0) {
      rc = RC_BAD_ARGUMENT;
      goto done;
    }
    for (int k = 0; k < n; k++) {
      rows[k] = src + base + (jlong)rowIdx[k] * stride + c0;
    }
    sum_rows(rows, wy, n, v, rowLen);
    sum_taps(v, xOff, xW, xW4, used, outW, out);
    out += (size_t)outW * 3;
  }
done:
  free(xOff);
  free(xW);
  free(rows);
  free(rowIdx);
  free(wy);
  free(v);
  free(xW4);
  return rc;
}

#ifdef AREA_SSE2
/* blend_rows 8 lanes wide (AVX2 CPUs) */
__attribute__((target("avx2")))
static int blend_rows_avx2(const unsigned char *a, const unsigned char *b, float ay, float *restrict v, int n) {
  __m256 w = _mm256_set1_ps(ay);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i ta = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(a + i)));
    __m256i tb = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b + i)));
    __m256 d = _mm256_cvtepi32_ps(_mm256_sub_epi32(tb, ta));
    _mm256_storeu_ps(v + i, _mm256_add_ps(_mm256_cvtepi32_ps(ta), _mm256_mul_ps(w, d)));
  }
  return i;
}
#endif

/* v[i] = a[i] + ay * (b[i] - a[i]), the difference taken in int as Java does */
static void blend_rows(const unsigned char *a, const unsigned char *b, float ay, float *restrict v, int n) {
  int i = 0;
#ifdef AREA_SSE2
  if (has_avx2()) {
    i = blend_rows_avx2(a, b, ay, v, n);
  }
#endif
  for (; i < n; i++) {
    int ta = a[i];
    v[i] = ta + ay * (b[i] - ta);
  }
}

/* out[3*ox + c] = clamp(l + wx * (r - l)) with l = v[idx[2*ox] + c], r = v[idx[2*ox+1] + c]; v has 4 readable
 * floats past each index (the caller pads it); wx4 holds each weight 4 times (SSE2 builds only) */
static void blend_taps(const float *v, const int *idx, const float *wx, const float *wx4, int outW,
                       unsigned char *out) {
  int ox = 0;
#ifdef AREA_SSE2
  const __m128 half = _mm_set1_ps(0.5f);
  for (; ox + 1 < outW; ox++) {
    __m128 l = _mm_loadu_ps(v + idx[2 * ox]);
    __m128 r = _mm_loadu_ps(v + idx[2 * ox + 1]);
    __m128 p = _mm_add_ps(l, _mm_mul_ps(_mm_load_ps(wx4 + 4 * ox), _mm_sub_ps(r, l)));
    __m128i i32 = _mm_cvttps_epi32(_mm_add_ps(p, half));
    __m128i i16 = _mm_packs_epi32(i32, i32);
    int px = _mm_cvtsi128_si32(_mm_packus_epi16(i16, i16));
    /* 4 bytes stored, the 4th overwritten by the next pixel; the last pixel goes through the scalar loop */
    memcpy(out + (size_t)ox * 3, &px, 4);
  }
#endif
  for (; ox < outW; ox++) {
    for (int c = 0; c < 3; c++) {
      float l = v[idx[2 * ox] + c];
      out[ox * 3 + c] = clamp_px(l + wx[ox] * (v[idx[2 * ox + 1] + c] - l));
    }
  }
}

/* Output index o of a bilinear resize by `scale` over n source pixels, half-pixel centres: the first
 * source index, and the weight of the next one in *frac (0 at the edges, which are clamped) */
static int bilinear_tap(int o, double scale, int n, float *frac) {
  double f = (o + 0.5) * scale - 0.5;
  int i0 = (int)floor(f);
  float a = (float)(f - i0);
  if (i0 < 0) {
    i0 = 0;
    a = 0;
  }
  if (i0 >= n - 1) {
    i0 = n - 1;
    a = 0;
  }
  *frac = a;
  return i0;
}

/* bilinear, OpenCV half-pixel centres; box (x, y, w, h) of src rows `stride` apart from byte srcOff */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_bench_FloatResizeBaseline_bilinear0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong srcOff, jint stride, jint x, jint y, jint w, jint h,
    jint outW, jint outH, jobject dstBuf, jlong dstOff) {
  (void)cls;
  unsigned char *src = (*env)->GetDirectBufferAddress(env, srcBuf);
  unsigned char *dst = (*env)->GetDirectBufferAddress(env, dstBuf);
  jlong srcCap = (*env)->GetDirectBufferCapacity(env, srcBuf);
  jlong dstCap = (*env)->GetDirectBufferCapacity(env, dstBuf);
  if (src == NULL || dst == NULL || srcCap < 0 || dstCap < 0 || x < 0 || y < 0 || w <= 0 || h <= 0 || outW <= 0
      || outH <= 0 || srcOff < 0 || dstOff < 0 || (jlong)(x + w) * 3 > stride
      || srcOff + (jlong)(y + h - 1) * stride + (jlong)(x + w) * 3 > srcCap
      || dstOff + (jlong)outW * outH * 3 > dstCap) {
    return RC_BAD_ARGUMENT;
  }
  double sx = (double)w / outW;
  double sy = (double)h / outH;
  int rowLen = w * 3;
  int *idx = malloc((size_t)outW * 2 * sizeof(int));
  float *ax = malloc((size_t)outW * sizeof(float));
  float *v = malloc(((size_t)rowLen + 4) * sizeof(float)); /* + 4: blend_taps reads 4 floats per index */
  float *ax4 = NULL;
#ifdef AREA_SSE2
  ax4 = aligned_alloc(16, (size_t)outW * 4 * sizeof(float));
#endif
  if (idx == NULL || ax == NULL || v == NULL || (ax4 == NULL && AREA_SIMD)) {
    free(idx);
    free(ax);
    free(v);
    free(ax4);
    return RC_NO_MEMORY;
  }
  memset(v + rowLen, 0, 4 * sizeof(float));
  for (int ox = 0; ox < outW; ox++) {
    float a;
    int x0 = bilinear_tap(ox, sx, w, &a);
    idx[2 * ox] = x0 * 3;
    idx[2 * ox + 1] = (x0 + 1 < w - 1 ? x0 + 1 : w - 1) * 3;
    ax[ox] = a;
#ifdef AREA_SSE2
    ax4[4 * ox] = ax4[4 * ox + 1] = ax4[4 * ox + 2] = ax4[4 * ox + 3] = a;
#endif
  }
  const unsigned char *box = src + srcOff + (jlong)y * stride + (jlong)x * 3;
  unsigned char *out = dst + dstOff;
  for (int oy = 0; oy < outH; oy++) {
    float ay;
    int y0 = bilinear_tap(oy, sy, h, &ay);
    int y1 = y0 + 1 < h - 1 ? y0 + 1 : h - 1;
    const unsigned char *a = box + (jlong)y0 * stride;
    const unsigned char *b = box + (jlong)y1 * stride;
    /* vertical blend of the two rows first, then horizontal per output pixel (the Java order) */
    blend_rows(a, b, ay, v, rowLen);
    blend_taps(v, idx, ax, ax4, outW, out);
    out += (size_t)outW * 3;
  }
  free(idx);
  free(ax);
  free(v);
  free(ax4);
  return 0;
}

/* tests only: 1 keeps the resize on its SSE2 paths even where the CPU has AVX2; returns 1 if that changes
 * anything here (an x86-64 build) */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_bench_FloatResizeBaseline_sse2Only0(JNIEnv *env, jclass cls, jboolean on) {
  (void)env;
  (void)cls;
#ifdef AREA_SSE2
  sse2_only = on ? 1 : 0;
  return 1;
#else
  (void)on;
  return 0;
#endif
}
