/*
 * Which SIMD paths the resize passes take: SSE2 on every x86-64, AVX2 where the CPU has it, and for the RGB
 * horizontal pass AVX-512 (BW, VL, VNNI; on 256-bit vectors) where the CPU has that (chosen per call;
 * Resizer.sse2Only and Resizer.avx2Only cap the path for tests), scalar loops computing the same integers
 * elsewhere.
 */
#include "betoncodec.h"
#include "resize_passes.h"

#ifdef RESIZE_SSE2
/* set by tests (Resizer.sse2Only) to run the SSE2 paths on an AVX2 machine */
static volatile int sse2_only = 0;
/* set by tests (Resizer.avx2Only) to run the AVX2 paths on an AVX-512 machine */
static volatile int avx2_only = 0;

static int has_avx2(void) {
  __builtin_cpu_init(); /* idempotent; needed before constructors have run */
  return !sse2_only && __builtin_cpu_supports("avx2");
}

#endif

int resize_avx2(void) {
#ifdef RESIZE_SSE2
  return has_avx2();
#else
  return 0;
#endif
}

int resize_avx512(void) {
#ifdef RESIZE_SSE2
  return has_avx2() && !avx2_only && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
         && __builtin_cpu_supports("avx512vnni");
#else
  return 0;
#endif
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

/* tests only: 1 keeps the resize off its AVX-512 paths even where the CPU has AVX-512; returns 1 if that changes
 * anything here (an x86-64 build) */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_resize_Resizer_avx2Only0(JNIEnv *env, jclass cls, jboolean on) {
  (void)env;
  (void)cls;
#ifdef RESIZE_SSE2
  avx2_only = on ? 1 : 0;
  return 1;
#else
  (void)on;
  return 0;
#endif
}
