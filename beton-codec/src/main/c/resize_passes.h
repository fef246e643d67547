/*
 * The two SIMD passes of libbetoncodec's fixed-point resize (resize_passes.c), shared with the weight and
 * JNI code in resize.c: a vertical pass summing weighted source rows into a 16-bit intermediate row, and a
 * horizontal pass summing each output pixel's taps over it. See resize.c for the arithmetic.
 */
#ifndef RESIZE_PASSES_H
#define RESIZE_PASSES_H

#include <stdint.h>

/* two 16-bit weights in one 32-bit lane, as pmaddwd pairs them: lo * first + hi * second */
static inline int32_t pair(int lo, int hi) {
  return (int32_t)((uint32_t)(uint16_t)lo | ((uint32_t)(uint16_t)hi << 16));
}

/* Horizontal tap tables of one call: `taps` (even) per output pixel, contiguous columns (off[ox*T + t] =
 * off[ox*T] + 3t, element offsets into the intermediate row; taps past a pixel's window weigh 0), weights w,
 * the same pairwise in pw (pair()), and for AVX2 per block of 8 pixels in w8 (see block_avx2); off and w8 run
 * on to a whole last block (offset 0, weight 0). */
typedef struct {
  int taps;
  int *off;
  int *w;
  int32_t *pw;
  int32_t *w8;
} tap_table;

/* allocates t's arrays for outW pixels of `taps` taps; returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int outW, int taps);

void taps_free(tap_table *t);

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
void taps_set(tap_table *t, int ox, int start, const int *wt, int n);

/* elements an intermediate row needs past its end for the taps of t */
int taps_padding(const tap_table *t);

/* mid[i] = (sum over k of wy[k] * rows[k][i] + 2^(shift-1)) >> shift for i < n, shift = weight bits - 7;
 * rows and wy padded to 2 * npairs (a padding row repeats the last one with weight 0); pw[k] = pair(wy[2k],
 * wy[2k+1]) */
void vertical_pass(const unsigned char *const *rows, const int *wy, const int32_t *pw, int npairs, int shift,
                   int16_t *restrict mid, int n);

/* out[3*ox + c] = (sum over k of w[ox*T + k] * mid[off[ox*T + k] + c] + 2^(shift-1)) >> shift, shift = weight
 * bits + 7; mid has taps_padding(t) readable elements past its end (the caller pads it) */
void horizontal_pass(const int16_t *mid, const tap_table *t, int shift, int outW, unsigned char *out);

#endif
