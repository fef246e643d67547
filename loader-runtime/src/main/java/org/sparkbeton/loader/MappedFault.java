package org.sparkbeton.loader;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JVM's answer to a fault reading a memory-mapped file in Java code, an {@link InternalError} ("a fault occurred
 * in a recent unsafe memory access operation"), as the dataset's fault it is: a shard file cut short or rewritten in
 * place under the loader's mapping. Reported as an I/O error naming the file ({@link LoaderFailedException#isDataError()}
 * true), where it read as a bug of the loader.
 */
final class MappedFault {
  private MappedFault() {}

  /** {@code e} as an I/O error naming {@code file} when it is such a fault; {@code e} itself otherwise. */
  static Throwable explained(Throwable e, String file) {
    if (!(e instanceof InternalError) || e.getMessage() == null || !e.getMessage().contains("unsafe memory access")) {
      return e;
    }
    return new UncheckedIOException(new IOException("A fault reading the memory-mapped file " + file + " ("
        + e.getMessage() + "): it was truncated or rewritten in place while the loader read it. Replace a dataset"
        + " by writing new files (as writes and compactions do), then build the loader again", e));
  }
}
