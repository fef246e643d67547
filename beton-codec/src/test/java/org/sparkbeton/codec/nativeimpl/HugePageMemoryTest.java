package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HugePageMemoryTest {
  @BeforeEach
  void nativeLibrary() {
    // the build always makes libbetoncodec (the codec's tests fail without it); -Pno-native builds skip these
    assumeTrue(HugePageMemory.isAvailable(), "libbetoncodec is not loaded");
  }

  @Test
  void buffersAreZeroFilledDirectAndWritable() {
    int bytes = 5 * HugePageMemory.HUGE_PAGE_BYTES + 12_345; // not a whole number of huge pages
    ByteBuffer b = HugePageMemory.allocate(bytes);
    try {
      assertThat(b.isDirect()).isTrue();
      assertThat(b.capacity()).isEqualTo(bytes);
      for (int i = 0; i < bytes; i += 4093) {
        assertThat(b.get(i)).isZero();
      }
      assertThat(b.get(bytes - 1)).isZero();
      for (int i = 0; i < bytes; i += 997) {
        b.put(i, (byte) (i * 31));
      }
      b.put(bytes - 1, (byte) 7);
      for (int i = 0; i < bytes; i += 997) {
        assertThat(b.get(i)).isEqualTo((byte) (i * 31));
      }
      assertThat(b.get(bytes - 1)).isEqualTo((byte) 7);
      assertThat(HugePageMemory.owns(b)).isTrue();
    } finally {
      HugePageMemory.free(b);
    }
    assertThat(HugePageMemory.owns(b)).isFalse();
  }

  @Test
  void onlyLiveBuffersOfItsOwnAreFreed() {
    ByteBuffer b = HugePageMemory.allocate(100);
    assertThatThrownBy(() -> HugePageMemory.free(b.slice(0, 10))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HugePageMemory.free(b.duplicate())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HugePageMemory.free(ByteBuffer.allocateDirect(100)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HugePageMemory.free(ByteBuffer.allocate(100)))
        .isInstanceOf(IllegalArgumentException.class);
    HugePageMemory.free(b);
    assertThatThrownBy(() -> HugePageMemory.free(b)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("freed already");
  }

  @Test
  void sizesOutsideAnIntAreRefused() {
    assertThatThrownBy(() -> HugePageMemory.allocate(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HugePageMemory.allocate(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HugePageMemory.allocate(1L << 31)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void freedMappingsGoBackToTheSystem() throws IOException {
    long before = residentKb();
    int bytes = 64 << 20;
    ByteBuffer b = HugePageMemory.allocate(bytes);
    for (int i = 0; i < bytes; i += 4096) {
      b.put(i, (byte) 1);
    }
    long touched = residentKb();
    HugePageMemory.free(b);
    long after = residentKb();
    assertThat(touched - before).as("resident kB once touched").isGreaterThanOrEqualTo(48 << 10);
    assertThat(touched - after).as("resident kB given back by free").isGreaterThanOrEqualTo(48 << 10);
  }

  /** Where the kernel's transparent huge pages are on for advised memory, the buffers get them. */
  @Test
  void advisedMappingsGetHugePagesWhereTheKernelOffersThem() throws IOException {
    Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    assumeTrue(Files.isReadable(setting) && !Files.readString(setting).contains("[never]"),
        "transparent huge pages are off here");
    assumeTrue(System.getProperty("beton.test.emulator") == null,
        "under an emulator: qemu-user takes madvise(MADV_HUGEPAGE) as a hint it may ignore, and does");
    long before = anonHugeKb();
    int bytes = 16 << 20;
    ByteBuffer b = HugePageMemory.allocate(bytes);
    try {
      for (int i = 0; i < bytes; i += 4096) {
        b.put(i, (byte) 1);
      }
      // the kernel may fall back to small pages where it finds no free 2 MiB block, so not all 8 are required
      assertThat(anonHugeKb() - before).as("kB of this process in huge pages").isGreaterThanOrEqualTo(2048);
    } finally {
      HugePageMemory.free(b);
    }
  }

  private static long residentKb() throws IOException {
    return statusKb("/proc/self/status", "VmRSS:");
  }

  private static long anonHugeKb() throws IOException {
    return statusKb("/proc/self/smaps_rollup", "AnonHugePages:");
  }

  private static long statusKb(String file, String key) throws IOException {
    for (String line : Files.readAllLines(Path.of(file))) {
      if (line.startsWith(key)) {
        return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
      }
    }
    throw new IllegalStateException(key + " not in " + file);
  }
}
