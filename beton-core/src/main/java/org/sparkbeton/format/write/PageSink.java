package org.sparkbeton.format.write;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where full pages go while a file is written; page k is the k-th page booked. */
interface PageSink {
  /** {@code page}: the whole page, zero from {@code used} on (its first {@code used} bytes are what was written). */
  void writePage(long pageIndex, ByteBuffer page, int used) throws IOException;
}
