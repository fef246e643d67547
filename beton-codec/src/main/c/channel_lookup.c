#include "betoncodec.h"

/*
 * Native twin of org.sparkbeton.codec.pixels.ChannelLookup: each byte of a packed RGB image replaced by
 * its channel's table entry (1, 2 or 4 bytes: uint8, float16 or float32 bits), written interleaved
 * ([H, W, 3]) or as three planes ([3, H, W]). Pure table lookups and stores, so the result is exactly the
 * Java loop's. Buffers and the table are checked before anything is read or written.
 */

#define LOOKUP_LOOP(T)                                                                                          \
  do {                                                                                                         \
    const T *t0 = (const T *)table, *t1 = t0 + 256, *t2 = t0 + 512;                                            \
    if (planar) {                                                                                              \
      unsigned char *p0 = out, *p1 = out + (size_t)pixels * sizeof(T), *p2 = out + 2 * (size_t)pixels * sizeof(T); \
      jlong i = 0;                                                                                             \
      /* 4 pixels from three 4-byte loads, one store per plane: half the memory operations of the plain loop */ \
      for (; i + 4 <= pixels; i += 4) {                                                                        \
        uint32_t w0, w1, w2; /* R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3 (little-endian) */                      \
        memcpy(&w0, in + 3 * i, 4);                                                                            \
        memcpy(&w1, in + 3 * i + 4, 4);                                                                        \
        memcpy(&w2, in + 3 * i + 8, 4);                                                                        \
        T r[4] = {t0[w0 & 255], t0[w0 >> 24], t0[(w1 >> 16) & 255], t0[(w2 >> 8) & 255]};                     \
        T g[4] = {t1[(w0 >> 8) & 255], t1[w1 & 255], t1[w1 >> 24], t1[(w2 >> 16) & 255]};                     \
        T b[4] = {t2[(w0 >> 16) & 255], t2[(w1 >> 8) & 255], t2[w2 & 255], t2[w2 >> 24]};                      \
        memcpy(p0 + i * sizeof(T), r, sizeof(r));                                                              \
        memcpy(p1 + i * sizeof(T), g, sizeof(g));                                                              \
        memcpy(p2 + i * sizeof(T), b, sizeof(b));                                                              \
      }                                                                                                        \
      for (; i < pixels; i++) {                                                                                \
        const unsigned char *s = in + 3 * i;                                                                   \
        T a = t0[s[0]], b = t1[s[1]], c = t2[s[2]];                                                            \
        memcpy(p0 + i * sizeof(T), &a, sizeof(T));                                                             \
        memcpy(p1 + i * sizeof(T), &b, sizeof(T));                                                             \
        memcpy(p2 + i * sizeof(T), &c, sizeof(T));                                                             \
      }                                                                                                        \
    } else {                                                                                                   \
      jlong i = 0;                                                                                             \
      for (; i + 4 <= pixels; i += 4) {                                                                        \
        uint32_t w0, w1, w2;                                                                                   \
        memcpy(&w0, in + 3 * i, 4);                                                                            \
        memcpy(&w1, in + 3 * i + 4, 4);                                                                        \
        memcpy(&w2, in + 3 * i + 8, 4);                                                                        \
        T v[12] = {t0[w0 & 255], t1[(w0 >> 8) & 255], t2[(w0 >> 16) & 255], t0[w0 >> 24],                      \
                   t1[w1 & 255], t2[(w1 >> 8) & 255], t0[(w1 >> 16) & 255], t1[w1 >> 24],                      \
                   t2[w2 & 255], t0[(w2 >> 8) & 255], t1[(w2 >> 16) & 255], t2[w2 >> 24]};                     \
        memcpy(out + 3 * i * sizeof(T), v, sizeof(v));                                                         \
      }                                                                                                        \
      for (; i < pixels; i++) {                                                                                \
        const unsigned char *s = in + 3 * i;                                                                   \
        T v[3] = {t0[s[0]], t1[s[1]], t2[s[2]]};                                                               \
        memcpy(out + 3 * i * sizeof(T), v, sizeof(v));                                                         \
      }                                                                                                        \
    }                                                                                                          \
  } while (0)

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_pixels_ChannelLookup_apply0(
    JNIEnv *env, jclass cls, jobject inBuf, jlong inOff, jlong pixels, jarray tableArray, jint elemSize,
    jboolean planar, jobject outBuf, jlong outOff) {
  (void)cls;
  unsigned char *inBase = (*env)->GetDirectBufferAddress(env, inBuf);
  unsigned char *outBase = (*env)->GetDirectBufferAddress(env, outBuf);
  jlong inCap = (*env)->GetDirectBufferCapacity(env, inBuf);
  jlong outCap = (*env)->GetDirectBufferCapacity(env, outBuf);
  if (inBase == NULL || outBase == NULL || inCap < 0 || outCap < 0 || tableArray == NULL || pixels < 0
      || inOff < 0 || outOff < 0 || (elemSize != 1 && elemSize != 2 && elemSize != 4)
      || pixels > (inCap - inOff) / 3 || pixels > (outCap - outOff) / (3 * (jlong)elemSize)
      || (*env)->GetArrayLength(env, tableArray) != 3 * 256) {
    return RC_BAD_ARGUMENT;
  }
  const unsigned char *in = inBase + inOff;
  unsigned char *out = outBase + outOff;
  /* a few microseconds per image: short enough to hold the array without a copy */
  void *table = (*env)->GetPrimitiveArrayCritical(env, tableArray, NULL);
  if (table == NULL) {
    return RC_NO_MEMORY;
  }
  switch (elemSize) {
    case 1: LOOKUP_LOOP(uint8_t); break;
    case 2: LOOKUP_LOOP(uint16_t); break;
    default: LOOKUP_LOOP(uint32_t); break;
  }
  (*env)->ReleasePrimitiveArrayCritical(env, tableArray, table, JNI_ABORT);
  return 0;
}
