package org.sparkbeton.codec.pixels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

class ChannelLookupTest {
  static final int PIXELS = 37 * 23;

  /** Every value of the three table kinds, both layouts, at odd offsets: the expected bytes written out by hand. */
  @Test
  void javaLoopWritesEachChannelsTableEntryInEitherLayout() {
    Random rnd = new Random(5);
    ByteBuffer in = image(rnd, false);
    for (Object table : tables(rnd)) {
      for (boolean planar : new boolean[] {false, true}) {
        int elem = elem(table);
        ByteBuffer out = ByteBuffer.allocate(3 + PIXELS * 3 * elem);
        ChannelLookup.apply(in, 1, PIXELS, table, planar, out, 3, false);
        ByteBuffer le = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < PIXELS; i++) {
          for (int c = 0; c < 3; c++) {
            int v = c * 256 + (in.get(1 + 3 * i + c) & 0xFF);
            int at = 3 + (planar ? c * PIXELS + i : 3 * i + c) * elem;
            long got = elem == 1 ? le.get(at) : elem == 2 ? le.getShort(at) : le.getInt(at);
            long want = elem == 1 ? ((byte[]) table)[v] : elem == 2 ? ((short[]) table)[v] : ((int[]) table)[v];
            assertThat(got).as("pixel %d channel %d, %d-byte values, planar %s", i, c, elem, planar).isEqualTo(want);
          }
        }
      }
    }
  }

  @Test
  void nativeTwinWritesTheJavaLoopsBytes() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    Random rnd = new Random(9);
    ByteBuffer in = image(rnd, true);
    for (Object table : tables(rnd)) {
      for (boolean planar : new boolean[] {false, true}) {
        int bytes = 5 + PIXELS * 3 * elem(table) + 7;
        ByteBuffer java = ByteBuffer.allocateDirect(bytes);
        ByteBuffer nat = ByteBuffer.allocateDirect(bytes);
        ChannelLookup.apply(in, 1, PIXELS, table, planar, java, 5, false);
        ChannelLookup.apply(in, 1, PIXELS, table, planar, nat, 5, true);
        assertThat(nat).as("%d-byte values, planar %s", elem(table), planar).isEqualTo(java);
        assertThat(nat.get(bytes - 7)).isZero(); // nothing past the output
      }
    }
  }

  @Test
  void badArgumentsAreRefusedBeforeAnyByteIsWritten() {
    ByteBuffer in = ByteBuffer.allocateDirect(30);
    ByteBuffer out = ByteBuffer.allocateDirect(60);
    assertThatThrownBy(() -> ChannelLookup.apply(in, 0, 10, new short[768], true, out, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10 pixels from byte 0 of 30 to byte 1 of 60");
    assertThatThrownBy(() -> ChannelLookup.apply(in, 1, 10, new byte[768], true, out, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChannelLookup.apply(in, 0, 10, new long[768], true, out, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got long[]");
    assertThatThrownBy(() -> ChannelLookup.apply(in, 0, 10, new byte[256], true, out, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("768 entries");
    assertThatThrownBy(() -> ChannelLookup.apply(in, 0, 10, new byte[768], true, out.asReadOnlyBuffer(), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("read-only");
  }

  private static ByteBuffer image(Random rnd, boolean direct) {
    byte[] px = new byte[1 + PIXELS * 3];
    rnd.nextBytes(px);
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(px.length) : ByteBuffer.allocate(px.length);
    return b.put(0, px);
  }

  private static Object[] tables(Random rnd) {
    byte[] u8 = new byte[768];
    short[] f16 = new short[768];
    int[] f32 = new int[768];
    rnd.nextBytes(u8);
    for (int i = 0; i < 768; i++) {
      f16[i] = (short) rnd.nextInt();
      f32[i] = rnd.nextInt();
    }
    return new Object[] {u8, f16, f32};
  }

  private static int elem(Object table) {
    return table instanceof byte[] ? 1 : table instanceof short[] ? 2 : 4;
  }
}
