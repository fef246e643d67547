/*
 * The two SIMD passes of libbetoncodec's fixed-point resize, shared with the weight and JNI code in resize.c: a
 * vertical pass summing weighted source rows into a 16-bit intermediate row (resize_vertical.c), and a horizontal
 * pass summing each output pixel's taps over it (resize_rgb.c, for a plane resize_plane.c), with its tap tables
 * (resize_taps.c); resize_cpu.c chooses between their SSE2 and AVX2 paths; resize_area.c computes area weights. See resize.c for the arithmetic.
 */
#ifndef RESIZE_PASSES_H
#define RESIZE_PASSES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
/* the SIMD paths are compiled (x86-64); elsewhere scalar loops compute the same integers */
#define RESIZE_SSE2 1
#endif

#define PREC 14       /* weight bits of bilinear taps and of area taps when shrinking less than 2x */
#define MID_BITS 7     /* fraction bits kept between the passes */
#define MAX_PREC_X 16  /* the horizontal sum, <= (255 << 7) << 16 plus rounding, must fit an int32 */
#define MAX_PREC_Y 22  /* the vertical sum, <= 255 << 22 plus rounding, likewise */

/* weight bits of an area axis shrinking by scale >= 1, at most max (resize_area.c) */
int area_precision(double scale, int max);

/* the windows and quantised weights of an area axis (resize_area.c); 0, or -1 when a window covers no pixel or
 * more than max */
int area_taps(int first, const int *map, int count, double scale, int limit, int prec, int max, int stride,
              int *start, int *n, int *q);

/* whether this call may use AVX2: the CPU has it and the tests' Resizer.sse2Only switch is off */
int resize_avx2(void);

/* whether this call may use the AVX-512 (BW, VL, VNNI) RGB horizontal pass: resize_avx2() holds, the CPU has
 * those, and the tests' Resizer.avx2Only switch is off */
int resize_avx512(void);

/* two 16-bit weights in one 32-bit lane, as pmaddwd pairs them: lo * first + hi * second */
static inline int32_t pair(int lo, int hi) {
  return (int32_t)((uint32_t)(uint16_t)lo | ((uint32_t)(uint16_t)hi << 16));
}

/* Horizontal tap tables of one call, for 3 interleaved channels (RGB) or one (a plane): `taps` per output
 * pixel, contiguous columns (off[ox*T + t] = off[ox*T] + channels * t, element offsets into the intermediate
 * row; taps past a pixel's window weigh 0), weights w. RGB: T even, the weights pairwise in pw (pair(), SSE2)
 * and per block of 8 pixels in w8 (AVX2, see block_avx2), both laid out by taps_done unless the table is wide
 * (below). Plane: T is 2 or a multiple of 4, and w8 holds the
 * weights of its SIMD passes per block of 8 pixels (see plane_w8), and where T <= 4 shuf the byte shuffles of
 * the AVX2 window loads, used when near (taps_done). off and w8 run on to a whole last block (offset 0 for RGB,
 * the last pixel's for a plane; weight 0).
 * RGB with T <= 4 on an AVX-512 CPU (wide, set by taps_done where every block of 8 pixels reads within 64
 * elements of its lowest start, as shrinks up to about 2x do; 2 where T = 2 and within 32): per block, the element wbase its windows are read from,
 * and the word indices widx (3 x 32 int16) and weight pairs ww (3 x 16 int32) of its three vpermt2w/vpdpwssd
 * steps (see wide_512 in resize_rgb.c). */
typedef struct {
  int channels;
  int taps;
  int outW;
  int near;
  int *off;
  int *w;
  int32_t *pw;
  int32_t *w8;
  unsigned char *shuf;
  int wide;
  int *wbase;
  int16_t *widx;
  int32_t *ww;
} tap_table;

/* allocates t's arrays for outW pixels of `channels` (3 or 1) with up to `taps` real taps each (rounded up to
 * the T the passes need); returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int channels, int outW, int taps);

void taps_free(tap_table *t);

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
void taps_set(tap_table *t, int ox, int start, const int *wt, int n);

/* completes t once every pixel is set: for a plane, the padding pixels' starts and the window shuffles */
void taps_done(tap_table *t);

/* elements an intermediate row needs past its end for the taps of t */
int taps_padding(const tap_table *t);

/* mid[i] = (sum over k of wy[k] * rows[k][i] + 2^(shift-1)) >> shift for i < n, shift = weight bits - 7;
 * rows and wy padded to 2 * npairs (a padding row repeats the last one with weight 0); pw[k] = pair(wy[2k],
 * wy[2k+1]) */
void vertical_pass(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs, int shift,
                   int16_t *restrict mid, int n);

/* out[C*ox + c] = (sum over k of w[ox*T + k] * mid[off[ox*T + k] + c] + 2^(shift-1)) >> shift for the C =
 * t->channels channels c, shift = weight bits + 7; mid has taps_padding(t) readable elements past its end (the
 * caller pads it); exactly outW * C bytes of out are written */
void horizontal_pass(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out);

/* horizontal_pass of a plane (t->channels == 1; resize_plane.c) */
void plane_horizontal(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out);

/* the int32 of a plane table's w8 that holds weight pair e (weights 2e, 2e + 1) of output pixel ox: written by
 * taps_done, read by plane_horizontal */
size_t plane_w8(int taps, int pairs, int ox, int e);

#endif
