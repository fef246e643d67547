package org.sparkbeton.format.write;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where full pages go while a file is written; page k is the k-th page booked. */
interface PageSink {
  void writePage(long pageIndex, ByteBuffer page) throws IOException;
}
