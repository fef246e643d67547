package org.sparkbeton.codec.jpeg;

class JavaStrictDecodeTest extends StrictDecodeContractTest {
  @Override
  JpegCodec newCodec(Strictness strictness) {
    return new JavaJpegCodec(strictness);
  }
}
