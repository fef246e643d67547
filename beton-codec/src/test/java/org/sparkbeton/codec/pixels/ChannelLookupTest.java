package org.sparkbeton.codec.pixels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;
import org.sparkbeton.format.fields.Float16;

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

  /** NormalizeImage's table: float16 of the float32 value of (v - mean) / std, computed in double. */
  private static float[] normalizeValues(double[] mean, double[] std) {
    float[] values = new float[768];
    for (int c = 0; c < 3; c++) {
      for (int v = 0; v < 256; v++) {
        values[256 * c + v] = (float) ((v - mean[c]) / std[c]);
      }
    }
    return values;
  }

  private static short[] halves(float[] values) {
    short[] table = new short[768];
    for (int i = 0; i < 768; i++) {
      table[i] = Float16.fromFloat(values[i]);
    }
    return table;
  }

  /**
   * The computed float16 planes equal the lookup's bytes for normalizations that FFCV users run (ImageNet's
   * mean and std on the 0..255 scale, CIFAR's, identity-like and negative scales) at pixel counts around the
   * 16-pixel step, so the table-driven tail is covered too.
   */
  @Test
  void computedFloat16PlanesEqualTheLookupWhereAFitIsFound() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    double[][][] normalizations = {
        {{0.485 * 255, 0.456 * 255, 0.406 * 255}, {0.229 * 255, 0.224 * 255, 0.225 * 255}},
        {{125.307, 122.961, 113.8575}, {51.5865, 50.847, 51.255}},
        {{0, 0, 0}, {1, 1, 1}},
        {{127.5, 127.5, 127.5}, {-127.5, 64, 0.5}}};
    Random rnd = new Random(13);
    int fits = 0;
    for (double[][] n : normalizations) {
      float[] values = normalizeValues(n[0], n[1]);
      short[] table = halves(values);
      float[] affine = ChannelLookup.fitHalfAffine(table);
      if (affine == null) {
        continue; // allowed (the lookup stays), but see the count below
      }
      fits++;
      for (int pixels : new int[] {0, 1, 15, 16, 17, 31, 33, PIXELS}) {
        ByteBuffer in = ByteBuffer.allocateDirect(1 + 3 * pixels);
        byte[] px = new byte[3 * pixels];
        rnd.nextBytes(px);
        in.put(1, px);
        int bytes = 3 + 6 * pixels + 5;
        ByteBuffer looked = ByteBuffer.allocateDirect(bytes);
        ByteBuffer computed = ByteBuffer.allocateDirect(bytes);
        ChannelLookup.apply(in, 1, pixels, table, true, looked, 3, false);
        ChannelLookup.applyHalfPlanes(in, 1, pixels, table, affine, computed, 3);
        assertThat(computed).as("mean %s std %s, %d pixels", java.util.Arrays.toString(n[0]),
            java.util.Arrays.toString(n[1]), pixels).isEqualTo(looked);
      }
    }
    if (affineKernel()) {
      assertThat(fits).as("normalizations with an exact float fit").isGreaterThanOrEqualTo(3);
    } else {
      assertThat(fits).as("fits where the computed kernel does not exist (the lookup stays)").isZero();
    }
  }

  /** The computed float16 kernel is x86-64 code (AVX2, FMA, F16C; every CPU of this project's machines has them). */
  private static boolean affineKernel() {
    String arch = System.getProperty("os.arch");
    return arch.equals("amd64") || arch.equals("x86_64");
  }

  /** Every byte value of every channel, through the computed path: the whole table, not a sample of it. */
  @Test
  void aFitReproducesEveryEntryOfItsTable() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    float[] values = normalizeValues(new double[] {123.675, 116.28, 103.53}, new double[] {58.395, 57.12, 57.375});
    short[] table = halves(values);
    float[] affine = ChannelLookup.fitHalfAffine(table);
    Assumptions.assumeTrue(affine != null, "no exact float fit on this CPU");
    ByteBuffer in = ByteBuffer.allocateDirect(3 * 256);
    for (int v = 0; v < 256; v++) {
      in.put(3 * v, (byte) v).put(3 * v + 1, (byte) (255 - v)).put(3 * v + 2, (byte) (v * 7));
    }
    ByteBuffer out = ByteBuffer.allocateDirect(6 * 256).order(ByteOrder.LITTLE_ENDIAN);
    ChannelLookup.applyHalfPlanes(in, 0, 256, table, affine, out, 0);
    for (int v = 0; v < 256; v++) {
      assertThat(out.getShort(2 * v)).isEqualTo(table[v]);
      assertThat(out.getShort(512 + 2 * v)).isEqualTo(table[256 + 255 - v]);
      assertThat(out.getShort(1024 + 2 * v)).isEqualTo(table[512 + ((v * 7) & 255)]);
    }
  }

  /** A map that is not affine, or an affine table with one entry off by one bit, gets no fit. */
  @Test
  void tablesNoFloatPairReproducesGetNoFit() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    float[] gamma = new float[768];
    for (int i = 0; i < 768; i++) {
      gamma[i] = (float) Math.pow((i & 255) / 255.0, 2.2);
    }
    assertThat(ChannelLookup.fitHalfAffine(halves(gamma))).isNull();
    float[] values = normalizeValues(new double[] {123.675, 116.28, 103.53}, new double[] {58.395, 57.12, 57.375});
    short[] table = halves(values);
    Assumptions.assumeTrue(ChannelLookup.fitHalfAffine(table) != null, "no exact float fit on this CPU");
    table[512 + 200] ^= 1;
    assertThat(ChannelLookup.fitHalfAffine(table)).isNull();
    assertThatThrownBy(() -> ChannelLookup.fitHalfAffine(new short[767]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("768");
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
