/*
 * JNI glue between org.sparkbeton.codec.jpeg.NativeJpegCodec and the libjpeg API of libjpeg-turbo.
 *
 * Rules this file follows:
 *  - libjpeg's default error handler calls exit(); ours longjmps back and returns a negative code, with
 *    the message kept in the handle for Java to read (lastError0).
 *  - Nothing from Java is trusted: every offset/length is re-checked against GetDirectBufferCapacity or
 *    GetArrayLength before memory is touched.
 *  - No JNI critical sections: heap arrays are copied in/out with Get/SetByteArrayRegion.
 *  - Only Java_* symbols are exported: our files are compiled with -fvisibility=hidden, and libjpeg-turbo,
 *    linked in statically (src/main/native/build.sh), with -Wl,--exclude-libs,ALL, so its symbols stay
 *    local to this library and never clash with another libjpeg in the JVM (OpenJDK's libjavajpeg).
 */

#include "betoncodec.h"

void on_error(j_common_ptr cinfo) {
  error_mgr *err = (error_mgr *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

/*
 * Warnings (level -1) are libjpeg's corrupt-data reports: it goes on, filling what it cannot decode with grey or
 * smearing rows. A truncated stream is always an error for us (libjpeg would pad it with grey); under FLAG_STRICT
 * every warning is, as djpeg's exit status 2 flags them. Trace messages (level >= 0) are ignored.
 */
void on_message(j_common_ptr cinfo, int level) {
  error_mgr *err = (error_mgr *)cinfo->err;
  if (level < 0 && (err->strict || cinfo->err->msg_code == JWRN_JPEG_EOF)) {
    on_error(cinfo);
  }
}

void end_decode(codec *c, j_decompress_ptr d) {
  if (c->derr.strict && d->output_scanline >= d->output_height) {
    jpeg_finish_decompress(d);
  } else {
    jpeg_abort_decompress(d);
  }
}

void no_output(j_common_ptr cinfo) {
  (void)cinfo;
}

void set_message(codec *c, const char *msg) {
  snprintf(c->message, sizeof(c->message), "%s", msg);
}

int ensure(unsigned char **buf, size_t *cap, size_t need) {
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
  free(c->planes);
  free(c);
}

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

/* the libjpeg-turbo headers this library was built against, for the writer's recipe */
JNIEXPORT jstring JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_libraryVersion0(JNIEnv *env, jclass cls) {
  (void)cls;
#ifdef LIBJPEG_TURBO_VERSION
  return (*env)->NewStringUTF(env, "libjpeg-turbo " STRINGIFY(LIBJPEG_TURBO_VERSION) " (libjpeg API "
                              STRINGIFY(JPEG_LIB_VERSION) ")");
#else
  return (*env)->NewStringUTF(env, "libjpeg (API " STRINGIFY(JPEG_LIB_VERSION) ")");
#endif
}

JNIEXPORT jstring JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_lastError0(JNIEnv *env, jclass cls, jlong handle) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  return (*env)->NewStringUTF(env, c == NULL ? "null handle" : c->message);
}

int check_decodable(codec *c, const struct jpeg_decompress_struct *d) {
  long long pixels = (long long)d->image_width * (long long)d->image_height;
  if (pixels <= MAX_DECODE_PIXELS) {
    return 0;
  }
  if (pixels >= 1000000000LL) {
    snprintf(c->message, sizeof(c->message), "image is too large to decode: %ux%u = %.1f gigapixels (the limit is %lld"
             " megapixels)", d->image_width, d->image_height, pixels / 1e9, MAX_DECODE_PIXELS / 1000000);
  } else {
    snprintf(c->message, sizeof(c->message), "image is too large to decode: %ux%u = %lld megapixels (the limit is %lld"
             " megapixels)", d->image_width, d->image_height, pixels / 1000000, MAX_DECODE_PIXELS / 1000000);
  }
  return RC_UNSUPPORTED;
}

/*
 * Resolves (buffer | array, offset, length) into a readable pointer, copying heap arrays into the
 * handle's input buffer. Returns NULL with c->message set when the range is out of bounds.
 */
const unsigned char *source(JNIEnv *env, codec *c, jobject buf, jbyteArray arr, jint off, jint len) {
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

int decode_destination(JNIEnv *env, codec *c, jobject dstBuf, jbyteArray dstArr, unsigned char **dst, jlong *cap) {
  *dst = NULL;
  if (dstBuf != NULL) {
    *dst = (*env)->GetDirectBufferAddress(env, dstBuf);
    *cap = (*env)->GetDirectBufferCapacity(env, dstBuf);
    if (*dst == NULL || *cap < 0) {
      set_message(c, "destination buffer is not a direct buffer");
      return RC_BAD_ARGUMENT;
    }
    return 0;
  }
  if (dstArr == NULL) {
    set_message(c, "no destination buffer");
    return RC_BAD_ARGUMENT;
  }
  *cap = (*env)->GetArrayLength(env, dstArr);
  return 0;
}

static int decode_source(JNIEnv *env, codec *c, jobject buf, jbyteArray arr, jint off, jint len,
                         const unsigned char **src) {
  *src = source(env, c, buf, arr, off, len);
  if (*src == NULL) {
    return RC_BAD_ARGUMENT;
  }
  if (len == 0) {
    set_message(c, "empty input (0 bytes)");
    return RC_LIBJPEG;
  }
  return 0;
}

jint decode_failed(codec *c) {
  snprintf(c->message, sizeof(c->message), "%s", c->derr.message);
  jpeg_abort_decompress(&c->d);
  return RC_LIBJPEG;
}

int start_decode(JNIEnv *env, codec *c, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen, int strict,
                 int checkSize, jobject dstBuf, jbyteArray dstArr, unsigned char **dst, jlong *dstCap) {
  const unsigned char *src;
  int rc = decode_source(env, c, srcBuf, srcArr, srcOff, srcLen, &src);
  if (rc != 0) {
    return rc;
  }
  if (dst != NULL && (rc = decode_destination(env, c, dstBuf, dstArr, dst, dstCap)) != 0) {
    return rc;
  }
  struct jpeg_decompress_struct *d = &c->d;
  c->derr.strict = strict != 0;
  if (setjmp(c->derr.jump)) {
    return decode_failed(c);
  }
  jpeg_mem_src(d, src, (unsigned long)srcLen);
  jpeg_read_header(d, TRUE);
  if (checkSize && (rc = check_decodable(c, d)) != 0) {
    jpeg_abort_decompress(d);
    return rc;
  }
  return 0;
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
  /* a probe reads the header only, of any size; the decode that follows judges the data */
  int rc = start_decode(env, c, srcBuf, srcArr, srcOff, srcLen, 0, 0, NULL, NULL, NULL, NULL);
  if (rc != 0) {
    return rc;
  }
  struct jpeg_decompress_struct *d = &c->d;
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
 * Returns (outWidth << 32 | outHeight) or a negative code. With FLAG_PADDED_ROWS and a layout array of 2
 * ints, rows may be left as wide as libjpeg crops them (to iMCU boundaries), decoded straight into dst with
 * no copy: layout gets {first column of the box in a row, row stride in pixels}; {0, outWidth} otherwise.
 */
JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen,
    jint x, jint y, jint w, jint h, jint scaleNum, jint flags,
    jobject dstBuf, jbyteArray dstArr, jint dstOff, jintArray layout) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (scaleNum < 1 || scaleNum > 16 || x < 0 || y < 0 || w < 0 || h < 0 || dstOff < 0
      || (layout != NULL && (*env)->GetArrayLength(env, layout) < 2)) {
    snprintf(c->message, sizeof(c->message), "bad decode arguments: box %d,%d %dx%d scale %d/8 offset %d",
             x, y, w, h, scaleNum, dstOff);
    return RC_BAD_ARGUMENT;
  }
  unsigned char *dst;
  jlong dstCap;
  int rc = start_decode(env, c, srcBuf, srcArr, srcOff, srcLen, flags & FLAG_STRICT, 1, dstBuf, dstArr, &dst,
                        &dstCap);
  if (rc != 0) {
    return rc;
  }
  struct jpeg_decompress_struct *d = &c->d;
  if (setjmp(c->derr.jump)) {
    return decode_failed(c);
  }
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
  /* the caller takes rows as wide as the scanlines, if they fit its buffer */
  int padded = (flags & FLAG_PADDED_ROWS) && layout != NULL && !cmyk && dst != NULL
               && (jlong)dstOff + (jlong)cw * oh * 3 <= dstCap;
  if (!cmyk && dst != NULL && (padded || (lead == 0 && cw == ow))) {
    /* scanlines are the output rows: decode straight into the caller's memory */
    size_t stride = padded ? (size_t)cw * 3 : rowBytes;
    JDIMENSION r = 0;
    while (r < oh) {
      JSAMPROW rows[ROWS_PER_READ];
      JDIMENSION n = oh - r < ROWS_PER_READ ? oh - r : ROWS_PER_READ;
      for (JDIMENSION i = 0; i < n; i++) {
        rows[i] = dst + (size_t)(r + i) * stride;
      }
      JDIMENSION got = jpeg_read_scanlines(d, rows, n);
      if (got == 0) {
        jpeg_abort_decompress(d);
        set_message(c, "decoder returned no scanline (suspended input)");
        return RC_LIBJPEG;
      }
      r += got;
    }
    end_decode(c, d);
    if (layout != NULL) {
      jint l[2] = {padded ? (jint)lead : 0, padded ? (jint)cw : (jint)ow};
      (*env)->SetIntArrayRegion(env, layout, 0, 2, l);
    }
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
  end_decode(c, d);
  if (layout != NULL) {
    jint l[2] = {0, (jint)ow};
    (*env)->SetIntArrayRegion(env, layout, 0, 2, l);
  }
  return ((jlong)ow << 32) | (jlong)oh;
}
