/* JPEG encoding into a fixed buffer (direct or heap array), for NativeJpegCodec.encode0. */

#include "betoncodec.h"

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

unsigned char *output_range(JNIEnv *env, codec *c, jobject dstBuf, jbyteArray dstArr, jint dstOff, jint dstLen,
                            int *rc) {
  *rc = RC_BAD_ARGUMENT;
  if (dstOff < 0 || dstLen <= 0) {
    set_message(c, "destination offset or length out of range");
    return NULL;
  }
  if (dstBuf != NULL) {
    unsigned char *base = (*env)->GetDirectBufferAddress(env, dstBuf);
    jlong cap = (*env)->GetDirectBufferCapacity(env, dstBuf);
    if (base == NULL || cap < 0 || (jlong)dstOff + (jlong)dstLen > cap) {
      set_message(c, "destination range exceeds the direct buffer");
      return NULL;
    }
    return base + dstOff;
  }
  if (dstArr == NULL || (jlong)dstOff + (jlong)dstLen > (*env)->GetArrayLength(env, dstArr)) {
    set_message(c, "destination range exceeds the array");
    return NULL;
  }
  if (!ensure(&c->output, &c->output_cap, (size_t)dstLen)) {
    set_message(c, "out of memory allocating the encoder output");
    *rc = RC_NO_MEMORY;
    return NULL;
  }
  return c->output;
}

void fixed_destination(codec *c, fixed_dest *dest, unsigned char *out, size_t len) {
  memset(dest, 0, sizeof(*dest));
  dest->pub.init_destination = dest_init;
  dest->pub.empty_output_buffer = dest_empty;
  dest->pub.term_destination = dest_term;
  dest->buffer = out;
  dest->capacity = len;
  c->c.dest = &dest->pub;
}

jint finish_output(JNIEnv *env, codec *c, fixed_dest *dest, jbyteArray dstArr, jint dstOff) {
  jint written = (jint)(dest->capacity - dest->pub.free_in_buffer);
  c->c.dest = NULL;
  if (dstArr != NULL) {
    (*env)->SetByteArrayRegion(env, dstArr, dstOff, written, (const jbyte *)dest->buffer);
  }
  return written;
}

void start_compress(codec *c, jint width, jint height, J_COLOR_SPACE in, jint quality, jint flags, int lumaSampling,
                    boolean raw) {
  struct jpeg_compress_struct *k = &c->c;
  k->image_width = (JDIMENSION)width;
  k->image_height = (JDIMENSION)height;
  k->input_components = 3;
  k->in_color_space = in;
  jpeg_set_defaults(k); /* also resets raw_data_in */
  jpeg_set_quality(k, quality, TRUE);
  k->dct_method = (flags & FLAG_ACCURATE_IDCT) ? JDCT_ISLOW : JDCT_IFAST;
  k->raw_data_in = raw;
  k->comp_info[0].h_samp_factor = lumaSampling;
  k->comp_info[0].v_samp_factor = lumaSampling;
  for (int ci = 1; ci < 3; ci++) {
    k->comp_info[ci].h_samp_factor = 1;
    k->comp_info[ci].v_samp_factor = 1;
  }
  jpeg_start_compress(k, TRUE);
}

jint encode_failed(codec *c, jint dstLen) {
  jint rc = RC_LIBJPEG;
  if (c->cerr.pub.msg_code == JERR_BUFFER_SIZE) {
    snprintf(c->message, sizeof(c->message), "destination too small: encoded data exceeds %d bytes", dstLen);
    rc = RC_DST_TOO_SMALL;
  } else {
    snprintf(c->message, sizeof(c->message), "%s", c->cerr.message);
  }
  jpeg_abort_compress(&c->c);
  c->c.dest = NULL;
  return rc;
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
  int rc;
  unsigned char *out = output_range(env, c, dstBuf, dstArr, dstOff, dstLen, &rc);
  if (out == NULL) {
    return rc;
  }

  struct jpeg_compress_struct *k = &c->c;
  fixed_dest dest;
  if (setjmp(c->cerr.jump)) {
    return encode_failed(c, dstLen);
  }
  fixed_destination(c, &dest, out, (size_t)dstLen);
  start_compress(c, width, height, JCS_RGB, quality, flags, subsampling == 2 ? 2 : 1, FALSE);
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
  return finish_output(env, c, &dest, dstArr, dstOff);
}
