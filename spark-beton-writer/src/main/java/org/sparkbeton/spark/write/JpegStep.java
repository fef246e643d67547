package org.sparkbeton.spark.write;

/**
 * What {@link ImageEncoder} does to one plain JPEG (YCbCr or greyscale, no EXIF rotation), decided from its header
 * alone before any pixel is decoded: the one rule both the writer and its benchmark's limit harness follow, so the
 * limit is the writer's own decode and encode work and nothing else.
 *
 * @param kind how the image is handled
 * @param scale the DCT scale numerator (of 8) it is decoded at; for {@link Kind#PASS_THROUGH}, 1 when it is checked
 *     by a decode at 1/8 ({@code jpegPassThroughCheck=decode}) and 0 when no pixel is decoded
 * @param target the size it is stored at
 * @param jpeg whether it is stored as a JPEG (else as raw RGB)
 */
record JpegStep(Kind kind, int scale, StoredSize target, boolean jpeg) {
  enum Kind {
    /** stored as it came: no resize, no encode */
    PASS_THROUGH,
    /** decoded to its Y, Cb and Cr planes, each resized, encoded from 4:2:0 planes */
    PLANES,
    /** decoded to RGB, resized, stored as raw RGB or encoded */
    RGB
  }
}
