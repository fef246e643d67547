package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The {@link Plane} forms of the plane resizes write the bytes of the positional forms they stand for. */
class ResizerPlaneRecordTest {
  private static ByteBuffer noise(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    ByteBuffer b = ByteBuffer.allocateDirect(n);
    for (int i = 0; i < n; i++) {
      b.put(i, (byte) random.nextInt(256));
    }
    return b;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.capacity()];
    b.get(0, out);
    return out;
  }

  @Test
  void resizePlaneOfRecordsEqualsPositional() {
    ByteBuffer src = noise(7 + 61 * 40, 1);
    for (int[] out : new int[][] {{23, 17}, {90, 55}}) { // area and bilinear
      ByteBuffer a = ByteBuffer.allocateDirect(5 + out[0] * out[1]);
      ByteBuffer b = ByteBuffer.allocateDirect(5 + out[0] * out[1]);
      new Resizer().resizePlane(Plane.packed(src, 7, 61, 40), Plane.packed(a, 5, out[0], out[1]));
      new Resizer().resizePlane(src, 7, 61, 0, 0, 61, 40, b, 5, out[0], out[0], out[1]);
      assertThat(bytes(a)).isEqualTo(bytes(b)).isNotEqualTo(new byte[a.capacity()]);
    }
  }

  @Test
  void areaPlaneOfRecordsEqualsPositional() {
    ByteBuffer src = noise(31 * 21, 2);
    ByteBuffer a = ByteBuffer.allocateDirect(16 * 11);
    ByteBuffer b = ByteBuffer.allocateDirect(16 * 11);
    new Resizer().areaPlane(Plane.packed(src, 0, 31, 21), 2.0, 2.0, Plane.packed(a, 0, 16, 11));
    new Resizer().areaPlane(src, 0, 31, 31, 21, 2.0, 2.0, b, 0, 16, 16, 11);
    assertThat(bytes(a)).isEqualTo(bytes(b)).isNotEqualTo(new byte[a.capacity()]);
  }

  @Test
  void aPlanePastItsBufferIsRefused() {
    ByteBuffer src = noise(10 * 10, 3);
    ByteBuffer dst = ByteBuffer.allocateDirect(25);
    assertThatThrownBy(() -> new Resizer().resizePlane(Plane.packed(src, 1, 10, 10), Plane.packed(dst, 0, 5, 5)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Box 0,0 10x10 needs 101 source bytes, buffer has 100");
  }
}
