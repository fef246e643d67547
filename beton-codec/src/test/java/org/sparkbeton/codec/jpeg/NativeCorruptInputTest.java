package org.sparkbeton.codec.jpeg;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

class NativeCorruptInputTest extends CorruptInputContractTest {
  @BeforeAll
  static void nativeLoaded() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
  }

  @Override
  JpegCodec newCodec() {
    return new NativeJpegCodec();
  }
}
