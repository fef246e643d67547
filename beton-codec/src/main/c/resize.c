#include "betoncodec.h"

/*
 * Native twin of org.sparkbeton.codec.resize.Resizer. The arithmetic is the Java code's, operation for
 * operation (double tables, float accumulation in the same order, no FMA contraction on x86-64 without
 * -mfma), so both produce identical bytes; ResizerTest checks that.
 */
static unsigned char clamp_px(float v) {
  int i = (int)(v + 0.5f);
  return (unsigned char)(i < 0 ? 0 : (i > 255 ? 255 : i));
}

/* v += wy * row, vectorized like blend_rows below */
__attribute__((optimize("vect-cost-model=dynamic")))
static void accumulate_row(const unsigned char *restrict row, float wy, float *restrict v, int n) {
  for (int i = 0; i < n; i++) {
    v[i] += wy * row[i];
  }
}

/* area window: output [outX, outX+outW) x [outY, outY+outH) of resizing w x h by (sx, sy); global source
 * pixel (0, 0) is at byte `base` of src, which is range-checked for every row and column touched. */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_area0(
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
  int taps = (int)sx + 3;
  size_t max = (size_t)outW * (size_t)taps;
  int *xIdx = malloc(max * sizeof(int));
  float *xW = malloc(max * sizeof(float));
  int *xStart = malloc(((size_t)outW + 1) * sizeof(int));
  int rc = 0;
  if (xIdx == NULL || xW == NULL || xStart == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  int k = 0;
  for (int ox = 0; ox < outW; ox++) {
    double f0 = (outX + ox) * sx;
    double f1 = (outX + ox + 1) * sx;
    int i0 = (int)f0;
    double e = ceil(f1 - 1e-9);
    int i1 = e < w ? (int)e : w;
    xStart[ox] = k;
    for (int i = i0; i < i1; i++) {
      double lo = f0 > i ? f0 : i;
      double hi = f1 < i + 1 ? f1 : i + 1;
      double cover = hi - lo;
      if (cover > 1e-9) {
        if ((size_t)k >= max) {
          rc = RC_BAD_ARGUMENT;
          goto done;
        }
        xIdx[k] = i * 3;
        xW[k] = (float)(cover / sx);
        k++;
      }
    }
  }
  xStart[outW] = k;
  if (k == 0) {
    rc = RC_BAD_ARGUMENT;
    goto done;
  }
  int c0 = xIdx[0];
  int c1 = xIdx[k - 1] + 3;
  /* rows touched */
  int rFirst = (int)(outY * sy);
  double eLast = ceil((outY + outH) * sy - 1e-9);
  int rLast = eLast < h ? (int)eLast : h;
  if (base + (jlong)rFirst * stride + c0 < 0 || base + (jlong)(rLast - 1) * stride + c1 > srcCap) {
    rc = RC_BAD_ARGUMENT;
    goto done;
  }
  unsigned char *out = dst + dstOff;
  int rowLen = c1 - c0;
  float *v = malloc((size_t)rowLen * sizeof(float));
  if (v == NULL) {
    rc = RC_NO_MEMORY;
    goto done;
  }
  for (int oy = outY; oy < outY + outH; oy++) {
    double f0 = oy * sy;
    double f1 = (oy + 1) * sy;
    int r0 = (int)f0;
    double e = ceil(f1 - 1e-9);
    int r1 = e < h ? (int)e : h;
    memset(v, 0, (size_t)rowLen * sizeof(float));
    for (int r = r0; r < r1; r++) {
      double lo = f0 > r ? f0 : r;
      double hi = f1 < r + 1 ? f1 : r + 1;
      double cover = hi - lo;
      if (cover <= 1e-9) {
        continue;
      }
      accumulate_row(src + base + (jlong)r * stride + c0, (float)(cover / sy), v, rowLen);
    }
    for (int ox = 0; ox < outW; ox++) {
      float cr = 0, cg = 0, cb = 0;
      for (int t = xStart[ox]; t < xStart[ox + 1]; t++) {
        const float *p = v + (xIdx[t] - c0);
        float wx = xW[t];
        cr += wx * p[0];
        cg += wx * p[1];
        cb += wx * p[2];
      }
      out[ox * 3] = clamp_px(cr);
      out[ox * 3 + 1] = clamp_px(cg);
      out[ox * 3 + 2] = clamp_px(cb);
    }
    out += (size_t)outW * 3;
  }
  free(v);
done:
  free(xIdx);
  free(xW);
  free(xStart);
  return rc;
}

/* v = a + ay * (b - a); -O2's very cheap vectorizer cost model skips the byte-to-float widening, so ask for
 * the dynamic one here (SSE2 only, no FMA: the result stays bit-identical to Java's) */
__attribute__((optimize("vect-cost-model=dynamic")))
static void blend_rows(const unsigned char *restrict a, const unsigned char *restrict b, float ay,
                       float *restrict v, int n) {
  for (int i = 0; i < n; i++) {
    int ta = a[i];
    v[i] = ta + ay * (b[i] - ta);
  }
}

/* bilinear, OpenCV half-pixel centres; box (x, y, w, h) of src rows `stride` apart from byte srcOff */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_bilinear0(
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
  float *v = malloc((size_t)rowLen * sizeof(float));
  if (idx == NULL || ax == NULL || v == NULL) {
    free(idx);
    free(ax);
    free(v);
    return RC_NO_MEMORY;
  }
  for (int ox = 0; ox < outW; ox++) {
    double fx = (ox + 0.5) * sx - 0.5;
    int x0 = (int)floor(fx);
    float a = (float)(fx - x0);
    if (x0 < 0) {
      x0 = 0;
      a = 0;
    }
    if (x0 >= w - 1) {
      x0 = w - 1;
      a = 0;
    }
    idx[2 * ox] = x0 * 3;
    idx[2 * ox + 1] = (x0 + 1 < w - 1 ? x0 + 1 : w - 1) * 3;
    ax[ox] = a;
  }
  const unsigned char *box = src + srcOff + (jlong)y * stride + (jlong)x * 3;
  unsigned char *out = dst + dstOff;
  for (int oy = 0; oy < outH; oy++) {
    double fy = (oy + 0.5) * sy - 0.5;
    int y0 = (int)floor(fy);
    float ay = (float)(fy - y0);
    if (y0 < 0) {
      y0 = 0;
      ay = 0;
    }
    if (y0 >= h - 1) {
      y0 = h - 1;
      ay = 0;
    }
    int y1 = y0 + 1 < h - 1 ? y0 + 1 : h - 1;
    const unsigned char *a = box + (jlong)y0 * stride;
    const unsigned char *b = box + (jlong)y1 * stride;
    /* vertical blend of the two rows first, then horizontal per output pixel (the Java order) */
    blend_rows(a, b, ay, v, rowLen);
    for (int ox = 0; ox < outW; ox++) {
      int p0 = idx[2 * ox], p1 = idx[2 * ox + 1];
      float wx = ax[ox];
      for (int c = 0; c < 3; c++) {
        float l = v[p0 + c];
        out[ox * 3 + c] = clamp_px(l + wx * (v[p1 + c] - l));
      }
    }
    out += (size_t)outW * 3;
  }
  free(idx);
  free(ax);
  free(v);
  return 0;
}
