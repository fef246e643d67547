package org.sparkbeton.format.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class JpegSofTest {
  /** SOI, an APP0 segment of 4 bytes, a fill byte, then SOF0 for a 50x40 three-component frame. */
  private static final int[] HEADER = {0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF,
      0xFF, 0xC0, 0, 17, 8, 0, 40, 0, 50, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1};

  @Test
  void readsTheFrameSizeAfterOtherSegmentsAndFillBytes() {
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(HEADER)))).containsExactly(50, 40);
  }

  @Test
  void findsTheSegmentInPlaceInsideALargerBuffer() {
    byte[] header = bytes(HEADER);
    byte[] padded = new byte[7 + header.length + 5];
    System.arraycopy(header, 0, padded, 7, header.length);
    ByteBuffer b = ByteBuffer.wrap(padded);
    int sof = JpegSof.find(b, 7, header.length);
    assertThat(sof).isEqualTo(7 + 9);
    assertThat(JpegSof.width(b, sof)).isEqualTo(50);
    assertThat(JpegSof.height(b, sof)).isEqualTo(40);
    // the same bytes seen through a buffer's position and limit
    assertThat(JpegSof.dimensions(b.position(7).limit(7 + header.length))).containsExactly(50, 40);
  }

  @Test
  void readsProgressiveAndExtendedFramesButNotHuffmanOrArithmeticTables() {
    int[] progressive = HEADER.clone();
    progressive[10] = 0xC2;
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(progressive)))).containsExactly(50, 40);
    int[] dht = HEADER.clone();
    dht[10] = 0xC4; // a Huffman table segment of the same length, with no frame after it
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(dht)))).isNull();
  }

  @Test
  void refusesWhatHasNoReadableFrameHeader() {
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}))).isNull();
    // a scan before any frame
    int[] scanFirst = HEADER.clone();
    scanFirst[10] = 0xDA;
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(scanFirst)))).isNull();
    // cut inside the frame segment: its length runs past the data
    assertThat(JpegSof.find(ByteBuffer.wrap(bytes(HEADER)), 0, HEADER.length - 1)).isEqualTo(-1);
    // a frame segment too short to hold the size
    int[] shortFrame = {0xFF, 0xD8, 0xFF, 0xC0, 0, 6, 8, 0, 40, 0};
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(shortFrame)))).isNull();
    // garbage where a marker should start
    int[] garbage = HEADER.clone();
    garbage[8] = 0x12;
    assertThat(JpegSof.dimensions(ByteBuffer.wrap(bytes(garbage)))).isNull();
  }

  private static byte[] bytes(int[] values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }
}
