package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

class JavaCorruptInputTest extends CorruptInputContractTest {
  @Override
  JpegCodec newCodec() {
    return new JavaJpegCodec();
  }

  @Test
  void progressiveCoefficientsOverTheBoundAreRefusedBeforeImageIoReads() {
    // under the pixel limit, but the JDK's libjpeg under ImageIO buffers a progressive image's coefficients for
    // the whole declared size in native memory, outside the heap limit, even for a small region (12.9 GB for a
    // 65500x65500 header before the bound): the Java codec estimates them (chroma at full size) and refuses
    byte[] large = resized(TestImages.image("texture-progressive.jpg"), 15000, 15000);
    assertThatThrownBy(() -> codec.decodeRegion(ByteBuffer.wrap(large), 1, 1, 16, 16, 4, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessageStartingWith("Java JPEG decode failed: progressive image too large (15000x15000, 3 components:");
  }
}
