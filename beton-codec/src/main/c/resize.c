#include "betoncodec.h"
#include "resize_passes.h"
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
 *    with AVX2, windows of two and three rows (bilinear, area shrinks under 2x) sum their differences from
 *    one row instead (the weights sum to 1 << prec: base << 7 plus the rounded rest, one vpmulhrsw or vpmaddwd
 *    per 8 to 16 elements);
 *  - horizontal: out = (sum_t wx[t] * mid[off_t + c] + round) >> (prec + 7); every output pixel of a call
 *    gets the same even number of contiguous taps (those past its window weigh 0 and read the next columns
 *    or the zeroed padding of mid). AVX2: one 16-byte load holds two taps, vpshufb'd to R0 R1 G0 G1 B0 B1
 *    and summed by one vpmaddwd, two pixels per 256-bit vector, 8 pixels packed per store; SSE2: tap pairs
 *    gathered with two 8-byte loads and one pmaddwd.
 * Errors against the exact real-valued resize: the final rounding (0.5) plus < 0.1 of weight and mid
 * rounding for shrinks up to ~20x, so at most 1 level. Output coordinate maps (columns, rows) only choose
 * which output column/row each tap table and row window is built for.
 * Other architectures run the scalar loops, which compute the same integers. This file holds the weights,
 * the coordinate maps and the JNI entry points; the SIMD passes are in resize_passes.c.
 */
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

/* floor(x) and ceil(x) as ints for |x| < 2^31: a truncating conversion and a correction, shorter (in latency,
 * on the weights' dependency chains) than floor() and ceil() */
static inline int floor_int(double x) {
  int i = (int)x;
  return i - (x < i);
}

static inline int ceil_int(double x) {
  int i = (int)x;
  return i + (x > i);
}

/* double weights w[0, n), each >= 0 and summing to about 1, as integers summing to exactly 1 << prec: each
 * rounded to nearest, the first largest takes the remainder (Resizer.quantize) */
static void quantize(const double *w, int n, int prec, int *q) {
  int one = 1 << prec;
  int sum = 0, big = 0, max = -1;
  for (int i = 0; i < n; i++) {
    /* w[i] * one + 0.5 > 0: truncation is its floor */
    int v = (int)(w[i] * one + 0.5);
    q[i] = v;
    sum += v;
    if (v > max) {
      max = v;
      big = i;
    }
  }
  q[big] += one - sum;
}

/* The source pixels (columns or rows below `limit`) the output window [f0, f1) covers, with their weights
 * cover / scale quantised to `prec` bits (quantize): indices into idx, weights into q, at most max of each;
 * wt is scratch for max doubles. Returns how many, or -1 if more. */
static int area_window(double f0, double f1, int limit, double scale, int prec, int *idx, int *q, double *wt,
                       int max) {
  int i0 = (int)f0;
  int e = ceil_int(f1 - 1e-9);
  int i1 = e < limit ? e : limit;
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
  int i0 = floor_int(f);
  double a = f - i0;
  if (i0 < 0) {
    i0 = 0;
    a = 0;
  }
  if (i0 >= n - 1) {
    i0 = n - 1;
    a = 0;
  }
  /* a * 2^PREC + 0.5 > 0: truncation is its floor */
  *q = (int)(a * (1 << PREC) + 0.5);
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
