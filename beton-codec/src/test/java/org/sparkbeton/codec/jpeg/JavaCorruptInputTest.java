package org.sparkbeton.codec.jpeg;

class JavaCorruptInputTest extends CorruptInputContractTest {
  @Override
  JpegCodec newCodec() {
    return new JavaJpegCodec();
  }
}
