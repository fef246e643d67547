package org.sparkbeton.loader.decoders;

import org.sparkbeton.loader.pipeline.SampleContext;

/**
 * FFCV's {@code CenterCropRGBImageDecoder}: the centred square of side {@code c = int(ratio·min(H, W))},
 * top {@code (H−c)//2}, left {@code (W−c)//2} (docs/format.md#decoders), then INTER_AREA resize to
 * {@code outH x outW}; images of any size, RAW or JPEG (only the box is decoded, see {@link CropRgbDecoder}).
 */
public final class CenterCropRgbDecoder extends CropRgbDecoder {
  private final double ratio;

  /** JPEGs through beton-codec ({@link JpegCodecPool#fastest()}), freed when the last loader using this closes. */
  public CenterCropRgbDecoder(int outH, int outW, double ratio) {
    this(outH, outW, ratio, JpegCodecPool.fastest(), true);
  }

  /** With a codec the caller owns ({@link JpegCodecPool#NONE}: RAW images only). */
  public CenterCropRgbDecoder(int outH, int outW, double ratio, JpegCodecPool codec) {
    this(outH, outW, ratio, codec, false);
  }

  private CenterCropRgbDecoder(int outH, int outW, double ratio, JpegCodecPool codec, boolean ownsCodec) {
    super(outH, outW, codec, ownsCodec);
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException("CenterCropRGB ratio must be in (0, 1], got " + ratio);
    }
    this.ratio = ratio;
  }

  @Override
  public String name() {
    return "CenterCropRGB";
  }

  @Override
  void box(int height, int width, SampleContext ctx, int[] box) {
    int c = Math.max(1, (int) (ratio * Math.min(height, width)));
    box[0] = (height - c) / 2;
    box[1] = (width - c) / 2;
    box[2] = c;
    box[3] = c;
  }
}
