package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

class NativeJpegCodecTest extends JpegCodecContractTest {
  @BeforeAll
  static void nativeLoaded() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
  }

  @Override
  JpegCodec newCodec() {
    return new NativeJpegCodec();
  }

  @Override
  int regionMaxDiff() {
    // fancy upsampling treats the crop/skip edge differently: a few pixels on the box border differ
    return 16;
  }

  @Override
  double regionMeanDiff() {
    return 0.1;
  }

  @Test
  void goldenJpegsDecodeToFfcvPixelsExactly() {
    for (TestImages.Golden g : TestImages.golden()) {
      byte[] rgb = decodeFull(g.bytes(), 8, Idct.FAST);
      assertThat(TestImages.sha256(rgb)).as(g.name()).isEqualTo(g.rgbSha256());
    }
  }

  @Test
  void accurateIdctDiffersFromFfcvPixelsButOnlySlightly() {
    TestImages.Golden g = TestImages.golden().get(39);
    byte[] fast = decodeFull(g.bytes(), 8, Idct.FAST);
    byte[] accurate = decodeFull(g.bytes(), 8, Idct.ACCURATE);
    assertThat(TestImages.sha256(accurate)).isNotEqualTo(g.rgbSha256());
    double[] d = TestImages.diff(fast, accurate);
    assertThat(d[0]).isBetween(1.0, 8.0);
    assertThat(d[1]).isLessThan(2.0);
  }

  @Test
  void fastestIsNativeWhenTheLibraryLoads() {
    try (JpegCodec c = JpegCodecs.fastest()) {
      assertThat(c.isNative()).isTrue();
      assertThat(c).isInstanceOf(NativeJpegCodec.class);
    }
  }

  @Test
  void heapDestinationGetsTheSameRegionAsDirect() {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    ByteBuffer heap = ByteBuffer.allocate(100 * 80 * 3);
    ByteBuffer direct = ByteBuffer.allocateDirect(100 * 80 * 3);
    long a = codec.decodeRegion(ByteBuffer.wrap(jpeg), 50, 40, 100, 80, 8, Idct.FAST, heap, 0);
    long b = codec.decodeRegion(ByteBuffer.wrap(jpeg), 50, 40, 100, 80, 8, Idct.FAST, direct, 0);
    assertThat(a).isEqualTo(b).isEqualTo(ImageSize.pack(100, 80));
    assertThat(TestImages.bytes(heap, 0, heap.capacity())).isEqualTo(TestImages.bytes(direct, 0, direct.capacity()));
  }
}
