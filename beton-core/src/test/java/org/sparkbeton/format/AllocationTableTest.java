package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.io.ByteArraySource;

/** The allocation table's columns: 4 bytes a value where they fit, the same answers either way. */
class AllocationTableTest {
  @Test
  void narrowEntriesKeepBothEndsOfTheirRanges() {
    long dataStart = 5_000_000_000L;
    long dataEnd = dataStart + 0xFFFF_FFFFL;
    AllocationEntries e = AllocationEntries.forRanges(2, dataStart, dataEnd, 0x1_0000_0000L);
    e.set(0, 0xFFFF_FFFFL, dataStart, 0xFFFF_FFFFL);
    e.set(1, 0x8000_0000L, dataEnd, 0);
    assertThat(e.isNarrow()).isTrue();
    assertThat(new long[] {e.sample(0), e.ptr(0), e.size(0)}).containsExactly(0xFFFF_FFFFL, dataStart, 0xFFFF_FFFFL);
    assertThat(new long[] {e.sample(1), e.ptr(1), e.size(1)}).containsExactly(0x8000_0000L, dataEnd, 0);
  }

  @Test
  void wideEntriesWhereTheDataRegionOrSampleCountExceedsFourBytes() {
    AllocationEntries e = AllocationEntries.forRanges(1, 64, 64 + 0x1_0000_0000L, 10);
    e.set(0, 9, 64 + 0x1_0000_0000L, 0x1_0000_0000L);
    assertThat(e.isNarrow()).isFalse();
    assertThat(new long[] {e.sample(0), e.ptr(0), e.size(0)}).containsExactly(9, 64 + 0x1_0000_0000L, 0x1_0000_0000L);
    assertThat(AllocationEntries.forRanges(1, 64, 128, 0x1_0000_0001L).isNarrow()).isFalse();
  }

  @Test
  void tableOutOfPointerOrderIsSortedAndAnswersBySizeAndSample() throws Exception {
    long dataStart = 64;
    long start = 64 + 300;
    // entries (sample, ptr, size) written out of pointer order, as several writer threads may leave them
    long[][] entries = {{2, 264, 100}, {0, 64, 50}, {1, 114, 150}};
    AllocationTable t = read(entries, dataStart, start, 3);
    assertThat(t.isCompact()).isTrue();
    assertThat(t.size()).isEqualTo(3);
    assertThat(new long[] {t.ptr(0), t.ptr(1), t.ptr(2)}).containsExactly(64, 114, 264);
    assertThat(new long[] {t.size(0), t.size(1), t.size(2)}).containsExactly(50, 150, 100);
    assertThat(new long[] {t.sample(0), t.sample(1), t.sample(2)}).containsExactly(0, 1, 2);
    assertThat(t.sizeAt(264)).isEqualTo(100);
    assertThat(t.sizeAt(265)).isEqualTo(-1);
    assertThat(t.indexOf(114)).isEqualTo(1);
    assertThat(t.hasDuplicatePointers()).isFalse();
  }

  @Test
  void repeatedPointerAnswersWithTheLargestSize() throws Exception {
    AllocationTable t = read(new long[][] {{0, 64, 0}, {1, 64, 40}, {2, 104, 10}}, 64, 114, 3);
    assertThat(t.hasDuplicatePointers()).isTrue();
    assertThat(t.sizeAt(64)).isEqualTo(40);
    assertThat(t.sizeAt(104)).isEqualTo(10);
  }

  private static AllocationTable read(long[][] entries, long dataStart, long start, long numSamples)
      throws Exception {
    ByteBuffer file = ByteBuffer.allocate((int) start + entries.length * BetonFormat.ALLOCATION_ENTRY_SIZE)
        .order(ByteOrder.LITTLE_ENDIAN);
    file.position((int) start);
    for (long[] e : entries) {
      file.putLong(e[0]).putLong(e[1]).putLong(e[2]);
    }
    return AllocationTable.read(new ByteArraySource("t.beton", file.array()), start, dataStart, numSamples);
  }
}
