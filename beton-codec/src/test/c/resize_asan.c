/*
 * The native resize under AddressSanitizer and UBSan, outside the JVM: random boxes, sizes, strides and offsets
 * through the three JNI entry points (RGB area and bilinear, plane), each with source and destination buffers
 * malloc'd to exactly the bytes the call may touch, on the default (AVX-512 where the CPU has it), the AVX2 and
 * the SSE2 paths. Any read or write past them
 * (an intermediate row's padding too short, a SIMD tail store too long) stops the run with a report. Not part of
 * the Maven build (it needs a sanitizer-enabled gcc); run it after changing resize.c or the resize_*.c passes:
 *
 *   cd beton-codec/src/main/c && J=$(dirname $(dirname $(readlink -f $(which javac)))) &&
 *   gcc -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -ffp-contract=off -Wall -I$J/include \
 *       -I$J/include/linux -I. ../../test/c/resize_asan.c resize.c resize_[a-z]*.c -o /tmp/resize_asan -lm &&
 *   /tmp/resize_asan
 *
 * (add -U__SSE2__ for the scalar loops). A fake JNIEnv answers the two calls the entry points make.
 */
#include "betoncodec.h"

typedef struct {
  void *addr;
  jlong cap;
} fake_buffer;

static void *JNICALL buffer_address(JNIEnv *env, jobject b) {
  (void)env;
  return ((fake_buffer *)b)->addr;
}

static jlong JNICALL buffer_capacity(JNIEnv *env, jobject b) {
  (void)env;
  return ((fake_buffer *)b)->cap;
}

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_plane0(JNIEnv *, jclass, jobject, jlong, jint, jint,
                                                                        jint, jint, jint, jobject, jlong, jint, jint,
                                                                        jint);
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_area0(JNIEnv *, jclass, jobject, jlong, jint, jint,
                                                                       jint, jdouble, jdouble, jint, jint, jint, jint,
                                                                       jobject, jlong, jintArray, jintArray);
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_bilinear0(JNIEnv *, jclass, jobject, jlong, jint,
                                                                           jint, jint, jint, jint, jint, jint, jobject,
                                                                           jlong, jintArray, jintArray);
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_sse2Only0(JNIEnv *, jclass, jboolean);
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_avx2Only0(JNIEnv *, jclass, jboolean);

/* a buffer of exactly n random bytes */
static fake_buffer random_buffer(long n) {
  fake_buffer b = {malloc((size_t)n), n};
  for (long k = 0; k < n; k++) {
    ((unsigned char *)b.addr)[k] = (unsigned char)rand();
  }
  return b;
}

int main(void) {
  struct JNINativeInterface_ fns;
  memset(&fns, 0, sizeof fns);
  fns.GetDirectBufferAddress = buffer_address;
  fns.GetDirectBufferCapacity = buffer_capacity;
  const struct JNINativeInterface_ *table = &fns;
  JNIEnv *env = (JNIEnv *)&table;
  srand(7);
  long calls = 0, failed = 0;
  /* path 0: the default (AVX-512 where the CPU has it), 1: capped at AVX2, 2: SSE2 */
  for (int path = 0; path < 3; path++) {
    Java_org_sparkbeton_codec_resize_Resizer_avx2Only0(env, NULL, (jboolean)(path == 1));
    Java_org_sparkbeton_codec_resize_Resizer_sse2Only0(env, NULL, (jboolean)(path == 2));
    for (int i = 0; i < 4000; i++) {
      /* every third box wide enough for many SIMD blocks; half the outputs shrink (area), half bilinear */
      int w = 1 + rand() % (i % 3 == 0 ? 700 : 70), h = 1 + rand() % 60;
      int outW = i % 2 ? 1 + rand() % w : 1 + rand() % 300, outH = i % 2 ? 1 + rand() % h : 1 + rand() % 40;
      int x = rand() % 5, y = rand() % 3;
      long srcOff = rand() % 3, dstOff = rand() % 3;
      /* a plane: rows up to 3 bytes wider than the box on both sides */
      int srcStride = x + w + rand() % 4, dstStride = outW + rand() % 4;
      fake_buffer src = random_buffer(srcOff + (long)(y + h - 1) * srcStride + x + w);
      fake_buffer dst = random_buffer(dstOff + (long)(outH - 1) * dstStride + outW);
      failed += Java_org_sparkbeton_codec_resize_Resizer_plane0(env, NULL, (jobject)&src, srcOff, srcStride, x, y, w, h,
                                                                (jobject)&dst, dstOff, dstStride, outW, outH) != 0;
      calls++;
      free(src.addr);
      free(dst.addr);
      /* packed RGB */
      int rgbStride = (x + w) * 3 + rand() % 4;
      fake_buffer rgb = random_buffer(srcOff + (long)(y + h - 1) * rgbStride + (x + w) * 3);
      fake_buffer out = random_buffer(dstOff + (long)outW * outH * 3);
      if (w >= outW && h >= outH) {
        failed += Java_org_sparkbeton_codec_resize_Resizer_area0(
                      env, NULL, (jobject)&rgb, srcOff + (long)y * rgbStride + x * 3, rgbStride, w, h, (double)w / outW,
                      (double)h / outH, 0, 0, outW, outH, (jobject)&out, dstOff, NULL, NULL) != 0;
      } else {
        failed += Java_org_sparkbeton_codec_resize_Resizer_bilinear0(env, NULL, (jobject)&rgb, srcOff, rgbStride, x, y,
                                                                     w, h, outW, outH, (jobject)&out, dstOff, NULL,
                                                                     NULL) != 0;
      }
      calls++;
      free(rgb.addr);
      free(out.addr);
    }
  }
  printf("%ld calls, %ld returned an error code\n", calls, failed);
  return failed != 0;
}
