package org.sparkbeton.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.resize.Resizer;

class ImageTranscoderTest {
  final JpegCodec codec = JpegCodecs.fastest();

  @AfterEach
  void close() {
    codec.close();
  }

  @Test
  void smallJpegIsPassedThroughUnchanged() {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    ImageTranscoder.Result r = new ImageTranscoder(codec, 512, 90, ChromaSubsampling.S420).transcode(jpeg);
    assertThat(r.passedThrough()).isTrue();
    assertThat(r.jpeg()).isSameAs(jpeg);
    assertThat(r.width()).isEqualTo(333);
    assertThat(r.height()).isEqualTo(251);
  }

  @Test
  void largeJpegIsResizedWithFfcvRuleAndReencoded() {
    ImageTranscoder.Result r = new ImageTranscoder(codec, 100, 90, ChromaSubsampling.S444)
        .transcode(TestImages.image("texture-420.jpg"));
    assertThat(r.passedThrough()).isFalse();
    assertThat(r.width()).isEqualTo(100);
    assertThat(r.height()).isEqualTo(75); // (int)(100/333*251) = 75
    JpegHeader h = new JpegHeader();
    codec.probe(ByteBuffer.wrap(r.jpeg()), h);
    assertThat(h.toString()).isEqualTo("100x75 3ch YCBCR S444 baseline");
    // the DCT-scaled (1/2) decode + area resize matches a full decode + area resize of the master
    RgbPixels back = ImageDecoder.decode(r.jpeg());
    RgbPixels master = ImageDecoder.decode(TestImages.image("texture.png"));
    ByteBuffer expected = ByteBuffer.allocate(100 * 75 * 3);
    new Resizer(false).area(ByteBuffer.wrap(master.pixels()), 0, 333 * 3, 0, 0, 333, 251, expected, 0, 100, 75);
    double psnr = TestImages.psnr(expected.array(), back.pixels());
    assertThat(psnr).as("PSNR of the transcoded image against the resized master").isGreaterThan(30);
  }

  @Test
  void nonJpegAndRotatedOrCmykJpegAreDecodedAndEncoded() {
    ImageTranscoder t = new ImageTranscoder(codec, 1000, 90, ChromaSubsampling.S420);
    for (String name : new String[] {"quad.png", "quad.webp", "quad-exif6.jpg", "quad-cmyk-adobe.jpg"}) {
      ImageTranscoder.Result r = t.transcode(TestImages.image(name));
      assertThat(r.passedThrough()).as(name).isFalse();
      assertThat(r.width()).as(name).isEqualTo(64);
      assertThat(r.height()).as(name).isEqualTo(48);
      RgbPixels back = ImageDecoder.decode(r.jpeg());
      int[] tl = TestImages.pixel(back.pixels(), 64, 16, 12);
      assertThat(tl[0]).as(name + " red quadrant").isGreaterThan(170);
      assertThat(tl[1]).as(name + " red quadrant").isLessThan(80);
    }
  }

  @Test
  void argumentsAreValidated() {
    assertThatThrownBy(() -> new ImageTranscoder(codec, 0, 90, ChromaSubsampling.S420))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxResolution must be positive, got 0");
    assertThatThrownBy(() -> new ImageTranscoder(codec, 10, 101, ChromaSubsampling.S420))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("JPEG quality must be 1..100, got 101");
  }
}
