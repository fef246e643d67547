package org.sparkbeton.loader.decoders;

import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;

/**
 * FFCV's {@code RandomResizedCropRGBImageDecoder}: a random box by torchvision's RandomResizedCrop rule
 * (docs/format.md#decoders), then INTER_AREA resize to {@code outH x outW}; images of any size, RAW or JPEG (see
 * {@link CropRgbDecoder} for how only the box is decoded). The box depends only on (seed, epoch, sample
 * index): it is drawn from the sample's generator, so it does not change with threads or batch position.
 */
public final class RandomResizedCropRgbDecoder extends CropRgbDecoder {
  private final double scaleMin;
  private final double scaleMax;
  private final double logRatioMin;
  private final double logRatioMax;
  private final double ratioMin;
  private final double ratioMax;

  /** scale (0.08, 1), ratio (3/4, 4/3), JPEGs through beton-codec. */
  public RandomResizedCropRgbDecoder(int outH, int outW) {
    this(outH, outW, 0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0);
  }

  /** JPEGs through beton-codec ({@link JpegCodecPool#fastest()}), freed when the last loader using this closes. */
  public RandomResizedCropRgbDecoder(int outH, int outW, double scaleMin, double scaleMax, double ratioMin,
      double ratioMax) {
    this(outH, outW, scaleMin, scaleMax, ratioMin, ratioMax, JpegCodecPool.fastest(), true);
  }

  /** With a codec the caller owns ({@link JpegCodecPool#NONE}: RAW images only). */
  public RandomResizedCropRgbDecoder(int outH, int outW, double scaleMin, double scaleMax, double ratioMin,
      double ratioMax, JpegCodecPool codec) {
    this(outH, outW, scaleMin, scaleMax, ratioMin, ratioMax, codec, false);
  }

  private RandomResizedCropRgbDecoder(int outH, int outW, double scaleMin, double scaleMax, double ratioMin,
      double ratioMax, JpegCodecPool codec, boolean ownsCodec) {
    super(outH, outW, codec, ownsCodec);
    if (!(scaleMin > 0 && scaleMin <= scaleMax && scaleMax <= 1)) {
      throw new IllegalArgumentException("RandomResizedCropRGB scale must satisfy 0 < min <= max <= 1, got ("
          + scaleMin + ", " + scaleMax + ")");
    }
    if (!(ratioMin > 0 && ratioMin <= ratioMax && Double.isFinite(ratioMax))) {
      throw new IllegalArgumentException("RandomResizedCropRGB ratio must satisfy 0 < min <= max, got ("
          + ratioMin + ", " + ratioMax + ")");
    }
    this.scaleMin = scaleMin;
    this.scaleMax = scaleMax;
    this.ratioMin = ratioMin;
    this.ratioMax = ratioMax;
    this.logRatioMin = Math.log(ratioMin);
    this.logRatioMax = Math.log(ratioMax);
  }

  @Override
  public String name() {
    return "RandomResizedCropRGB";
  }

  @Override
  void box(int height, int width, SampleContext ctx, int[] box) {
    box(height, width, ctx.random(), box);
  }

  /**
   * torchvision's rule (FFCV {@code get_random_crop}): 10 tries of area·U(scale) and exp(U(log ratio)),
   * {@code w = round(√(A·r))}, {@code h = round(√(A/r))} (round half to even, as Python); if the box fits,
   * {@code top = int(U(0, H−h+1))}, {@code left = int(U(0, W−w+1))}; else a centre crop clamped to the
   * ratio range. Writes top, left, height, width.
   */
  void box(int height, int width, SampleRandom random, int[] box) {
    double area = (double) height * width;
    for (int t = 0; t < 10; t++) {
      double target = area * uniform(random, scaleMin, scaleMax);
      double aspect = Math.exp(uniform(random, logRatioMin, logRatioMax));
      int w = (int) Math.rint(Math.sqrt(target * aspect));
      int h = (int) Math.rint(Math.sqrt(target / aspect));
      if (w > 0 && w <= width && h > 0 && h <= height) {
        box[0] = (int) uniform(random, 0, height - h + 1);
        box[1] = (int) uniform(random, 0, width - w + 1);
        box[2] = h;
        box[3] = w;
        return;
      }
    }
    double inRatio = (double) width / height;
    int w;
    int h;
    if (inRatio < ratioMin) {
      w = width;
      h = (int) Math.rint(w / ratioMin);
    } else if (inRatio > ratioMax) {
      h = height;
      w = (int) Math.rint(h * ratioMax);
    } else {
      w = width;
      h = height;
    }
    h = Math.max(1, Math.min(h, height));
    w = Math.max(1, Math.min(w, width));
    box[0] = (height - h) / 2;
    box[1] = (width - w) / 2;
    box[2] = h;
    box[3] = w;
  }

  /** numpy's {@code uniform(lo, hi)}: {@code lo + (hi − lo)·U[0, 1)}. */
  private static double uniform(SampleRandom random, double lo, double hi) {
    return lo + (hi - lo) * random.nextDouble();
  }
}
