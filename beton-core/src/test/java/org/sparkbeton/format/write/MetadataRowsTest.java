package org.sparkbeton.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Metadata records held until the sample count is known, in chunks that grow to the rows written. */
class MetadataRowsTest {
  private static final int RECORD = 29;

  static byte[] record(long index) {
    byte[] r = new byte[RECORD];
    new Random(index).nextBytes(r);
    return r;
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void aSmallFileHoldsItsRowsNotAWholeChunk() {
    MetadataRows rows = new MetadataRows(RECORD);
    for (int i = 0; i < 625; i++) {
      rows.put(i, record(i));
    }
    assertThat(rows.capacityBytes()).as("1 Ki rows: the first size").isEqualTo(1024L * RECORD);
    for (int i = 0; i < 625; i++) {
      assertThat(bytes(rows.row(i))).isEqualTo(record(i));
    }
    assertThat(bytes(rows.rows(0, 625))).hasSize(625 * RECORD);
  }

  @Test
  void rowsWrittenInAnyOrderAcrossChunksReadBackInPlace() {
    int n = MetadataRows.rowsPerChunk() + 5_000;
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(3));
    MetadataRows rows = new MetadataRows(RECORD);
    rows.put(n - 1, record(n - 1)); // the highest first: the second chunk grows straight to it
    for (int i : order) {
      if (i != n - 1) {
        rows.put(i, record(i));
      }
    }
    assertThat(rows.numSamples()).isEqualTo(n);
    assertThat(rows.firstMissing()).isEqualTo(-1);
    for (int i = 0; i < n; i += 997) {
      assertThat(bytes(rows.row(i))).as("row %d", i).isEqualTo(record(i));
    }
    ByteBuffer second = rows.rows(MetadataRows.rowsPerChunk(), 5_000);
    for (int k = 0; k < 5_000; k += 499) {
      byte[] got = new byte[RECORD];
      second.get(k * RECORD, got);
      assertThat(got).isEqualTo(record(MetadataRows.rowsPerChunk() + k));
    }
    assertThat(rows.capacityBytes()).as("a full first chunk, the second grown to 8 Ki rows")
        .isEqualTo((long) (MetadataRows.rowsPerChunk() + 8 * 1024) * RECORD);
  }
}
