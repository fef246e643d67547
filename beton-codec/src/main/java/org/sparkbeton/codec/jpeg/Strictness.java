package org.sparkbeton.codec.jpeg;

/**
 * What a decode does with a JPEG that libjpeg reports as corrupt but can decode around. libjpeg reports such data
 * (a bad Huffman code, a marker inside the scan, bytes that belong to no segment, a frame whose scan ends early or
 * late) as a <em>warning</em> and goes on: the damaged blocks come out grey or smeared, and the image is returned as
 * if whole. {@code djpeg} exits with status 2 on such files.
 */
public enum Strictness {
  /**
   * libjpeg's own behaviour, except that a stream cut short is an error (libjpeg would pad it with grey): the
   * decode returns what libjpeg recovers. For decoding data that was checked when it was written (the loader).
   */
  LENIENT,
  /**
   * Every corrupt-data warning is an error naming it ({@code Corrupt JPEG data: premature end of data segment}),
   * and a decode that produces every row also reads the stream on to its end-of-image marker, so that damage after
   * the last row (extraneous bytes, a frame header that claims fewer rows than its scan holds) is found too. For
   * accepting input (the Spark writer) and for {@code beton verify --decode}. A header-only {@link JpegCodec#probe}
   * is the same in both modes.
   */
  STRICT
}
