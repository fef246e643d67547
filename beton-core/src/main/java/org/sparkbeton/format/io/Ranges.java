package org.sparkbeton.format.io;

import java.io.IOException;

/** The bounds check every source makes before reading. */
final class Ranges {
  private Ranges() {}

  static void check(String name, long position, int len, long length) throws IOException {
    if (position < 0 || len < 0 || position > length - len) {
      throw new IOException(name + ": read of " + len + " bytes at " + position + " is outside the file (" + length + " bytes)");
    }
  }
}
