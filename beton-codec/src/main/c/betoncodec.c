/*
 * JNI glue between org.sparkbeton.codec.jpeg.NativeJpegCodec and the libjpeg API of libjpeg-turbo.
 *
 * Rules this file follows:
 *  - libjpeg's default error handler calls exit(); ours longjmps back and returns a negative code, with
 *    the message kept in the handle for Java to read (lastError0).
 *  - Nothing from Java is trusted: every offset/length is re-checked against GetDirectBufferCapacity or
 *    GetArrayLength before memory is touched.
 *  - No JNI critical sections: heap arrays are copied in/out with Get/SetByteArrayRegion.
 *  - Only Java_* symbols are exported (-fvisibility=hidden, libjpeg linked with --exclude-libs).
 */
#include <jni.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <jpeglib.h>
#include <jerror.h>

#define RC_LIBJPEG        -1 /* libjpeg reported an error; message in handle */
#define RC_BAD_ARGUMENT   -2 /* a bound check failed; message in handle */
#define RC_NO_MEMORY      -3
#define RC_DST_TOO_SMALL  -4
#define RC_UNSUPPORTED    -5

#define FLAG_ACCURATE_IDCT 1

/* decoded-size guard: refuse to allocate row buffers for absurd widths */
#define MAX_DIMENSION 65500
/* scanlines asked of libjpeg per jpeg_read_scanlines call */
#define ROWS_PER_READ 4
/* libjpeg working memory per decode (a 16k x 16k progressive 4:2:0 image needs ~800 MB) */
#define MAX_LIBJPEG_MEMORY (1024L * 1024L * 1024L)

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX + 64];
} error_mgr;

typedef struct {
  struct jpeg_destination_mgr pub;
  JOCTET *buffer;
  size_t capacity;
} fixed_dest;

typedef struct {
  struct jpeg_decompress_struct d;
  struct jpeg_compress_struct c;
  error_mgr derr;
  error_mgr cerr;
  unsigned char *input;   /* copy of a heap source array */
  size_t input_cap;
  unsigned char *row;     /* one scanline (crop window or CMYK) */
  size_t row_cap;
  unsigned char *row2;    /* RGB row when converting CMYK or writing to a heap array */
  size_t row2_cap;
  unsigned char *output;  /* encoder output when the destination is a heap array */
  size_t output_cap;
  char message[JMSG_LENGTH_MAX + 128];
} codec;

static void on_error(j_common_ptr cinfo) {
  error_mgr *err = (error_mgr *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

/* Warnings: a truncated stream is an error for us (libjpeg would pad it with grey); others are ignored. */
static void on_message(j_common_ptr cinfo, int level) {
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
    on_error(cinfo);
  }
}

static void no_output(j_common_ptr cinfo) {
  (void)cinfo;
}

static void set_message(codec *c, const char *msg) {
  snprintf(c->message, sizeof(c->message), "%s", msg);
}

static int ensure(unsigned char **buf, size_t *cap, size_t need) {
  if (*cap >= need) {
    return 1;
  }
  unsigned char *n = realloc(*buf, need);
  if (n == NULL) {
    return 0;
  }
  *buf = n;
  *cap = need;
  return 1;
}

JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_create0(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  codec *c = calloc(1, sizeof(codec));
  if (c == NULL) {
    return 0;
  }
  c->d.err = jpeg_std_error(&c->derr.pub);
  c->derr.pub.error_exit = on_error;
  c->derr.pub.emit_message = on_message;
  c->derr.pub.output_message = no_output;
  c->c.err = jpeg_std_error(&c->cerr.pub);
  c->cerr.pub.error_exit = on_error;
  c->cerr.pub.emit_message = on_message;
  c->cerr.pub.output_message = no_output;
  if (setjmp(c->derr.jump)) {
    free(c);
    return 0;
  }
  jpeg_create_decompress(&c->d);
  /* Bound libjpeg's own allocations (progressive coefficient buffers grow with the declared size): past
   * this it needs a backing store, which libjpeg-turbo lacks, so a lying header is an error, not 13 GB. */
  c->d.mem->max_memory_to_use = MAX_LIBJPEG_MEMORY;
  if (setjmp(c->cerr.jump)) {
    jpeg_destroy_decompress(&c->d);
    free(c);
    return 0;
  }
  jpeg_create_compress(&c->c);
  return (jlong)(intptr_t)c;
}

JNIEXPORT void JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_destroy0(JNIEnv *env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (c == NULL) {
    return;
  }
  jpeg_destroy_decompress(&c->d);
  jpeg_destroy_compress(&c->c);
  free(c->input);
  free(c->row);
  free(c->row2);
  free(c->output);
  free(c);
}

JNIEXPORT jstring JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_lastError0(JNIEnv *env, jclass cls, jlong handle) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  return (*env)->NewStringUTF(env, c == NULL ? "null handle" : c->message);
}

/*
 * Resolves (buffer | array, offset, length) into a readable pointer, copying heap arrays into the
 * handle's input buffer. Returns NULL with c->message set when the range is out of bounds.
 */
static const unsigned char *source(JNIEnv *env, codec *c, jobject buf, jbyteArray arr, jint off, jint len) {
  if (off < 0 || len < 0) {
    snprintf(c->message, sizeof(c->message), "source offset %d / length %d is negative", off, len);
    return NULL;
  }
  if (buf != NULL) {
    unsigned char *base = (*env)->GetDirectBufferAddress(env, buf);
    jlong cap = (*env)->GetDirectBufferCapacity(env, buf);
    if (base == NULL || cap < 0) {
      set_message(c, "source buffer is not a direct buffer");
      return NULL;
    }
    if ((jlong)off + (jlong)len > cap) {
      snprintf(c->message, sizeof(c->message), "source range [%d, %lld) exceeds buffer capacity %lld",
               off, (long long)off + len, (long long)cap);
      return NULL;
    }
    return base + off;
  }
  if (arr == NULL) {
    set_message(c, "no source buffer");
    return NULL;
  }
  jsize alen = (*env)->GetArrayLength(env, arr);
  if ((jlong)off + (jlong)len > alen) {
    snprintf(c->message, sizeof(c->message), "source range [%d, %lld) exceeds array length %d",
             off, (long long)off + len, (int)alen);
    return NULL;
  }
  if (!ensure(&c->input, &c->input_cap, len > 0 ? (size_t)len : 1)) {
    set_message(c, "out of memory copying the source");
    return NULL;
  }
  (*env)->GetByteArrayRegion(env, arr, off, len, (jbyte *)c->input);
  return c->input;
}

/* out: width, height, components, jpeg colour space, subsampling (TurboJPEG TJSAMP code or -1), progressive */
static int subsampling_code(j_decompress_ptr d) {
  if (d->num_components == 1 && d->jpeg_color_space == JCS_GRAYSCALE) {
    return 3; /* TJSAMP_GRAY */
  }
  if (d->num_components != 3 && d->num_components != 4) {
    return -1;
  }
  int h = d->comp_info[0].h_samp_factor, v = d->comp_info[0].v_samp_factor;
  for (int i = 1; i < 3; i++) { /* chroma; a K channel must match Y, checked below */
    if (d->comp_info[i].h_samp_factor != 1 || d->comp_info[i].v_samp_factor != 1) {
      return -1;
    }
  }
  if (d->num_components == 4 && (d->comp_info[3].h_samp_factor != h || d->comp_info[3].v_samp_factor != v)) {
    return -1;
  }
  if (h == 1 && v == 1) return 0; /* 4:4:4 */
  if (h == 2 && v == 1) return 1; /* 4:2:2 */
  if (h == 2 && v == 2) return 2; /* 4:2:0 */
  if (h == 1 && v == 2) return 4; /* 4:4:0 */
  if (h == 4 && v == 1) return 5; /* 4:1:1 */
  return -1;
}

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_probe0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen,
    jintArray out) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (out == NULL || (*env)->GetArrayLength(env, out) < 6) {
    set_message(c, "probe output array must hold 6 ints");
    return RC_BAD_ARGUMENT;
  }
  const unsigned char *src = source(env, c, srcBuf, srcArr, srcOff, srcLen);
  if (src == NULL) {
    return RC_BAD_ARGUMENT;
  }
  if (srcLen == 0) {
    set_message(c, "empty input (0 bytes)");
    return RC_LIBJPEG;
  }
  struct jpeg_decompress_struct *d = &c->d;
  if (setjmp(c->derr.jump)) {
    snprintf(c->message, sizeof(c->message), "%s", c->derr.message);
    jpeg_abort_decompress(d);
    return RC_LIBJPEG;
  }
  jpeg_mem_src(d, src, (unsigned long)srcLen);
  jpeg_read_header(d, TRUE);
  jint vals[6];
  vals[0] = (jint)d->image_width;
  vals[1] = (jint)d->image_height;
  vals[2] = d->num_components;
  vals[3] = d->jpeg_color_space;
  vals[4] = subsampling_code(d);
  vals[5] = d->progressive_mode ? 1 : 0;
  jpeg_abort_decompress(d);
  (*env)->SetIntArrayRegion(env, out, 0, 6, vals);
  return 0;
}

static void cmyk_to_rgb(const unsigned char *in, unsigned char *out, JDIMENSION n, int inverted) {
  for (JDIMENSION i = 0; i < n; i++) {
    unsigned int cc = in[4 * i], m = in[4 * i + 1], y = in[4 * i + 2], k = in[4 * i + 3];
    if (!inverted) {
      cc = 255 - cc;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    out[3 * i] = (unsigned char)((cc * k + 127) / 255);
    out[3 * i + 1] = (unsigned char)((m * k + 127) / 255);
    out[3 * i + 2] = (unsigned char)((y * k + 127) / 255);
  }
}

/*
 * Decodes the box [x, x+w) x [y, y+h) of the source image (source pixel coordinates; w == 0 means the
 * whole image) scaled by scaleNum/8 into dst as packed RGB rows. The box maps to the scaled image as
 * [floor(x*s), ceil((x+w)*s)) clipped to the scaled size, the same rule as JpegGeometry in Java.
 * Returns (outWidth << 32 | outHeight) or a negative code.
 */
JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen,
    jint x, jint y, jint w, jint h, jint scaleNum, jint flags,
    jobject dstBuf, jbyteArray dstArr, jint dstOff) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  const unsigned char *src = source(env, c, srcBuf, srcArr, srcOff, srcLen);
  if (src == NULL) {
    return RC_BAD_ARGUMENT;
  }
  if (srcLen == 0) {
    set_message(c, "empty input (0 bytes)");
    return RC_LIBJPEG;
  }
  if (scaleNum < 1 || scaleNum > 16 || x < 0 || y < 0 || w < 0 || h < 0 || dstOff < 0) {
    snprintf(c->message, sizeof(c->message), "bad decode arguments: box %d,%d %dx%d scale %d/8 offset %d",
             x, y, w, h, scaleNum, dstOff);
    return RC_BAD_ARGUMENT;
  }
  jlong dstCap;
  unsigned char *dst = NULL;
  if (dstBuf != NULL) {
    dst = (*env)->GetDirectBufferAddress(env, dstBuf);
    dstCap = (*env)->GetDirectBufferCapacity(env, dstBuf);
    if (dst == NULL || dstCap < 0) {
      set_message(c, "destination buffer is not a direct buffer");
      return RC_BAD_ARGUMENT;
    }
  } else if (dstArr != NULL) {
    dstCap = (*env)->GetArrayLength(env, dstArr);
  } else {
    set_message(c, "no destination buffer");
    return RC_BAD_ARGUMENT;
  }

  struct jpeg_decompress_struct *d = &c->d;
  if (setjmp(c->derr.jump)) {
    snprintf(c->message, sizeof(c->message), "%s", c->derr.message);
    jpeg_abort_decompress(d);
    return RC_LIBJPEG;
  }
  jpeg_mem_src(d, src, (unsigned long)srcLen);
  jpeg_read_header(d, TRUE);
  if (w == 0 && h == 0) {
    w = (jint)d->image_width;
    h = (jint)d->image_height;
  }
  if ((unsigned long)x + (unsigned long)w > d->image_width || (unsigned long)y + (unsigned long)h > d->image_height
      || w == 0 || h == 0) {
    snprintf(c->message, sizeof(c->message), "crop box %d,%d %dx%d is outside the %ux%u image",
             x, y, w, h, d->image_width, d->image_height);
    jpeg_abort_decompress(d);
    return RC_BAD_ARGUMENT;
  }
  int cmyk = d->jpeg_color_space == JCS_CMYK || d->jpeg_color_space == JCS_YCCK;
  int inverted = cmyk && d->saw_Adobe_marker;
  d->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGB;
  d->scale_num = (unsigned int)scaleNum;
  d->scale_denom = 8;
  d->dct_method = (flags & FLAG_ACCURATE_IDCT) ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(d);
  if (d->output_width > MAX_DIMENSION || d->output_height > MAX_DIMENSION) {
    snprintf(c->message, sizeof(c->message), "image too large: %ux%u at scale %d/8",
             d->output_width, d->output_height, scaleNum);
    jpeg_abort_decompress(d);
    return RC_UNSUPPORTED;
  }
  /* box in scaled coordinates */
  uint64_t sx0 = (uint64_t)x * (uint64_t)scaleNum / 8, sy0 = (uint64_t)y * (uint64_t)scaleNum / 8;
  uint64_t sx1 = ((uint64_t)(x + w) * (uint64_t)scaleNum + 7) / 8, sy1 = ((uint64_t)(y + h) * (uint64_t)scaleNum + 7) / 8;
  if (sx1 > d->output_width) sx1 = d->output_width;
  if (sy1 > d->output_height) sy1 = d->output_height;
  JDIMENSION ow = (JDIMENSION)(sx1 - sx0), oh = (JDIMENSION)(sy1 - sy0);
  size_t need = (size_t)ow * (size_t)oh * 3;
  if ((jlong)dstOff + (jlong)need > dstCap) {
    snprintf(c->message, sizeof(c->message), "destination too small: need %zu bytes at offset %d, capacity %lld",
             need, dstOff, (long long)dstCap);
    jpeg_abort_decompress(d);
    return RC_DST_TOO_SMALL;
  }
  if (dst != NULL) {
    dst += dstOff;
  }
  jpeg_start_decompress(d);
  JDIMENSION xoff = (JDIMENSION)sx0, cw = ow;
  if (cw < d->output_width) {
    jpeg_crop_scanline(d, &xoff, &cw);
  }
  /* after cropping, scanlines are cw pixels wide starting at column xoff <= sx0 */
  size_t px = (size_t)d->output_components;
  if (!ensure(&c->row, &c->row_cap, (size_t)cw * px * ROWS_PER_READ)
      || !ensure(&c->row2, &c->row2_cap, (size_t)cw * 3)) {
    jpeg_abort_decompress(d);
    set_message(c, "out of memory allocating a scanline");
    return RC_NO_MEMORY;
  }
  if (sy0 > 0) {
    JDIMENSION skipped = jpeg_skip_scanlines(d, (JDIMENSION)sy0);
    if (skipped != (JDIMENSION)sy0) {
      jpeg_abort_decompress(d);
      set_message(c, "could not skip to the first row of the box");
      return RC_LIBJPEG;
    }
  }
  size_t lead = (size_t)(sx0 - xoff);
  size_t rowBytes = (size_t)ow * 3;
  if (!cmyk && dst != NULL && lead == 0 && cw == ow) {
    /* scanlines are exactly the output rows: decode straight into the caller's memory */
    JDIMENSION r = 0;
    while (r < oh) {
      JSAMPROW rows[ROWS_PER_READ];
      JDIMENSION n = oh - r < ROWS_PER_READ ? oh - r : ROWS_PER_READ;
      for (JDIMENSION i = 0; i < n; i++) {
        rows[i] = dst + (size_t)(r + i) * rowBytes;
      }
      JDIMENSION got = jpeg_read_scanlines(d, rows, n);
      if (got == 0) {
        jpeg_abort_decompress(d);
        set_message(c, "decoder returned no scanline (suspended input)");
        return RC_LIBJPEG;
      }
      r += got;
    }
    jpeg_abort_decompress(d);
    return ((jlong)ow << 32) | (jlong)oh;
  }
  size_t stride = (size_t)cw * px;
  JDIMENSION r = 0;
  while (r < oh) {
    JSAMPROW rows[ROWS_PER_READ];
    JDIMENSION n = oh - r < ROWS_PER_READ ? oh - r : ROWS_PER_READ;
    for (JDIMENSION i = 0; i < n; i++) {
      rows[i] = c->row + i * stride;
    }
    JDIMENSION got = jpeg_read_scanlines(d, rows, n);
    if (got == 0) {
      jpeg_abort_decompress(d);
      set_message(c, "decoder returned no scanline (suspended input)");
      return RC_LIBJPEG;
    }
    for (JDIMENSION i = 0; i < got; i++, r++) {
      const unsigned char *rgb;
      if (cmyk) {
        cmyk_to_rgb(rows[i] + lead * 4, c->row2, ow, inverted);
        rgb = c->row2;
      } else {
        rgb = rows[i] + lead * 3;
      }
      if (dst != NULL) {
        memcpy(dst + (size_t)r * rowBytes, rgb, rowBytes);
      } else {
        (*env)->SetByteArrayRegion(env, dstArr, dstOff + (jint)((size_t)r * rowBytes), (jsize)rowBytes,
                                   (const jbyte *)rgb);
      }
    }
  }
  jpeg_abort_decompress(d);
  return ((jlong)ow << 32) | (jlong)oh;
}

/* Encoder destination that writes into a fixed buffer and fails instead of growing. */
static void dest_init(j_compress_ptr cinfo) {
  fixed_dest *dest = (fixed_dest *)cinfo->dest;
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = dest->capacity;
}

static boolean dest_empty(j_compress_ptr cinfo) {
  ERREXIT(cinfo, JERR_BUFFER_SIZE);
  return FALSE;
}

static void dest_term(j_compress_ptr cinfo) {
  (void)cinfo;
}

JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_encode0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff,
    jint width, jint height, jint quality, jint subsampling, jint flags,
    jobject dstBuf, jbyteArray dstArr, jint dstOff, jint dstLen) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (width <= 0 || height <= 0 || width > MAX_DIMENSION || height > MAX_DIMENSION || quality < 1 || quality > 100
      || (subsampling != 0 && subsampling != 2) || dstOff < 0 || dstLen <= 0) {
    snprintf(c->message, sizeof(c->message), "bad encode arguments: %dx%d quality %d subsampling %d",
             width, height, quality, subsampling);
    return RC_BAD_ARGUMENT;
  }
  size_t rowBytes = (size_t)width * 3;
  size_t srcLen = rowBytes * (size_t)height;
  if (srcLen > INT32_MAX) {
    set_message(c, "image too large to encode");
    return RC_BAD_ARGUMENT;
  }
  const unsigned char *src = NULL;
  if (srcBuf != NULL) {
    src = source(env, c, srcBuf, NULL, srcOff, (jint)srcLen);
    if (src == NULL) {
      return RC_BAD_ARGUMENT;
    }
  } else {
    if (srcArr == NULL || srcOff < 0 || (jlong)srcOff + (jlong)srcLen > (*env)->GetArrayLength(env, srcArr)) {
      set_message(c, "source array too small for the image");
      return RC_BAD_ARGUMENT;
    }
    if (!ensure(&c->row2, &c->row2_cap, rowBytes)) {
      set_message(c, "out of memory allocating a scanline");
      return RC_NO_MEMORY;
    }
  }
  unsigned char *out;
  if (dstBuf != NULL) {
    unsigned char *base = (*env)->GetDirectBufferAddress(env, dstBuf);
    jlong cap = (*env)->GetDirectBufferCapacity(env, dstBuf);
    if (base == NULL || cap < 0 || (jlong)dstOff + (jlong)dstLen > cap) {
      set_message(c, "destination range exceeds the direct buffer");
      return RC_BAD_ARGUMENT;
    }
    out = base + dstOff;
  } else {
    if (dstArr == NULL || (jlong)dstOff + (jlong)dstLen > (*env)->GetArrayLength(env, dstArr)) {
      set_message(c, "destination range exceeds the array");
      return RC_BAD_ARGUMENT;
    }
    if (!ensure(&c->output, &c->output_cap, (size_t)dstLen)) {
      set_message(c, "out of memory allocating the encoder output");
      return RC_NO_MEMORY;
    }
    out = c->output;
  }

  struct jpeg_compress_struct *k = &c->c;
  fixed_dest dest;
  memset(&dest, 0, sizeof(dest));
  dest.pub.init_destination = dest_init;
  dest.pub.empty_output_buffer = dest_empty;
  dest.pub.term_destination = dest_term;
  dest.buffer = out;
  dest.capacity = (size_t)dstLen;
  if (setjmp(c->cerr.jump)) {
    if (c->cerr.pub.msg_code == JERR_BUFFER_SIZE) {
      snprintf(c->message, sizeof(c->message), "destination too small: encoded data exceeds %d bytes", dstLen);
      jpeg_abort_compress(k);
      k->dest = NULL;
      return RC_DST_TOO_SMALL;
    }
    snprintf(c->message, sizeof(c->message), "%s", c->cerr.message);
    jpeg_abort_compress(k);
    k->dest = NULL;
    return RC_LIBJPEG;
  }
  k->dest = &dest.pub;
  k->image_width = (JDIMENSION)width;
  k->image_height = (JDIMENSION)height;
  k->input_components = 3;
  k->in_color_space = JCS_RGB;
  jpeg_set_defaults(k);
  jpeg_set_quality(k, quality, TRUE);
  k->dct_method = (flags & FLAG_ACCURATE_IDCT) ? JDCT_ISLOW : JDCT_IFAST;
  int hs = subsampling == 2 ? 2 : 1;
  k->comp_info[0].h_samp_factor = hs;
  k->comp_info[0].v_samp_factor = hs;
  k->comp_info[1].h_samp_factor = 1;
  k->comp_info[1].v_samp_factor = 1;
  k->comp_info[2].h_samp_factor = 1;
  k->comp_info[2].v_samp_factor = 1;
  jpeg_start_compress(k, TRUE);
  while (k->next_scanline < k->image_height) {
    JSAMPROW rows[1];
    if (src != NULL) {
      rows[0] = (JSAMPROW)(src + (size_t)k->next_scanline * rowBytes);
    } else {
      (*env)->GetByteArrayRegion(env, srcArr, srcOff + (jint)((size_t)k->next_scanline * rowBytes),
                                 (jsize)rowBytes, (jbyte *)c->row2);
      rows[0] = c->row2;
    }
    jpeg_write_scanlines(k, rows, 1);
  }
  jpeg_finish_compress(k);
  jint written = (jint)((size_t)dstLen - dest.pub.free_in_buffer);
  k->dest = NULL;
  if (dstBuf == NULL) {
    (*env)->SetByteArrayRegion(env, dstArr, dstOff, written, (const jbyte *)out);
  }
  return written;
}

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
