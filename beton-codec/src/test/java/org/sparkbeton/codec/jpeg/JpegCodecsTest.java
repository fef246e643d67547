package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JpegCodecsTest {
  @Test
  void describesTheCodecInUseWithItsVersion() {
    String d = JpegCodecs.description();
    if (JpegCodecs.nativeAvailable()) {
      // the version of the headers the library was built against, as the writer records it
      assertThat(d).matches("libjpeg-turbo \\d+\\.\\d+\\.\\d+ \\(libjpeg API \\d+\\) through JNI");
    } else {
      assertThat(d).startsWith("javax.imageio with TwelveMonkeys ").endsWith(", pure Java");
    }
  }

  /** The driver tells the codec an executor used from the description the executor sent. */
  @Test
  void tellsTheNativeCodecFromADescription() {
    assertThat(JpegCodecs.namesNativeCodec(JpegCodecs.description())).isEqualTo(JpegCodecs.nativeAvailable());
    assertThat(JpegCodecs.namesNativeCodec("libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI")).isTrue();
    assertThat(JpegCodecs.namesNativeCodec("javax.imageio with TwelveMonkeys 3.12.0, pure Java")).isFalse();
  }
}
