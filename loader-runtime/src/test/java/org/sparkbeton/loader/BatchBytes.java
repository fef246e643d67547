package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Batches copied out of a loader as byte arrays, for tests that compare one run's batches with another's
 * ({@code containsExactlyElementsOf} compares arrays by content). A batch's buffers are reused once the next batch
 * is taken, hence the copies.
 */
final class BatchBytes {
  private BatchBytes() {}

  /** The bytes of one output of a batch. */
  static byte[] of(Batch b, String output) {
    ByteBuffer d = b.data(output);
    byte[] copy = new byte[d.remaining()];
    d.get(0, copy);
    return copy;
  }

  /** Every batch of {@code epochs} epochs, each of its {@code outputs} in turn. */
  static List<byte[]> epochs(Loader loader, int epochs, String... outputs) {
    List<byte[]> out = new ArrayList<>();
    for (int e = 0; e < epochs; e++) {
      for (Batch b : loader) {
        for (String o : outputs) {
          out.add(of(b, o));
        }
      }
    }
    return out;
  }
}
