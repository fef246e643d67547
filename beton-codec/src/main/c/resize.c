#include "betoncodec.h"
#include <limits.h>

/*
 * Native twin of org.sparkbeton.codec.resize.Resizer, in 16-bit fixed point (Pillow-SIMD style). Both twins
 * compute the same integers, so their bytes are identical by construction; ResizerTest and
 * ResizerAccuracyTest check that on the AVX2, SSE2 and Java paths.
 *
 * The weights come from the same double formulas as the Java twin (area: overlap / scale; bilinear:
 * half-pixel centres, edges clamped) and are quantised per output pixel (quantize) to 14 bits, or to
 * 14 + floor(log2(floor(scale))) bits for area shrinks of 2x and more (area_precision; at most 16
 * horizontally, 22 vertically): each rounded to nearest, the first largest takes the remainder, so every
 * output's weights sum to exactly 1 << prec. Two passes, vertical first (for area and bilinear alike):
 *  - vertical: mid[i] = (sum_k wy[k] * row_k[i] + round) >> (prec - 7), the weighted row with 7 fraction
 *    bits kept (<= 255 << 7 = 32640, a signed 16-bit lane); pairs of rows are interleaved byte by byte and
 *    summed with pmaddwd (_mm256_madd_epi16 where the CPU has AVX2), an odd row paired with a zero weight;
 *  - horizontal: out = (sum_t wx[t] * mid[off_t + c] + round) >> (prec + 7); every output pixel of a call
 *    gets the same even number of contiguous taps (those past its window weigh 0 and read the next columns
 *    or the zeroed padding of mid). AVX2: one 16-byte load holds two taps, vpshufb'd to R0 R1 G0 G1 B0 B1
 *    and summed by one vpmaddwd, two pixels per 256-bit vector, 8 pixels packed per store; SSE2: tap pairs
 *    gathered with two 8-byte loads and one pmaddwd.
 * Errors against the exact real-valued resize: the final rounding (0.5) plus < 0.1 of weight and mid
 * rounding for shrinks up to ~20x, so at most 1 level. Output coordinate maps (columns, rows) only choose
 * which output column/row each tap table and row window is built for.
 * Other architectures run the scalar loops, which compute the same integers.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#define RESIZE_SSE2 1
#endif

#define PREC 14       /* weight bits of bilinear taps and of area taps when shrinking less than 2x */
#define MID_BITS 7     /* fraction bits kept between the passes */
#define MAX_PREC_X 16  /* the horizontal sum, <= (255 << 7) << 16 plus rounding, must fit an int32 */
#define MAX_PREC_Y 22  /* the vertical sum, <= 255 << 22 plus rounding, likewise */

/* Weight bits of an area axis shrinking by `scale` >= 1 (Resizer.areaPrecision): no tap weighs more than
 * 1 / floor(scale), so 14 + floor(log2(floor(scale))) bits still fit a signed 16-bit lane, and the rounding
 * error of the many small taps of a large shrink stays far below a level. */
static int area_precision(double scale, int max) {
  int p = PREC + 31 - __builtin_clz((unsigned)(int)scale);
  return p < max ? p : max;
}

/* double weights w[0, n), summing to about 1, as integers summing to exactly 1 << prec: each rounded to
 * nearest, the first largest takes the remainder (Resizer.quantize) */
static void quantize(const double *w, int n, int prec, int *q) {
  int one = 1 << prec;
  int sum = 0, big = 0;
  for (int i = 0; i < n; i++) {
    q[i] = (int)floor(w[i] * one + 0.5);
    sum += q[i];
    if (q[i] > q[big]) {
      big = i;
    }
  }
  q[big] += one - sum;
}

/* two 16-bit weights in one 32-bit lane, as pmaddwd pairs them: lo * first + hi * second */
static inline int32_t pair(int lo, int hi) {
  return (int32_t)((uint32_t)(uint16_t)lo | ((uint32_t)(uint16_t)hi << 16));
}

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
static void vertical_pass(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs,
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

/* Horizontal tap tables of one call: `taps` (even) per output pixel, contiguous columns (off[ox*T + t] =
 * off[ox*T] + 3t, element offsets into the intermediate row; taps past a pixel's window weigh 0), weights w,
 * the same pairwise in pw (pair()), and for AVX2 per pixel pair in w8 (see pixel_pair_avx2). */
typedef struct {
  int taps;
  int *off;
  int *w;
  int32_t *pw;
  int32_t *w8;
} tap_table;

/* allocates t's arrays for outW pixels of `taps` taps; returns 0 or RC_NO_MEMORY (t's arrays then freed) */
static int taps_alloc(tap_table *t, int outW, int taps) {
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

static void taps_free(tap_table *t) {
  free(t->off);
  free(t->w);
  free(t->pw);
  free(t->w8);
}

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
static void taps_set(tap_table *t, int ox, int start, const int *wt, int n) {
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
static int taps_padding(const tap_table *t) {
  return 3 * t->taps + 16;
}

/* out[3*ox + c] = (sum over k of w[ox*T + k] * mid[off[ox*T + k] + c] + 2^(shift-1)) >> shift, shift = weight
 * bits + 7; mid has taps_padding(t) readable elements past its end (the caller pads it) */
static void horizontal_pass(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out) {
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

/* The source pixels (columns or rows below `limit`) the output window [f0, f1) covers, with their weights
 * cover / scale quantised to `prec` bits (quantize): indices into idx, weights into q, at most max of each;
 * wt is scratch for max doubles. Returns how many, or -1 if more. */
static int area_window(double f0, double f1, int limit, double scale, int prec, int *idx, int *q, double *wt,
                       int max) {
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
      wt[n] = cover / scale;
      n++;
    }
  }
  if (n > 0) {
    quantize(wt, n, prec, q);
  }
  return n;
}

/* An output coordinate map from Java (null: identity) copied into *out (NULL for identity); every entry
 * is checked to lie in [0, n). Returns 0, RC_BAD_ARGUMENT or RC_NO_MEMORY. */
static int read_map(JNIEnv *env, jintArray map, int n, int **out) {
  *out = NULL;
  if (map == NULL) {
    return 0;
  }
  if ((*env)->GetArrayLength(env, map) < n) {
    return RC_BAD_ARGUMENT;
  }
  int *m = malloc((size_t)n * sizeof(int));
  if (m == NULL) {
    return RC_NO_MEMORY;
  }
  (*env)->GetIntArrayRegion(env, map, 0, n, m);
  for (int i = 0; i < n; i++) {
    if (m[i] < 0 || m[i] >= n) {
      free(m);
      return RC_BAD_ARGUMENT;
    }
  }
  *out = m;
  return 0;
}

/* Both maps of a resize (read_map); on failure neither is kept. */
static int read_maps(JNIEnv *env, jintArray colMap, int outW, int **cols, jintArray rowMap, int outH, int **rows) {
  int rc = read_map(env, colMap, outW, cols);
  if (rc == 0) {
    rc = read_map(env, rowMap, outH, rows);
    if (rc != 0) {
      free(*cols);
      *cols = NULL;
    }
  }
  return rc;
}

/* area window: output [outX, outX+outW) x [outY, outY+outH) of resizing w x h by (sx, sy), output column
 * (row) i being window column (row) columns[i] (rows[i]); global source pixel (0, 0) is at byte `base` of
 * src, which is range-checked for every row and column touched. */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_area0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong base, jint stride, jint w, jint h, jdouble sx, jdouble sy,
    jint outX, jint outY, jint outW, jint outH, jobject dstBuf, jlong dstOff, jintArray colMap, jintArray rowMap) {
  (void)cls;
  unsigned char *src = (*env)->GetDirectBufferAddress(env, srcBuf);
  unsigned char *dst = (*env)->GetDirectBufferAddress(env, dstBuf);
  jlong srcCap = (*env)->GetDirectBufferCapacity(env, srcBuf);
  jlong dstCap = (*env)->GetDirectBufferCapacity(env, dstBuf);
  if (src == NULL || dst == NULL || srcCap < 0 || dstCap < 0 || w <= 0 || h <= 0 || outW <= 0 || outH <= 0
      || stride <= 0 || outX < 0 || outY < 0 || !(sx >= 1.0) || !(sy >= 1.0) || sx > w || sy > h || dstOff < 0
      || dstOff + (jlong)outW * outH * 3 > dstCap) {
    return RC_BAD_ARGUMENT;
  }
  int *cols, *rowsMap;
  int mrc = read_maps(env, colMap, outW, &cols, rowMap, outH, &rowsMap);
  if (mrc != 0) {
    return mrc;
  }
  /* a window [f0, f1) of width s >= 1 touches at most floor(s) + 2 source pixels */
  int maxTaps = (int)sx + 2;
  int maxRows = (int)sy + 2;
  size_t max = (size_t)outW * (size_t)maxTaps;
  int *tmpCol = malloc(max * sizeof(int));
  int *tmpW = malloc(max * sizeof(int));
  int *nTaps = malloc((size_t)outW * sizeof(int));
  /* rows and weights padded to an even count */
  const unsigned char **rows = malloc((size_t)(maxRows + 1) * sizeof(*rows));
  int *rowIdx = malloc((size_t)maxRows * sizeof(int));
  int *wy = malloc((size_t)(maxRows + 1) * sizeof(int));
  int32_t *yPair = malloc((size_t)(maxRows + 1) * sizeof(int32_t));
  double *scratch = malloc((size_t)(maxTaps > maxRows ? maxTaps : maxRows) * sizeof(double));
  tap_table xt = {0, NULL, NULL, NULL, NULL};
  int16_t *mid = NULL;
  int rc = 0;
  if (tmpCol == NULL || tmpW == NULL || nTaps == NULL || rows == NULL || rowIdx == NULL || wy == NULL
      || yPair == NULL || scratch == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  int precX = area_precision(sx, MAX_PREC_X);
  int precY = area_precision(sy, MAX_PREC_Y);
  /* the columns of each output pixel (contiguous), T = the most any pixel needs, rounded up to even */
  int used = 0;
  int c0 = INT_MAX, c1 = 0; /* first byte column read, one past the last */
  for (int ox = 0; ox < outW; ox++) {
    int col = outX + (cols == NULL ? ox : cols[ox]);
    int *c = tmpCol + (size_t)ox * maxTaps;
    int n = area_window((double)col * sx, (double)(col + 1) * sx, w, sx, precX, c, tmpW + (size_t)ox * maxTaps,
                        scratch, maxTaps);
    if (n <= 0) {
      rc = RC_BAD_ARGUMENT;
      goto done;
    }
    c0 = c[0] * 3 < c0 ? c[0] * 3 : c0;
    c1 = (c[n - 1] + 1) * 3 > c1 ? (c[n - 1] + 1) * 3 : c1;
    nTaps[ox] = n;
    used = n > used ? n : used;
  }
  rc = taps_alloc(&xt, outW, (used + 1) & ~1);
  if (rc != 0) {
    goto done;
  }
  for (int ox = 0; ox < outW; ox++) {
    taps_set(&xt, ox, tmpCol[(size_t)ox * maxTaps] * 3 - c0, tmpW + (size_t)ox * maxTaps, nTaps[ox]);
  }
  /* rows touched */
  int rFirst = (int)(outY * sy);
  double eLast = ceil((outY + outH) * sy - 1e-9);
  int rLast = eLast < h ? (int)eLast : h;
  if (rFirst >= rLast || base + (jlong)rFirst * stride + c0 < 0 || base + (jlong)(rLast - 1) * stride + c1 > srcCap) {
    rc = RC_BAD_ARGUMENT;
    goto done;
  }
  int rowLen = c1 - c0;
  int pad = taps_padding(&xt);
  mid = malloc(((size_t)rowLen + pad) * sizeof(int16_t));
  if (mid == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  memset(mid + rowLen, 0, (size_t)pad * sizeof(int16_t));
  unsigned char *out = dst + dstOff;
  /* mapped rows stay inside [outY, outY + outH): the range checked above covers them */
  for (int i = 0; i < outH; i++) {
    int oy = outY + (rowsMap == NULL ? i : rowsMap[i]);
    int n = area_window(oy * sy, (oy + 1) * sy, h, sy, precY, rowIdx, wy, scratch, maxRows);
    if (n <= 0 || rowIdx[0] < rFirst || rowIdx[n - 1] >= rLast) {
      rc = RC_BAD_ARGUMENT;
      goto done;
    }
    for (int k = 0; k < n; k++) {
      rows[k] = src + base + (jlong)rowIdx[k] * stride + c0;
    }
    if (n & 1) {
      rows[n] = rows[n - 1];
      wy[n] = 0;
    }
    int npairs = (n + 1) / 2;
    for (int k = 0; k < npairs; k++) {
      yPair[k] = pair(wy[2 * k], wy[2 * k + 1]);
    }
    vertical_pass(rows, wy, yPair, npairs, precY - MID_BITS, mid, rowLen);
    horizontal_pass(mid, &xt, precX + MID_BITS, outW, out);
    out += (size_t)outW * 3;
  }
done:
  free(cols);
  free(rowsMap);
  free(tmpCol);
  free(tmpW);
  free(nTaps);
  free(rows);
  free(rowIdx);
  free(wy);
  free(yPair);
  free(scratch);
  taps_free(&xt);
  free(mid);
  return rc;
}

/* Output index o of a bilinear resize by `scale` over n source pixels, half-pixel centres: the first source
 * index, and in *q the quantised weight of the next one (0 at the edges, which are clamped) */
static int bilinear_tap(int o, double scale, int n, int *q) {
  double f = (o + 0.5) * scale - 0.5;
  int i0 = (int)floor(f);
  double a = f - i0;
  if (i0 < 0) {
    i0 = 0;
    a = 0;
  }
  if (i0 >= n - 1) {
    i0 = n - 1;
    a = 0;
  }
  *q = (int)floor(a * (1 << PREC) + 0.5);
  return i0;
}

/* bilinear, OpenCV half-pixel centres; box (x, y, w, h) of src rows `stride` apart from byte srcOff */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_bilinear0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong srcOff, jint stride, jint x, jint y, jint w, jint h,
    jint outW, jint outH, jobject dstBuf, jlong dstOff, jintArray colMap, jintArray rowMap) {
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
  int *cols, *rowsMap;
  int mrc = read_maps(env, colMap, outW, &cols, rowMap, outH, &rowsMap);
  if (mrc != 0) {
    return mrc;
  }
  double sx = (double)w / outW;
  double sy = (double)h / outH;
  int rowLen = w * 3;
  const int one = 1 << PREC;
  tap_table xt;
  int16_t *mid = NULL;
  if (taps_alloc(&xt, outW, 2) != 0 || (mid = malloc(((size_t)rowLen + taps_padding(&xt)) * sizeof(int16_t))) == NULL) {
    if (xt.off != NULL) {
      taps_free(&xt);
    }
    free(cols);
    free(rowsMap);
    return RC_NO_MEMORY;
  }
  int pad = taps_padding(&xt);
  memset(mid + rowLen, 0, (size_t)pad * sizeof(int16_t));
  for (int ox = 0; ox < outW; ox++) {
    int q;
    int x0 = bilinear_tap(cols == NULL ? ox : cols[ox], sx, w, &q);
    /* the second tap is x0 + 1, or weighs 0 at the right edge (it then reads the zero padding of mid) */
    int wt[2] = {one - q, q};
    taps_set(&xt, ox, x0 * 3, wt, 2);
  }
  const unsigned char *box = src + srcOff + (jlong)y * stride + (jlong)x * 3;
  unsigned char *out = dst + dstOff;
  for (int oy = 0; oy < outH; oy++) {
    int q;
    int y0 = bilinear_tap(rowsMap == NULL ? oy : rowsMap[oy], sy, h, &q);
    int y1 = y0 + 1 < h - 1 ? y0 + 1 : h - 1;
    const unsigned char *rows[2] = {box + (jlong)y0 * stride, box + (jlong)y1 * stride};
    int wy[2] = {one - q, q};
    int32_t yPair = pair(one - q, q);
    vertical_pass(rows, wy, &yPair, 1, PREC - MID_BITS, mid, rowLen);
    horizontal_pass(mid, &xt, PREC + MID_BITS, outW, out);
    out += (size_t)outW * 3;
  }
  taps_free(&xt);
  free(mid);
  free(cols);
  free(rowsMap);
  return 0;
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
