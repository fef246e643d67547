/*
 * Writes src/test/resources/images/quad-ycck-adobe.jpg: the 64x48 quadrant image as an Adobe YCCK JPEG
 * (transform 2), stored inverted as Photoshop does. PIL cannot write YCCK, so this uses libjpeg directly:
 *   gcc -O2 make_ycck.c -o /tmp/make_ycck -ljpeg && /tmp/make_ycck ../resources/images/quad-ycck-adobe.jpg
 */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

static const int Q[4][3] = {{220, 30, 40}, {30, 200, 60}, {40, 50, 210}, {128, 128, 128}};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s out.jpg\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "wb");
  if (f == NULL) {
    perror(argv[1]);
    return 1;
  }
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = 64;
  c.image_height = 48;
  c.input_components = 4;
  c.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&c);
  jpeg_set_colorspace(&c, JCS_YCCK); /* also turns on the Adobe marker with transform 2 */
  jpeg_set_quality(&c, 95, TRUE);
  jpeg_start_compress(&c, TRUE);
  unsigned char row[64 * 4];
  while (c.next_scanline < c.image_height) {
    int y = (int)c.next_scanline;
    for (int x = 0; x < 64; x++) {
      const int *q = Q[(y >= 24 ? 2 : 0) + (x >= 32 ? 1 : 0)];
      /* naive RGB -> CMYK with K = 0, then inverted (Adobe convention): stored C' = 255 - C = R, etc. */
      row[4 * x] = (unsigned char)q[0];
      row[4 * x + 1] = (unsigned char)q[1];
      row[4 * x + 2] = (unsigned char)q[2];
      row[4 * x + 3] = 255;
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&c, rows, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  fclose(f);
  return 0;
}
