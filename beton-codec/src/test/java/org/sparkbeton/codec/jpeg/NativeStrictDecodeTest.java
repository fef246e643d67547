package org.sparkbeton.codec.jpeg;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

class NativeStrictDecodeTest extends StrictDecodeContractTest {
  @BeforeAll
  static void nativeLoaded() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
  }

  @Override
  JpegCodec newCodec(Strictness strictness) {
    return new NativeJpegCodec(strictness);
  }
}
