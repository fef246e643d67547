package org.sparkbeton.codec.jpeg;

class JavaJpegCodecTest extends JpegCodecContractTest {
  @Override
  JpegCodec newCodec() {
    return new JavaJpegCodec();
  }

  @Override
  int regionMaxDiff() {
    // DCT scaling is emulated as a window of one area resize, so region == crop exactly
    return 0;
  }

  @Override
  double regionMeanDiff() {
    return 0.0;
  }

  @Override
  int colourTolerance(String name) {
    return name.contains("cmyk") || name.contains("ycck") ? 40 : 6;
  }
}
