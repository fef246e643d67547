package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.loader.CropDecodersTest.Row;
import org.sparkbeton.loader.bench.DecodeLimit;
import org.sparkbeton.loader.decoders.CropRgbDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.pipeline.SampleContext;

/**
 * The decode limit decodes exactly what the loader decodes: the region {@link DecodeLimit#plan} picks (the
 * decoder's box, the loader's DCT-scale rule), decoded with the same codec call and resized as the loader's stage
 * resizes, gives the loader's pixels byte for byte.
 */
class DecodeLimitPlanTest {
  static final int OUT_H = 48;
  static final int OUT_W = 40;

  @TempDir
  Path dir;

  @Test
  void dctScaleIsTheSmallestFastScaleWhoseBoxCoversTheOutput() {
    // 1/8 of 2000x1800 is 250x225, still >= 224x224
    assertThat(CropRgbDecoder.dctScale(2000, 1800, 224, 224)).isEqualTo(1);
    // 1/8 of 1000 is 125 < 224; 1/4 is 250
    assertThat(CropRgbDecoder.dctScale(1000, 900, 224, 224)).isEqualTo(2);
    assertThat(CropRgbDecoder.dctScale(500, 460, 224, 224)).isEqualTo(4);
    // one side too short at 1/2 (447 / 2 = 223): full size
    assertThat(CropRgbDecoder.dctScale(447, 600, 224, 224)).isEqualTo(8);
    // smaller than the output: full size, the resize enlarges
    assertThat(CropRgbDecoder.dctScale(100, 80, 224, 224)).isEqualTo(8);
  }

  @Test
  void planDecodesTheLoadersPixels() throws IOException, InterruptedException {
    List<byte[]> payloads = JpegDatasets.list();
    int n = 20;
    Path file = JpegDatasets.jpegs(dir, "jpegs", n, CropDecodersTest.JPEG_SIZES, payloads);
    List<Row> rows = CropDecodersTest.load(file, new RandomResizedCropRgbDecoder(OUT_H, OUT_W), 2, 2, 3);
    int[][] sizes = new int[n][];
    for (int i = 0; i < n; i++) {
      sizes[i] = CropDecodersTest.JPEG_SIZES[i % CropDecodersTest.JPEG_SIZES.length];
    }
    DecodeLimit.Images images = DecodeLimit.Images.of(payloads, sizes);
    int maxPixels = 520 * 390;
    ByteBuffer pixels = ByteBuffer.allocateDirect(maxPixels * 3);
    ByteBuffer out = ByteBuffer.allocateDirect(OUT_H * OUT_W * 3);
    SampleContext ctx = new SampleContext(3, 0);
    Resizer resizer = new Resizer();
    int[] box = new int[4];
    int[] layout = new int[2];
    int[] scales = new int[9];
    assertThat(rows).hasSize(2 * n);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (Row r : rows) {
        int m = DecodeLimit.plan(images, r.sample(), DecodeLimit.RANDOM_RESIZED, OUT_H, OUT_W, ctx, r.epoch(), box);
        scales[m]++;
        long got = codec.decodeRegionPadded(images.jpegs()[r.sample()].duplicate(), box[1], box[0], box[3], box[2], m,
            Idct.FAST, pixels, 0, layout);
        resizer.resize(pixels, 0, layout[1] * 3, layout[0], 0, ImageSize.width(got), ImageSize.height(got), out, 0,
            OUT_W, OUT_H);
        byte[] expected = new byte[OUT_H * OUT_W * 3];
        out.get(0, expected);
        assertThat(Arrays.mismatch(r.pixels(), expected)).as("first differing byte, epoch %d sample %d, box %s at"
            + " %d/8", r.epoch(), r.sample(), Arrays.toString(box), m).isEqualTo(-1);
      }
    }
    // the rule was exercised at several scales, not only at full size
    assertThat(scales[8]).isPositive();
    assertThat(scales[4] + scales[2] + scales[1]).isPositive();
    DecodeLimit.Rate rate = DecodeLimit.resizeEpoch(images, DecodeLimit.RANDOM_RESIZED, OUT_H, OUT_W, 3, 2, 0);
    assertThat(rate.images()).isEqualTo(n);
    assertThat(rate.wallNanos()).isPositive();
  }

  @Test
  void resizeEpochNeedsAnOutputSize() {
    DecodeLimit.Images images = DecodeLimit.Images.of(List.of(JpegDatasets.jpeg(0, 64, 48)), new int[][] {{64, 48}});
    assertThatThrownBy(() -> DecodeLimit.resizeEpoch(images, DecodeLimit.WHOLE, 0, 224, 1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("resizeEpoch needs an output size, got 0x224");
  }
}
