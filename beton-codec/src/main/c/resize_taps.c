/*
 * The tap tables of the fixed-point resize's horizontal pass (tap_table, resize_passes.h): allocation, the taps
 * of each output pixel, and the weights laid out as the SIMD passes read them.
 */
#include "betoncodec.h"
#include "resize_passes.h"

/* allocates t's arrays for outW pixels of `channels` (3 or 1) with up to `taps` real taps each (rounded up to
 * the T the passes need); returns 0 or RC_NO_MEMORY (t's arrays then freed) */
int taps_alloc(tap_table *t, int channels, int outW, int taps) {
  /* RGB pairs taps; a plane takes 2 (one 32-bit load a pixel) or chunks of 4 (64-bit loads) */
  taps = channels == 1 && taps > 2 ? (taps + 3) & ~3 : (taps + 1) & ~1;
  /* the SIMD passes read off and w8 in whole blocks of 8 pixels: the pixels past outW weigh 0 (zeroed) and start
   * at element 0 (RGB) or where the last pixel does (a plane, taps_done); a block takes 16T int32 of w8 for RGB,
   * 4T for a plane */
  size_t padded = ((size_t)outW + 7) / 8 * 8;
  size_t w8Bytes = padded / 8 * (channels == 1 ? 4 : 16) * (size_t)taps * sizeof(int32_t);
  t->channels = channels;
  t->taps = taps;
  t->outW = outW;
  t->near = 0;
  /* the plane windows' shuffle masks (taps_done), 32 bytes per block, where T allows the window loads */
  t->shuf = channels == 1 && taps <= 4 ? aligned_alloc(32, padded / 8 * 32) : NULL;
  t->off = calloc(padded * taps, sizeof(int));
  t->w = malloc((size_t)outW * taps * sizeof(int));
  t->pw = channels == 3 ? malloc((size_t)outW * taps / 2 * sizeof(int32_t)) : NULL; /* RGB's SSE2 weights */
  /* 32-byte vectors read whole: aligned so that none straddles a cache line (w8Bytes is a multiple of 32) */
  t->w8 = aligned_alloc(32, w8Bytes);
  /* the AVX-512 block tables (taps_done), 64-byte vectors read whole */
  int wideTables = channels == 3 && taps <= 4;
  t->wide = 0;
  t->wbase = wideTables ? malloc(padded / 8 * sizeof(int)) : NULL;
  t->widx = wideTables ? aligned_alloc(64, padded / 8 * 96 * sizeof(int16_t)) : NULL;
  t->ww = wideTables ? aligned_alloc(64, padded / 8 * 48 * sizeof(int32_t)) : NULL;
  if (t->off == NULL || t->w == NULL || (channels == 3 && t->pw == NULL) || t->w8 == NULL
      || (channels == 1 && taps <= 4 && t->shuf == NULL)
      || (wideTables && (t->wbase == NULL || t->widx == NULL || t->ww == NULL))) {
    taps_free(t);
    t->off = t->w = t->wbase = NULL;
    t->pw = t->w8 = t->ww = NULL;
    t->shuf = NULL;
    t->widx = NULL;
    return RC_NO_MEMORY;
  }
  memset(t->w8, 0, w8Bytes);
  return 0;
}

void taps_free(tap_table *t) {
  free(t->off);
  free(t->w);
  free(t->pw);
  free(t->w8);
  free(t->shuf);
  free(t->wbase);
  free(t->widx);
  free(t->ww);
}

/* pixel ox: first tap at element `start`, n real weights wt (n <= taps) */
void taps_set(tap_table *t, int ox, int start, const int *wt, int n) {
  int taps = t->taps;
  int ch = t->channels;
  int *o = t->off + (size_t)ox * taps;
  int *w = t->w + (size_t)ox * taps;
  for (int k = 0; k < taps; k++) {
    o[k] = start + k * ch;
    w[k] = k < n ? wt[k] : 0;
  }
}

/* RGB's pw for SSE2, and w8 for AVX2 (see block_avx2): per block of 8 pixels, 4 vectors of T / 2 tap pairs;
 * vector j % 4 holds pixel j in lane j / 4, tap pair h as 4 times pair(w[2h], w[2h+1]) */
static void rgb_weights(tap_table *t) {
  int taps = t->taps;
  for (int ox = 0; ox < t->outW; ox++) {
    const int *w = t->w + (size_t)ox * taps;
    int32_t *pw = t->pw + (size_t)ox * (taps / 2);
    int j = ox % 8;
    int32_t *w8 = t->w8 + ((size_t)(ox / 8) * 4 + j % 4) * (taps / 2) * 8 + j / 4 * 4;
    for (int h = 0; h < taps / 2; h++) {
      pw[h] = pair(w[2 * h], w[2 * h + 1]);
      for (int k = 0; k < 4; k++) {
        w8[8 * h + k] = pw[h];
      }
    }
  }
}

#ifdef RESIZE_SSE2
/* Whether the window loads fit every block of a plane: each lane's 4 pixels start within 6 elements of its first
 * pixel's start s (pixel k's pair, bytes 2d .. 2d + 3 from s, d = its start - s, stays in the lane's 16 bytes);
 * if so, the shuffle masks: lane bytes 4k .. 4k + 3 = 2d .. 2d + 3. */
static int plane_masks(tap_table *t, size_t blocks) {
  const int *off = t->off;
  int taps = t->taps;
  for (size_t lane = 0; lane < 2 * blocks; lane++) {
    const int *s = off + lane * 4 * taps;
    for (int k = 0; k < 4; k++) {
      uint32_t d = (uint32_t)(s[k * taps] - s[0]); /* a negative difference wraps to a large one */
      if (d > 6) {
        return 0;
      }
      uint32_t bytes = 2 * d * 0x01010101u + 0x03020100u;
      memcpy(t->shuf + lane * 16 + 4 * k, &bytes, 4);
    }
  }
  return 1;
}
#endif

#ifdef RESIZE_SSE2
/* The AVX-512 block tables of an RGB table (T <= 4; see resize_passes.h): 1, or 2 where T = 2 and every index
 * is below 32 (wide_512 then reads 32 elements a block), or 0 where a block's windows do not all lie within 64
 * elements of its lowest start. Block b's 24 pixel-channels pc = 3p + c (pixel 8b + p, channel c) each take
 * one int32 lane per tap pair h (taps 2h, 2h + 1). T = 4: step 0 holds pc 0-15 for h = 0, step 1 pc 0-15 for
 * h = 1, step 2 pc 16-23 for h = 0 in lanes 0-7 and for h = 1 in lanes 8-15; T = 2: step 0 pc 0-15, step 1
 * pc 16-23 in lanes 0-7 (steps 1 and 2 shift down to the pairs T has). A lane's two words are
 * the pair's elements, relative to wbase; the lanes left over and the pixels past outW weigh 0 and read
 * element 0. */
static int wide_tables(tap_table *t) {
  int taps = t->taps;
  int outW = t->outW;
  int blocks = (outW + 7) / 8;
  memset(t->widx, 0, (size_t)blocks * 96 * sizeof(int16_t));
  memset(t->ww, 0, (size_t)blocks * 48 * sizeof(int32_t));
  int reach = 0; /* the highest index */
  for (int b = 0; b < blocks; b++) {
    int n = outW - 8 * b < 8 ? outW - 8 * b : 8;
    const int *off = t->off + (size_t)8 * b * taps;
    const int *w = t->w + (size_t)8 * b * taps;
    int base = off[0];
    for (int p = 1; p < n; p++) {
      base = off[p * taps] < base ? off[p * taps] : base;
    }
    t->wbase[b] = base;
    int16_t *idx = t->widx + (size_t)b * 96;
    int32_t *ww = t->ww + (size_t)b * 48;
    for (int p = 0; p < n; p++) {
      int rel = off[p * taps] - base;
      if (rel + 3 * taps - 1 > 63) { /* the last element read, the last tap's B */
        return 0;
      }
      reach = rel + 3 * taps - 1 > reach ? rel + 3 * taps - 1 : reach;
      for (int h = 0; h < taps / 2; h++) {
        int32_t pw = pair(w[p * taps + 2 * h], w[p * taps + 2 * h + 1]);
        for (int c = 0; c < 3; c++) {
          int pc = 3 * p + c;
          int lane = pc < 16 ? 16 * h + pc : 16 * (taps / 2) + pc - 16 + 8 * h;
          idx[2 * lane] = (int16_t)(rel + c + 6 * h);
          idx[2 * lane + 1] = (int16_t)(rel + c + 6 * h + 3);
          ww[lane] = pw;
        }
      }
    }
  }
  return taps == 2 && reach < 32 ? 2 : 1;
}
#endif

/* after the last taps_set (see resize_passes.h) */
void taps_done(tap_table *t) {
  if (t->channels != 1) {
#ifdef RESIZE_SSE2
    /* decided for the CPU this call runs on: horizontal_pass takes wide_512 whenever wide is set */
    t->wide = t->widx != NULL && resize_avx512() ? wide_tables(t) : 0;
#endif
    if (!t->wide) {
      rgb_weights(t);
    }
    return;
  }
  int taps = t->taps;
  int outW = t->outW;
  size_t padded = ((size_t)outW + 7) / 8 * 8;
  int *off = t->off;
  /* the padding pixels (weight 0) read where the last pixel does, so that starts never decrease in a block */
  int last = off[(size_t)(outW - 1) * taps];
  for (size_t ox = (size_t)outW; ox < padded; ox++) {
    for (int k = 0; k < taps; k++) {
      off[ox * taps + k] = last + k;
    }
  }
#ifdef RESIZE_SSE2
  /* decided for the CPU this call runs on: plane_horizontal takes the window loads whenever near is set */
  t->near = t->shuf != NULL && resize_avx2() && plane_masks(t, padded / 8);
#endif
  /* the weights as the SIMD passes read them (plane_w8): pairs for T = 2 and for the windows, else chunks */
  const int *w = t->w;
  if (taps == 2 || t->near) {
    for (int ox = 0; ox < outW; ox++, w += taps) {
      int32_t *w8 = t->w8 + (size_t)(ox / 8) * 4 * taps + ox % 8;
      for (int e = 0; e < taps / 2; e++) {
        w8[8 * e] = pair(w[2 * e], w[2 * e + 1]);
      }
    }
    return;
  }
  for (int ox = 0; ox < outW; ox++, w += taps) {
    for (int e = 0; e < taps / 2; e++) {
      t->w8[plane_w8(taps, 0, ox, e)] = pair(w[2 * e], w[2 * e + 1]);
    }
  }
}

/* elements an intermediate row needs past its end for the taps of t. RGB: see taps_avx2, taps_512, wide_512 and
 * taps_sse2. Plane: a pixel's taps start inside the row (bilinear: at most at its last element, whose second
 * tap reads the padding with weight 0); the broadcasts read its T elements, the windows 8 from its start and, for T = 4,
 * 8 from 2 elements on */
int taps_padding(const tap_table *t) {
  if (t->channels == 1) {
    return t->taps + 8;
  }
  /* wide_512 reads 64 elements from a block's lowest start, which is at most 3 before the row's end */
  return 3 * t->taps + 16 > 64 ? 3 * t->taps + 16 : 64;
}
