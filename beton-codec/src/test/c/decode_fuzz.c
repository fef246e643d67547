/*
 * libFuzzer target for the JNI decode entry points of NativeJpegCodec (probe0, decode0, decodePlanes0), under
 * AddressSanitizer and UBSan, outside the JVM. Optional: not part of the Maven build and not run by the test suite.
 * Run it after changing betoncodec.c or jpeg_planes.c. It needs clang and its fuzzer runtime (Debian: clang,
 * libclang-rt-14-dev) and libjpeg-turbo's headers and library (libjpeg62-turbo-dev, the same 2.1.5 release the
 * native build links in statically):
 *
 *   cd beton-codec/src/main/c && J=$(dirname $(dirname $(readlink -f $(which javac)))) &&
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$J/include -I$J/include/linux \
 *       -I. ../../test/c/decode_fuzz.c betoncodec.c jpeg_planes.c jpeg_encode.c -o /tmp/decode_fuzz -ljpeg &&
 *   mkdir -p /tmp/decode_fuzz_corpus && cp ../../test/resources/photos/[a-z]*.jpg /tmp/decode_fuzz_corpus/ &&
 *   /tmp/decode_fuzz -max_len=300000 -rss_limit_mb=3000 -max_total_time=600 /tmp/decode_fuzz_corpus
 *
 * Debian's libjpeg is not instrumented: the fuzzer sees the coverage of our files only, and ASan checks libjpeg's own
 * writes into our buffers only where they go through memcpy. For both, build libjpeg-turbo with the sanitizers from
 * the source the native build keeps in its cache (without SIMD, whose assembly ASan cannot see into), and link it in
 * place of -ljpeg:
 *
 *   mkdir -p /tmp/ljt && tar xzf ~/.cache/spark-beton/downloads/libjpeg-turbo_2.1.5.orig.tar.gz -C /tmp/ljt &&
 *   CC=clang CFLAGS="-g -O1 -fsanitize=address,undefined,fuzzer-no-link" cmake -S /tmp/ljt/libjpeg-turbo-2.1.5 \
 *       -B /tmp/ljt/build -DENABLE_SHARED=OFF -DWITH_SIMD=OFF -DWITH_TURBOJPEG=OFF -DCMAKE_BUILD_TYPE=None &&
 *   make -C /tmp/ljt/build jpeg-static
 *
 * then, in the clang line above, -I/tmp/ljt/build -I/tmp/ljt/libjpeg-turbo-2.1.5 before -I. and /tmp/ljt/build/libjpeg.a
 * instead of -ljpeg.
 *
 * Every input is a JPEG; its last byte (when the input is longer than one byte) chooses the call: which entry
 * point, strict or lenient (FLAG_STRICT), the IDCT, padded rows, the scale, a crop box, a heap array or a direct
 * buffer on either side, and a destination one byte too small now and then. Destinations are malloc'd to exactly
 * the capacity the entry point is told, so a write past it stops the run with a report; one codec handle serves
 * every input, as one Java thread's codec does, so state a failed decode leaves behind is exercised too. A fake
 * JNIEnv answers the JNI calls the entry points make; a Get/Set*ArrayRegion outside its array aborts (the JVM would
 * throw ArrayIndexOutOfBoundsException from C).
 */
#include "betoncodec.h"

#include <stdbool.h>

typedef struct {
  void *addr;
  jlong cap;
} fake_buffer;

typedef struct {
  void *data;
  jsize len;
  size_t elem;
} fake_array;

static void *JNICALL buffer_address(JNIEnv *env, jobject b) {
  (void)env;
  return ((fake_buffer *)b)->addr;
}

static jlong JNICALL buffer_capacity(JNIEnv *env, jobject b) {
  (void)env;
  return ((fake_buffer *)b)->cap;
}

static jsize JNICALL array_length(JNIEnv *env, jarray a) {
  (void)env;
  return ((fake_array *)a)->len;
}

static void *region(jarray a, jsize start, jsize len) {
  fake_array *f = (fake_array *)a;
  if (start < 0 || len < 0 || (long long)start + len > f->len) {
    fprintf(stderr, "array region [%d, %lld) outside an array of %d\n", start, (long long)start + len, f->len);
    abort();
  }
  return (char *)f->data + (size_t)start * f->elem;
}

static void JNICALL get_bytes(JNIEnv *env, jbyteArray a, jsize start, jsize len, jbyte *buf) {
  (void)env;
  memcpy(buf, region(a, start, len), (size_t)len);
}

static void JNICALL set_bytes(JNIEnv *env, jbyteArray a, jsize start, jsize len, const jbyte *buf) {
  (void)env;
  memcpy(region(a, start, len), buf, (size_t)len);
}

static void JNICALL set_ints(JNIEnv *env, jintArray a, jsize start, jsize len, const jint *buf) {
  (void)env;
  memcpy(region(a, start, len), buf, (size_t)len * sizeof(jint));
}

JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_create0(JNIEnv *, jclass);
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_probe0(JNIEnv *, jclass, jlong, jobject,
                                                                            jbyteArray, jint, jint, jintArray);
JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0(JNIEnv *, jclass, jlong, jobject,
                                                                             jbyteArray, jint, jint, jint, jint, jint,
                                                                             jint, jint, jint, jobject, jbyteArray,
                                                                             jint, jintArray);
JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decodePlanes0(JNIEnv *, jclass, jlong,
                                                                                   jobject, jbyteArray, jint, jint,
                                                                                   jint, jint, jobject, jbyteArray,
                                                                                   jint, jintArray);

/* the destinations the fuzzer allocates: enough for a 4096 x 4096 decode, the largest the writer decodes whole
 * in practice; a larger image is asked for at a smaller scale or gets a destination that is too small */
#define MAX_DESTINATION ((size_t)4096 * 4096 * 3)

static struct JNINativeInterface_ fns;
static const struct JNINativeInterface_ *table = &fns;
static JNIEnv *env;
static jlong handle;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fns.GetDirectBufferAddress = buffer_address;
  fns.GetDirectBufferCapacity = buffer_capacity;
  fns.GetArrayLength = array_length;
  fns.GetByteArrayRegion = get_bytes;
  fns.SetByteArrayRegion = set_bytes;
  fns.SetIntArrayRegion = set_ints;
  env = (JNIEnv *)&table;
  handle = Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_create0(env, NULL);
  if (handle == 0) {
    abort();
  }
  return 0;
}

/* the source: the JPEG bytes copied into an allocation of exactly their size, as a direct buffer or a heap array
 * with a leading offset */
typedef struct {
  fake_buffer buf;
  fake_array arr;
  unsigned char *mem;
  jint off;
  bool direct;
} source_arg;

static source_arg make_source(const uint8_t *jpeg, size_t n, bool direct, jint off) {
  source_arg s = {0};
  s.mem = malloc(n + (size_t)off + 1);
  memset(s.mem, 0x5a, (size_t)off);
  memcpy(s.mem + off, jpeg, n);
  s.direct = direct;
  s.off = off;
  s.buf = (fake_buffer){s.mem, (jlong)(n + (size_t)off)};
  s.arr = (fake_array){s.mem, (jsize)(n + (size_t)off), 1};
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || size > (size_t)INT32_MAX / 2) {
    return 0;
  }
  uint8_t ctl = data[size - 1];
  size_t n = size - 1;
  bool direct = ctl & 1;
  jint flags = ((ctl & 2) ? FLAG_STRICT : 0) | ((ctl & 4) ? FLAG_ACCURATE_IDCT : 0) | ((ctl & 8) ? FLAG_PADDED_ROWS : 0);
  jint scale = (jint)1 << ((ctl >> 4) & 3); /* 1, 2, 4 or 8 eighths */
  bool crop = ctl & 0x40, shortDst = ctl & 0x80;
  source_arg src = make_source(data, n, direct, direct ? 0 : (jint)(ctl & 3));

  jint probeOut[6];
  fake_array probeArr = {probeOut, 6, sizeof(jint)};
  jobject srcBuf = direct ? (jobject)&src.buf : NULL;
  jbyteArray srcArr = direct ? NULL : (jbyteArray)&src.arr;
  jint rc = Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_probe0(env, NULL, handle, srcBuf, srcArr, src.off, (jint)n,
                                                                  (jintArray)&probeArr);
  if (rc < 0) {
    free(src.mem);
    return 0;
  }
  long long w = probeOut[0], h = probeOut[1];
  long long sw = (w * scale + 7) / 8, sh = (h * scale + 7) / 8;
  jint x = 0, y = 0, bw = 0, bh = 0;
  if (crop && w > 2 && h > 2) {
    /* a box from the header's own numbers: a third of the image, starting at its middle */
    x = (jint)(w / 2), y = (jint)(h / 2), bw = (jint)(w / 3), bh = (jint)(h / 3);
    sw = ((long long)(x + bw) * scale + 7) / 8 - (long long)x * scale / 8;
    sh = ((long long)(y + bh) * scale + 7) / 8 - (long long)y * scale / 8;
  }
  /* whole planes and padded rows need at most the RGB size (padding adds up to an iMCU column each side) */
  size_t need = (size_t)(sw + 32) * (size_t)(sh + 32) * 3;
  size_t cap = need > MAX_DESTINATION ? MAX_DESTINATION : need;
  if (shortDst && cap > 0) {
    cap = (size_t)(sw * sh * 3 > 0 ? sw * sh * 3 - 1 : 0);
    if (cap > MAX_DESTINATION) {
      cap = MAX_DESTINATION;
    }
  }
  unsigned char *dstMem = malloc(cap > 0 ? cap : 1);
  fake_buffer dstBuf = {dstMem, (jlong)cap};
  fake_array dstArr = {dstMem, (jsize)cap, 1};
  jobject db = direct ? (jobject)&dstBuf : NULL;
  jbyteArray da = direct ? NULL : (jbyteArray)&dstArr;
  jint out[4];
  fake_array outArr = {out, 4, sizeof(jint)};
  if (ctl & 8 && !crop) {
    Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decodePlanes0(env, NULL, handle, srcBuf, srcArr, src.off, (jint)n,
                                                                 scale, flags & ~FLAG_PADDED_ROWS, db, da, 0,
                                                                 (jintArray)&outArr);
  } else {
    Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0(env, NULL, handle, srcBuf, srcArr, src.off, (jint)n, x, y,
                                                           bw, bh, scale, flags, db, da, 0, (jintArray)&outArr);
  }
  free(dstMem);
  free(src.mem);
  return 0;
}
