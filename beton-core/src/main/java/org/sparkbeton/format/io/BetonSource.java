package org.sparkbeton.format.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Random-access bytes of one {@code .beton} file: a local file (memory-mapped or read with
 * positional reads), a byte array, or an adapter over another file system (Hadoop, in the Spark
 * modules). Callers check ranges against {@link #length()} before reading; every source checks them again
 * with {@link #requireInside}.
 */
public interface BetonSource extends Closeable {

  /** A name for messages: usually the path. */
  String name();

  long length();

  /**
   * The {@code length} bytes at {@code position}, little-endian, read-only, positioned at 0. May be a
   * view (memory-mapped sources) or a copy; callers must not assume either.
   */
  ByteBuffer read(long position, int length) throws IOException;

  /** Total bytes handed out by {@link #read}: what a query really touched. */
  long bytesRead();

  @Override
  default void close() throws IOException {}

  /** The check every source makes before a read: {@code [position, position + len)} lies inside its length. */
  static void requireInside(String name, long position, int len, long length) throws IOException {
    if (position < 0 || len < 0 || position > length - len) {
      throw new IOException(name + ": read of " + len + " bytes at " + position + " is outside the file (" + length
          + " bytes)");
    }
  }
}
