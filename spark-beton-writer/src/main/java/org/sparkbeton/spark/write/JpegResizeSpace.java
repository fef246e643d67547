package org.sparkbeton.spark.write;

/** Option {@link BetonWriteOptions#JPEG_RESIZE_SPACE}: where a JPEG stored again as a JPEG is resized. */
enum JpegResizeSpace {
  /** YCbCr JPEGs stored as 4:2:0 are resized as their Y, Cb and Cr planes; other images in RGB */
  YCBCR,
  /** every image is decoded to RGB and resized there */
  RGB
}
