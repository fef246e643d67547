#include "betoncodec.h"
#include "resize_passes.h"
#include <limits.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

/*
 * Native twin of org.sparkbeton.codec.resize.Resizer, in 16-bit fixed point (Pillow-SIMD style). Both twins
 * compute the same integers, so their bytes are identical by construction; ResizerTest,
 * ResizerNativePathsTest and ResizerAccuracyTest check that on the AVX-512, AVX2, SSE2 and Java paths.
 *
 * The weights come from the same double formulas as the Java twin (area: overlap / scale; bilinear:
 * half-pixel centres, edges clamped) and are quantised per output pixel (area_taps) to 14 bits, or to
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
 *    and summed by one vpmaddwd, two pixels per 256-bit vector, 8 pixels packed per store; AVX-512 (BW, VL,
 *    VNNI; 256-bit vectors): the same vectors from one 32-byte load per pixel (T <= 4) and one vpermt2w per
 *    tap pair, summed by vpdpwssd; SSE2: tap pairs gathered with two 8-byte loads and one pmaddwd. One channel (Resizer.resizePlane, area_resize and
 *    bilinear_resize with ch = 1): the same integers per element, a pixel's taps being contiguous int16s, T = 2
 *    (one 32-bit load) or a multiple of 4 (one 64-bit load per 4 taps), 8 pixels per vector (see
 *    resize_plane.c).
 * Errors against the exact real-valued resize: the final rounding (0.5) plus < 0.1 of weight and mid
 * rounding for shrinks up to ~20x, so at most 1 level. Output coordinate maps (columns, rows) only choose
 * which output column/row each tap table and row window is built for.
 * Other architectures run the scalar loops, which compute the same integers. This file holds the bilinear
 * weights, the coordinate maps and the JNI entry points; the area weights are in resize_area.c, the SIMD passes
 * in resize_vertical.c, resize_rgb.c and resize_plane.c (all declared in resize_passes.h).
 */

/* floor(x) as an int for |x| < 2^31: a truncating conversion and a correction, shorter (in latency, on the
 * weights' dependency chains) than floor() */
static inline int floor_int(double x) {
  int i = (int)x;
  return i - (x < i);
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

/* The addresses and capacities of two direct buffers; 0 when either is not direct or (impossible for a Java
 * ByteBuffer, whose capacity is an int) holds 2^31 bytes or more, which keeps the offset sums of the checks below
 * far from overflowing. */
static int direct_buffers(JNIEnv *env, jobject srcBuf, jobject dstBuf, unsigned char **src, jlong *srcCap,
                          unsigned char **dst, jlong *dstCap) {
  *src = (*env)->GetDirectBufferAddress(env, srcBuf);
  *dst = (*env)->GetDirectBufferAddress(env, dstBuf);
  *srcCap = (*env)->GetDirectBufferCapacity(env, srcBuf);
  *dstCap = (*env)->GetDirectBufferCapacity(env, dstBuf);
  return *src != NULL && *dst != NULL && *srcCap >= 0 && *srcCap <= INT_MAX && *dstCap >= 0 && *dstCap <= INT_MAX;
}

/* Whether the bytes [off, off + (rows - 1) * stride + len) lie inside a buffer of cap bytes (cap < 2^31), for any
 * values Java may pass: no sum or product that could overflow is formed. */
static int inside(jlong off, jlong rows, jlong stride, jlong len, jlong cap) {
  if (off < 0 || rows <= 0 || stride <= 0 || len <= 0 || off > cap || len > cap - off) {
    return 0;
  }
  return rows - 1 <= (cap - off - len) / stride;
}

/* The intermediate row of a call, rowLen + pad elements, on a 64-byte line: the vertical pass's stores then
 * split no cache line (but the last, which ends at the row's end) */
static int16_t *mid_alloc(int rowLen, int pad) {
  size_t bytes = ((size_t)rowLen + pad) * sizeof(int16_t);
  return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

/* Area resize of `ch` interleaved channels (3 or 1): output [outX, outX+outW) x [outY, outY+outH) of resizing
 * w x h by (sx, sy), output column (row) i being window column (row) cols[i] (rowsMap[i]; NULL: i). Global
 * source pixel (0, 0) is at byte `base` of src (srcCap bytes), rows `stride` apart; every row and column touched
 * is range-checked here. Output row i goes to out + i * dstStride, outW * ch bytes, which the caller checked.
 * Returns 0, RC_BAD_ARGUMENT or RC_NO_MEMORY. */
static int area_resize(const unsigned char *src, jlong srcCap, jlong base, int stride, int ch, int w, int h,
                       double sx, double sy, int outX, int outY, int outW, int outH, unsigned char *out,
                       size_t dstStride, const int *cols, const int *rowsMap) {
  /* a window's base is srcOffset - srcY * stride - srcX * 3 > -2^62 - 2^34: past that (or past the buffer) it
   * is garbage, and bounding it keeps the row offsets checked below from overflowing */
  if (w <= 0 || h <= 0 || outW <= 0 || outH <= 0 || stride <= 0 || outX < 0 || outY < 0 || !(sx >= 1.0)
      || !(sy >= 1.0) || sx > w || sy > h || base > srcCap || base < -((jlong)1 << 62) - ((jlong)1 << 34)) {
    return RC_BAD_ARGUMENT;
  }
  /* a window [f0, f1) of width s >= 1 touches at most floor(s) + 2 source pixels */
  int maxTaps = (int)sx + 2;
  int maxRows = (int)sy + 2;
  /* the windows of every output column and row; a row's weights padded with a zero to an even count */
  int *colStart = malloc((size_t)outW * sizeof(int));
  int *colN = malloc((size_t)outW * sizeof(int));
  int *colW = malloc((size_t)outW * maxTaps * sizeof(int));
  int *rowStart = malloc((size_t)outH * sizeof(int));
  int *rowN = malloc((size_t)outH * sizeof(int));
  int *rowW = malloc((size_t)outH * (maxRows + 1) * sizeof(int));
  const unsigned char **rows = malloc((size_t)(maxRows + 1) * sizeof(*rows));
  int32_t *yPair = malloc((size_t)(maxRows + 1) * sizeof(int32_t));
  tap_table xt = {0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
  int16_t *mid = NULL;
  int rc = 0;
  if (colStart == NULL || colN == NULL || colW == NULL || rowStart == NULL || rowN == NULL || rowW == NULL
      || rows == NULL || yPair == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  /* an axis whose last window runs past the edge (Resizer.areaPlane's registered chroma) can leave one pixel the
   * whole weight, which only PREC bits hold in a 16-bit lane (the same rule as the Java twin's) */
  int precX = (outX + outW) * sx > w + 1e-9 ? PREC : area_precision(sx, MAX_PREC_X);
  int precY = (outY + outH) * sy > h + 1e-9 ? PREC : area_precision(sy, MAX_PREC_Y);
  if (area_taps(outX, cols, outW, sx, w, precX, maxTaps, maxTaps, colStart, colN, colW) != 0
      || area_taps(outY, rowsMap, outH, sy, h, precY, maxRows, maxRows + 1, rowStart, rowN, rowW) != 0) {
    rc = RC_BAD_ARGUMENT;
    goto done;
  }
  /* the columns of each output pixel (contiguous), and the most any pixel needs */
  int used = 0;
  int c0 = INT_MAX, c1 = 0; /* first byte column read, one past the last */
  for (int ox = 0; ox < outW; ox++) {
    c0 = colStart[ox] * ch < c0 ? colStart[ox] * ch : c0;
    c1 = (colStart[ox] + colN[ox]) * ch > c1 ? (colStart[ox] + colN[ox]) * ch : c1;
    used = colN[ox] > used ? colN[ox] : used;
  }
  rc = taps_alloc(&xt, ch, outW, used);
  if (rc != 0) {
    goto done;
  }
  for (int ox = 0; ox < outW; ox++) {
    taps_set(&xt, ox, colStart[ox] * ch - c0, colW + (size_t)ox * maxTaps, colN[ox]);
  }
  taps_done(&xt);
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
  mid = mid_alloc(rowLen, pad);
  if (mid == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  memset(mid + rowLen, 0, (size_t)pad * sizeof(int16_t));
  /* mapped rows stay inside [outY, outY + outH): each window lies in the range checked above */
  for (int i = 0; i < outH; i++) {
    int n = rowN[i];
    const int *wy = rowW + (size_t)i * (maxRows + 1);
    if (rowStart[i] < rFirst || rowStart[i] + n > rLast) {
      rc = RC_BAD_ARGUMENT;
      goto done;
    }
    /* every slot set, whatever n (loops on n would be mispredicted as the window sizes alternate): rows past the
     * window repeat its last one, with weight 0 */
    for (int k = 0; k <= maxRows; k++) {
      rows[k] = src + base + (jlong)(rowStart[i] + (k < n ? k : n - 1)) * stride + c0;
    }
    for (int k = 0; k < (maxRows + 1) / 2; k++) {
      yPair[k] = pair(wy[2 * k], wy[2 * k + 1]);
    }
    int npairs = (n + 1) / 2;
    vertical_pass(rows, wy, yPair, npairs, precY - MID_BITS, mid, rowLen);
    horizontal_pass(mid, &xt, precX + MID_BITS, outW, out);
    out += dstStride;
  }
done:
  free(colStart);
  free(colN);
  free(colW);
  free(rowStart);
  free(rowN);
  free(rowW);
  free(rows);
  free(yPair);
  taps_free(&xt);
  free(mid);
  return rc;
}

/* area window of an RGB image (area_resize, 3 channels, rows packed in the output from dstOff); the maps come
 * from Java and are checked in read_maps */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_area0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong base, jint stride, jint w, jint h, jdouble sx, jdouble sy,
    jint outX, jint outY, jint outW, jint outH, jobject dstBuf, jlong dstOff, jintArray colMap, jintArray rowMap) {
  (void)cls;
  unsigned char *src, *dst;
  jlong srcCap, dstCap;
  if (!direct_buffers(env, srcBuf, dstBuf, &src, &srcCap, &dst, &dstCap) || outW <= 0
      || !inside(dstOff, outH, (jlong)outW * 3, (jlong)outW * 3, dstCap)) {
    return RC_BAD_ARGUMENT;
  }
  int *cols = NULL, *rowsMap = NULL;
  int rc = read_maps(env, colMap, outW, &cols, rowMap, outH, &rowsMap);
  if (rc == 0) {
    rc = area_resize(src, srcCap, base, stride, 3, w, h, sx, sy, outX, outY, outW, outH, dst + dstOff,
                     (size_t)outW * 3, cols, rowsMap);
  }
  free(cols);
  free(rowsMap);
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

/* Bilinear resize of `ch` interleaved channels (3 or 1), OpenCV half-pixel centres: the w x h box whose first
 * pixel is at `box`, rows `stride` apart (checked by the caller), to outW x outH, output column (row) i being
 * column (row) cols[i] (rowsMap[i]; NULL: i) of the plain resize; output row i to out + i * dstStride. Returns 0
 * or RC_NO_MEMORY. */
static int bilinear_resize(const unsigned char *box, int stride, int ch, int w, int h, int outW, int outH,
                           unsigned char *out, size_t dstStride, const int *cols, const int *rowsMap) {
  double sx = (double)w / outW;
  double sy = (double)h / outH;
  int rowLen = w * ch;
  const int one = 1 << PREC;
  tap_table xt;
  int16_t *mid = NULL;
  if (taps_alloc(&xt, ch, outW, 2) != 0) {
    return RC_NO_MEMORY;
  }
  int pad = taps_padding(&xt);
  mid = mid_alloc(rowLen, pad);
  if (mid == NULL) {
    taps_free(&xt);
    return RC_NO_MEMORY;
  }
  memset(mid + rowLen, 0, (size_t)pad * sizeof(int16_t));
  for (int ox = 0; ox < outW; ox++) {
    int q;
    int x0 = bilinear_tap(cols == NULL ? ox : cols[ox], sx, w, &q);
    /* the second tap is x0 + 1, or weighs 0 at the right edge (it then reads the zero padding of mid) */
    int wt[2] = {one - q, q};
    taps_set(&xt, ox, x0 * ch, wt, 2);
  }
  taps_done(&xt);
  for (int oy = 0; oy < outH; oy++) {
    int q;
    int y0 = bilinear_tap(rowsMap == NULL ? oy : rowsMap[oy], sy, h, &q);
    int y1 = y0 + 1 < h - 1 ? y0 + 1 : h - 1;
    const unsigned char *rows[2] = {box + (jlong)y0 * stride, box + (jlong)y1 * stride};
    int wy[2] = {one - q, q};
    int32_t yPair = pair(one - q, q);
    vertical_pass(rows, wy, &yPair, 1, PREC - MID_BITS, mid, rowLen);
    horizontal_pass(mid, &xt, PREC + MID_BITS, outW, out);
    out += dstStride;
  }
  taps_free(&xt);
  free(mid);
  return 0;
}

/* bilinear RGB (bilinear_resize, 3 channels, rows packed in the output from dstOff); box (x, y, w, h) of src rows
 * `stride` apart from byte srcOff */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_bilinear0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong srcOff, jint stride, jint x, jint y, jint w, jint h,
    jint outW, jint outH, jobject dstBuf, jlong dstOff, jintArray colMap, jintArray rowMap) {
  (void)cls;
  unsigned char *src, *dst;
  jlong srcCap, dstCap;
  /* the rows of the box (the source's rows 0 .. y + h - 1 from srcOff, x + w pixels of each) and of the output */
  if (!direct_buffers(env, srcBuf, dstBuf, &src, &srcCap, &dst, &dstCap) || x < 0 || y < 0 || w <= 0 || h <= 0
      || outW <= 0 || ((jlong)x + w) * 3 > stride || !inside(srcOff, (jlong)y + h, stride, ((jlong)x + w) * 3, srcCap)
      || !inside(dstOff, outH, (jlong)outW * 3, (jlong)outW * 3, dstCap)) {
    return RC_BAD_ARGUMENT;
  }
  int *cols = NULL, *rowsMap = NULL;
  int rc = read_maps(env, colMap, outW, &cols, rowMap, outH, &rowsMap);
  if (rc == 0) {
    rc = bilinear_resize(src + srcOff + (jlong)y * stride + (jlong)x * 3, stride, 3, w, h, outW, outH,
                         dst + dstOff, (size_t)outW * 3, cols, rowsMap);
  }
  free(cols);
  free(rowsMap);
  return rc;
}

/* The buffers of a plane resize, and whether its ranges lie inside them: the source's rows 0 .. rows - 1 from srcOff
 * (srcStride apart, cols bytes each) and outH output rows of outW bytes from dstOff (dstStride apart). */
static int plane_ranges(JNIEnv *env, jobject srcBuf, jlong srcOff, jint srcStride, jlong rows, jlong cols,
                        jobject dstBuf, jlong dstOff, jint dstStride, jint outW, jint outH, unsigned char **src,
                        jlong *srcCap, unsigned char **dst) {
  jlong dstCap;
  return direct_buffers(env, srcBuf, dstBuf, src, srcCap, dst, &dstCap) && outW > 0 && cols <= srcStride
         && outW <= dstStride && inside(srcOff, rows, srcStride, cols, *srcCap)
         && inside(dstOff, outH, dstStride, outW, dstCap);
}

/* Resizer.resizePlane: box (x, y, w, h) of a plane of bytes whose rows are srcStride apart from byte srcOff, to
 * outW x outH bytes from byte dstOff, rows dstStride apart; area when shrinking on both axes, bilinear otherwise.
 * Every range is re-checked here against the buffers' capacities. */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_plane0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong srcOff, jint srcStride, jint x, jint y, jint w, jint h,
    jobject dstBuf, jlong dstOff, jint dstStride, jint outW, jint outH) {
  (void)cls;
  unsigned char *src, *dst;
  jlong srcCap;
  /* the rows of the box: the plane's rows 0 .. y + h - 1 from srcOff, x + w bytes of each */
  if (x < 0 || y < 0 || w <= 0 || h <= 0
      || !plane_ranges(env, srcBuf, srcOff, srcStride, (jlong)y + h, (jlong)x + w, dstBuf, dstOff, dstStride, outW,
                       outH, &src, &srcCap, &dst)) {
    return RC_BAD_ARGUMENT;
  }
  if (w >= outW && h >= outH) {
    return area_resize(src, srcCap, srcOff + (jlong)y * srcStride + x, srcStride, 1, w, h, (double)w / outW,
                       (double)h / outH, 0, 0, outW, outH, dst + dstOff, (size_t)dstStride, NULL, NULL);
  }
  return bilinear_resize(src + srcOff + (jlong)y * srcStride + x, srcStride, 1, w, h, outW, outH, dst + dstOff,
                         (size_t)dstStride, NULL, NULL);
}

/* Resizer.areaPlane: the whole w x h plane from srcOff shrunk by the given scales; every window starts inside the
 * plane (area_taps refuses an empty one), one past the far edge is averaged over what is left */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_areaPlane0(
    JNIEnv *env, jclass cls, jobject srcBuf, jlong srcOff, jint srcStride, jint w, jint h, jdouble sx, jdouble sy,
    jobject dstBuf, jlong dstOff, jint dstStride, jint outW, jint outH) {
  (void)cls;
  unsigned char *src, *dst;
  jlong srcCap;
  if (w <= 0 || h <= 0
      || !plane_ranges(env, srcBuf, srcOff, srcStride, h, w, dstBuf, dstOff, dstStride, outW, outH, &src, &srcCap,
                       &dst)) {
    return RC_BAD_ARGUMENT;
  }
  return area_resize(src, srcCap, srcOff, srcStride, 1, w, h, sx, sy, 0, 0, outW, outH, dst + dstOff,
                     (size_t)dstStride, NULL, NULL);
}
