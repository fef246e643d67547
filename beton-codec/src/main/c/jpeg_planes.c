/*
 * Planar YCbCr in and out of libjpeg-turbo, for NativeJpegCodec.decodePlanes0 / encodePlanes0: the writer's
 * JPEG-to-JPEG path resizes the Y, Cb and Cr planes themselves, so libjpeg's chroma upsampling and YCbCr->RGB
 * conversion on decode, and RGB->YCbCr conversion and chroma downsampling on encode, are never run (measured
 * on the benchmark photos: decode 1.10-1.15x, encode 1.10-1.15x faster, and half the samples to resize).
 *
 * libjpeg's raw-data interface hands over (and takes) whole iMCU rows of DCT blocks: planes padded to whole
 * blocks. Both directions go through one iMCU row of scratch per component in the handle (c->planes), so the
 * caller's planes are packed, unpadded, and every byte written to them is range-checked first.
 */

#include "betoncodec.h"

#if JPEG_LIB_VERSION >= 70
#define COMP_DCT_SIZE(comp) ((comp)->DCT_h_scaled_size)
#else
#define COMP_DCT_SIZE(comp) ((comp)->DCT_scaled_size)
#endif

/* one row of bytes to the caller: a direct buffer (base non-NULL) or a heap array */
static void put_row(JNIEnv *env, unsigned char *base, jbyteArray arr, size_t at, const unsigned char *row, size_t n) {
  if (base != NULL) {
    memcpy(base + at, row, n);
  } else {
    (*env)->SetByteArrayRegion(env, arr, (jsize)at, (jsize)n, (const jbyte *)row);
  }
}

/*
 * Decodes a 3-component YCbCr JPEG at scale scaleNum/8 into its planes as libjpeg reconstructs them (no chroma
 * upsampling, no colour conversion): Y, then Cb, then Cr, each packed row by row (stride = its width), from
 * dstOff of dst. dims gets {Y width, Y height, chroma width, chroma height}: libjpeg's downsampled sizes,
 * which depend on the sampling factors and the scale (libjpeg-turbo scales chroma by its IDCT where it can,
 * so at 1/2 a 4:2:0 image's chroma comes out as large as its Y). Returns the bytes written, or a negative code:
 * RC_UNSUPPORTED for other colour spaces or for Cb and Cr sampled differently.
 */
JNIEXPORT jlong JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decodePlanes0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen,
    jint scaleNum, jint flags, jobject dstBuf, jbyteArray dstArr, jint dstOff, jintArray dims) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (scaleNum < 1 || scaleNum > 8 || dstOff < 0 || dims == NULL || (*env)->GetArrayLength(env, dims) < 4) {
    snprintf(c->message, sizeof(c->message), "bad plane decode arguments: scale %d/8 offset %d", scaleNum, dstOff);
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
  if (d->num_components != 3 || d->jpeg_color_space != JCS_YCbCr
      || d->comp_info[1].h_samp_factor != d->comp_info[2].h_samp_factor
      || d->comp_info[1].v_samp_factor != d->comp_info[2].v_samp_factor) {
    snprintf(c->message, sizeof(c->message), "not a YCbCr JPEG with alike chroma planes (%d components, colour "
             "space %d)", d->num_components, (int)d->jpeg_color_space);
    jpeg_abort_decompress(d);
    return RC_UNSUPPORTED;
  }
  d->raw_data_out = TRUE;
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
  /* per component (sizes known once the output dimensions are): the valid plane, and the padded iMCU row libjpeg
   * hands over; checked before jpeg_start_decompress, which allocates for the declared size */
  size_t planeW[3], planeH[3], planeAt[3], bufW[3], bufRows[3], bufAt[3];
  size_t total = 0, scratch = 0;
  for (int ci = 0; ci < 3; ci++) {
    jpeg_component_info *comp = &d->comp_info[ci];
    planeW[ci] = comp->downsampled_width;
    planeH[ci] = comp->downsampled_height;
    planeAt[ci] = total;
    total += planeW[ci] * planeH[ci];
    bufW[ci] = (size_t)comp->width_in_blocks * COMP_DCT_SIZE(comp);
    bufRows[ci] = (size_t)comp->v_samp_factor * COMP_DCT_SIZE(comp);
    bufAt[ci] = scratch;
    scratch += bufW[ci] * bufRows[ci];
  }
  if ((jlong)dstOff + (jlong)total > dstCap) {
    snprintf(c->message, sizeof(c->message), "destination too small: need %zu bytes at offset %d, capacity %lld",
             total, dstOff, (long long)dstCap);
    jpeg_abort_decompress(d);
    return RC_DST_TOO_SMALL;
  }
  if (!ensure(&c->planes, &c->planes_cap, scratch)) {
    jpeg_abort_decompress(d);
    set_message(c, "out of memory allocating an iMCU row");
    return RC_NO_MEMORY;
  }
  jpeg_start_decompress(d);
  /* row pointers of one iMCU row: at most max_v_samp_factor * 8 rows per component (scale <= 8/8) */
  JSAMPROW rows[3][4 * DCTSIZE];
  JSAMPARRAY planes[3] = {rows[0], rows[1], rows[2]};
  for (int ci = 0; ci < 3; ci++) {
    if (bufRows[ci] > 4 * DCTSIZE) {
      jpeg_abort_decompress(d);
      set_message(c, "sampling factors beyond libjpeg's limits");
      return RC_UNSUPPORTED;
    }
    for (size_t r = 0; r < bufRows[ci]; r++) {
      rows[ci][r] = c->planes + bufAt[ci] + r * bufW[ci];
    }
  }
  JDIMENSION perCall = (JDIMENSION)(d->max_v_samp_factor * d->min_DCT_scaled_size);
  for (size_t imcu = 0; d->output_scanline < d->output_height; imcu++) {
    if (jpeg_read_raw_data(d, planes, perCall) == 0) {
      jpeg_abort_decompress(d);
      set_message(c, "decoder returned no data (suspended input)");
      return RC_LIBJPEG;
    }
    for (int ci = 0; ci < 3; ci++) {
      size_t first = imcu * bufRows[ci];
      for (size_t r = 0; r < bufRows[ci] && first + r < planeH[ci]; r++) {
        put_row(env, dst, dstArr, (size_t)dstOff + planeAt[ci] + (first + r) * planeW[ci], rows[ci][r], planeW[ci]);
      }
    }
  }
  end_decode(c, d);
  jint out[4] = {(jint)planeW[0], (jint)planeH[0], (jint)planeW[1], (jint)planeH[1]};
  (*env)->SetIntArrayRegion(env, dims, 0, 4, out);
  return (jlong)total;
}

/*
 * Encodes Y (width x height), Cb and Cr ((width+1)/2 x (height+1)/2 each), packed one after the other from
 * srcOff, into a baseline JFIF JPEG with 4:2:0 chroma. libjpeg takes whole iMCU rows of 16 Y and 8 chroma rows,
 * each padded to whole MCUs: the planes' last column and row are repeated into the padding, as libjpeg does
 * itself for RGB input. Returns the bytes written or a negative code.
 */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_encodePlanes0(
    JNIEnv *env, jclass cls, jlong handle, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint width, jint height,
    jint quality, jint flags, jobject dstBuf, jbyteArray dstArr, jint dstOff, jint dstLen) {
  (void)cls;
  codec *c = (codec *)(intptr_t)handle;
  if (width <= 0 || height <= 0 || width > MAX_DIMENSION || height > MAX_DIMENSION || quality < 1 || quality > 100) {
    snprintf(c->message, sizeof(c->message), "bad plane encode arguments: %dx%d quality %d", width, height, quality);
    return RC_BAD_ARGUMENT;
  }
  size_t cw = ((size_t)width + 1) / 2, ch = ((size_t)height + 1) / 2;
  size_t ySize = (size_t)width * height, cSize = cw * ch;
  if (ySize + 2 * cSize > INT32_MAX) {
    set_message(c, "image too large to encode");
    return RC_BAD_ARGUMENT;
  }
  const unsigned char *src = source(env, c, srcBuf, srcArr, srcOff, (jint)(ySize + 2 * cSize));
  if (src == NULL) {
    return RC_BAD_ARGUMENT;
  }
  int rc;
  unsigned char *out = output_range(env, c, dstBuf, dstArr, dstOff, dstLen, &rc);
  if (out == NULL) {
    return rc;
  }
  /* one iMCU row: 16 Y rows of whole 16-pixel MCUs, 8 rows of each chroma plane half as wide */
  size_t padW = ((size_t)width + 15) & ~(size_t)15;
  size_t padCw = padW / 2;
  if (!ensure(&c->planes, &c->planes_cap, padW * 16 + 2 * padCw * 8)) {
    set_message(c, "out of memory allocating an iMCU row");
    return RC_NO_MEMORY;
  }
  JSAMPROW yRows[16], cbRows[8], crRows[8];
  for (int r = 0; r < 16; r++) {
    yRows[r] = c->planes + r * padW;
  }
  for (int r = 0; r < 8; r++) {
    cbRows[r] = c->planes + 16 * padW + r * padCw;
    crRows[r] = c->planes + 16 * padW + 8 * padCw + r * padCw;
  }
  JSAMPARRAY planes[3] = {yRows, cbRows, crRows};
  const unsigned char *srcPlane[3] = {src, src + ySize, src + ySize + cSize};
  const size_t w[3] = {(size_t)width, cw, cw}, h[3] = {(size_t)height, ch, ch}, pw[3] = {padW, padCw, padCw};
  const int rowsPer[3] = {16, 8, 8};

  struct jpeg_compress_struct *k = &c->c;
  fixed_dest dest;
  if (setjmp(c->cerr.jump)) {
    return encode_failed(c, dstLen);
  }
  fixed_destination(c, &dest, out, (size_t)dstLen);
  start_compress(c, width, height, JCS_YCbCr, quality, flags, 2, TRUE);
  for (size_t imcu = 0; k->next_scanline < k->image_height; imcu++) {
    for (int ci = 0; ci < 3; ci++) {
      for (int r = 0; r < rowsPer[ci]; r++) {
        size_t row = imcu * rowsPer[ci] + r;
        const unsigned char *line = srcPlane[ci] + (row < h[ci] ? row : h[ci] - 1) * w[ci];
        unsigned char *into = planes[ci][r];
        memcpy(into, line, w[ci]);
        memset(into + w[ci], line[w[ci] - 1], pw[ci] - w[ci]);
      }
    }
    if (jpeg_write_raw_data(k, planes, 16) != 16) {
      jpeg_abort_compress(k);
      k->dest = NULL;
      set_message(c, "encoder took no data");
      return RC_LIBJPEG;
    }
  }
  jpeg_finish_compress(k);
  return finish_output(env, c, &dest, dstArr, dstOff);
}
