package org.sparkbeton.spark.write;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where {@link RowEncoder} gets the bytes of an image file a row names: {@link ImageFileReader} reads it then and there,
 * a slot of {@link ImageReadAhead} hands over what it read ahead.
 */
interface ImageFiles {
  /**
   * The whole file at {@code location}, valid until the next call; a missing or empty file is bad input (an
   * {@link org.sparkbeton.codec.ImageDecodeException}), other I/O errors propagate.
   */
  ByteBuffer read(String location) throws IOException;
}
