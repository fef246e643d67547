/*
 * Shared declarations of the beton-codec JNI library (libbetoncodec.so): return codes, the per-handle state
 * and the helpers the decode, encode and resize files share. See betoncodec.c for the rules every file follows.
 */
#ifndef BETONCODEC_H
#define BETONCODEC_H

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
#define FLAG_PADDED_ROWS   2 /* decode0: rows may stay as wide as libjpeg crops them; layout out-param says how */
#define FLAG_STRICT        4 /* decodes: every libjpeg warning (corrupt data) is an error, and the stream is read to its end */

/* decoded-size guard: refuse to allocate row buffers for absurd widths */
#define MAX_DIMENSION 65500
/* scanlines asked of libjpeg per jpeg_read_scanlines call */
#define ROWS_PER_READ 4
/* the largest image decoded (2^28 pixels, as JavaJpegCodec): a header claiming more in a small file is a lie best
 * refused before decoding, and a real image that large would take libjpeg minutes or more than its memory limit */
#define MAX_DECODE_PIXELS (1LL << 28)
/* libjpeg working memory per decode (a 16k x 16k progressive 4:2:0 image needs ~800 MB) */
#define MAX_LIBJPEG_MEMORY (1024L * 1024L * 1024L)

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  /* set per call from FLAG_STRICT: warnings are errors (on_message) */
  int strict;
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
  unsigned char *planes;  /* one iMCU row of every component, for raw (planar YCbCr) decode and encode */
  size_t planes_cap;
  char message[JMSG_LENGTH_MAX + 128];
} codec;

/* libjpeg error handling: longjmp back with the message kept (never exit()) */
void on_error(j_common_ptr cinfo);
/* libjpeg's warnings: a truncated stream is always an error; with error_mgr.strict set, every warning is */
void on_message(j_common_ptr cinfo, int level);
/* Ends a decode after its last jpeg_read_*: under FLAG_STRICT, once every output row was read,
 * jpeg_finish_decompress reads the stream on to its end-of-image marker, so that what follows the last row
 * (extraneous bytes, a missing EOI, a frame shorter than its scan) is checked too; otherwise the decode is
 * abandoned where it stands. An error longjmps to the caller's setjmp. */
void end_decode(codec *c, j_decompress_ptr d);
void no_output(j_common_ptr cinfo);
void set_message(codec *c, const char *msg);
/* grows *buf to at least need bytes; 0 when out of memory */
int ensure(unsigned char **buf, size_t *cap, size_t need);
/* (buffer | array, offset, length) as a readable pointer, bounds checked; NULL with c->message set */
const unsigned char *source(JNIEnv *env, codec *c, jobject buf, jbyteArray arr, jint off, jint len);
/* A decode's destination: a direct buffer (*dst its address) or a heap array (*dst NULL), and its capacity;
 * 0, or RC_BAD_ARGUMENT with c->message set. */
int decode_destination(JNIEnv *env, codec *c, jobject dstBuf, jbyteArray dstArr, unsigned char **dst, jlong *cap);
/*
 * The prologue of every decode entry point (probe0, decode0, decodePlanes0): resolves the source (refusing 0 bytes)
 * and, where dst is not NULL, the destination (decode_destination); points c->d at the source with libjpeg's
 * warnings judged by `strict` (on_message), reads the header and, with checkSize, refuses an image too large to
 * decode (check_decodable). Returns 0 with c->d between jpeg_read_header and jpeg_start_decompress, or a negative
 * code with c->message set and c->d aborted.
 * The header is read under this function's own setjmp, which is spent once it returns (longjmp may only go back to
 * a frame still on the stack): the caller arms its own setjmp on c->derr.jump, with decode_failed as its branch,
 * before its next libjpeg call.
 */
int start_decode(JNIEnv *env, codec *c, jobject srcBuf, jbyteArray srcArr, jint srcOff, jint srcLen, int strict,
                 int checkSize, jobject dstBuf, jbyteArray dstArr, unsigned char **dst, jlong *dstCap);
/* The setjmp branch of a decode: libjpeg's message kept, the decompressor aborted for the next image, RC_LIBJPEG. */
jint decode_failed(codec *c);
/* Sets up c->c for one image (baseline, quality, IDCT flag, 2x2 or 1x1 luma sampling against 1x1 chroma,
 * raw planes in or scanlines) and starts it; errors longjmp to the caller's setjmp on c->cerr. */
void start_compress(codec *c, jint width, jint height, J_COLOR_SPACE in, jint quality, jint flags, int lumaSampling,
                    boolean raw);
/* An encoder's fixed output range (direct buffer, or the handle's output buffer standing in for a heap array,
 * copied back by finish_output); NULL with c->message set and *rc the code when it is out of bounds. */
unsigned char *output_range(JNIEnv *env, codec *c, jobject dstBuf, jbyteArray dstArr, jint dstOff, jint dstLen,
                            int *rc);
/* Points c->c at `out` (capacity len) with a destination that fails instead of growing. */
void fixed_destination(codec *c, fixed_dest *dest, unsigned char *out, size_t len);
/* After jpeg_finish_compress: the bytes written, copied into dstArr when the destination is a heap array. */
jint finish_output(JNIEnv *env, codec *c, fixed_dest *dest, jbyteArray dstArr, jint dstOff);
/* The setjmp branch of an encode: the error as a return code, the compressor reset for the next image. */
jint encode_failed(codec *c, jint dstLen);

#endif
