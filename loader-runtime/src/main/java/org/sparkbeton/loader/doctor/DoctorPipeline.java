package org.sparkbeton.loader.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.loader.bench.DecodeLimit;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * The image pipelines {@code beton doctor} and {@code beton bench} run, as a training loop would: a decoder, then
 * augmentations ending in ImageNet-normalized float16 channels-first tensors (the loader's fused pixel pass).
 * Without normalization ({@code normalize} false) the output is uint8 [H, W, 3], for a GPU that normalizes.
 */
public enum DoctorPipeline {
  /** Training: RandomResizedCrop 224, horizontal flip, normalize to float16, channels first. */
  RRC224("RandomResizedCrop 224 + flip + normalize float16 NCHW", 224),
  /** Validation: the centred crop of ratio 224/256 resized to 224, normalize to float16, channels first. */
  CENTER224("CenterCrop 224 (ratio 224/256) + normalize float16 NCHW", 224),
  /** The stored images as they are (all of one size, like CIFAR), flip, normalize to float16, channels first. */
  SIMPLE("SimpleRGB + flip + normalize float16 NCHW", 0);

  /** ImageNet's mean and standard deviation in 0..255 units. */
  static final double[] MEAN = {123.675, 116.28, 103.53};
  static final double[] STD = {58.395, 57.12, 57.375};

  private final String description;
  private final int side;

  DoctorPipeline(String description, int side) {
    this.description = description;
    this.side = side;
  }

  /** The name on the command line: {@code rrc224}, {@code center224}, {@code simple}. */
  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The pipeline named {@code flag} on the command line. */
  public static DoctorPipeline of(String flag) {
    for (DoctorPipeline p : values()) {
      if (p.flag().equals(flag)) {
        return p;
      }
    }
    throw new IllegalArgumentException("Unknown pipeline '" + flag + "': expected rrc224, center224 or simple");
  }

  public String description() {
    return description;
  }

  /** The output side (224), or 0 when the output is the stored size (SimpleRGB). */
  public int side() {
    return side;
  }

  /** True when the output size does not depend on the stored size, so storing images smaller keeps the output. */
  public boolean crops() {
    return side > 0;
  }

  /** A new decoder (each loader gets its own; it owns its JPEG codec). */
  public Decoder decoder() {
    return switch (this) {
      case RRC224 -> new RandomResizedCropRgbDecoder(side, side);
      case CENTER224 -> new CenterCropRgbDecoder(side, side, 224.0 / 256);
      case SIMPLE -> new SimpleRgbDecoder();
    };
  }

  /** The augmentations after the decoder; without {@code normalize}, uint8 [H, W, 3] out. */
  public Operation[] operations(boolean normalize) {
    List<Operation> ops = new ArrayList<>();
    if (this != CENTER224) {
      ops.add(new RandomHorizontalFlip());
    }
    if (normalize) {
      ops.add(new NormalizeImage(MEAN, STD, DType.FLOAT16));
      ops.add(new ToChannelsFirst());
    }
    return ops.toArray(new Operation[0]);
  }

  /** The boxes {@code decoder} (one of this pipeline's) decodes, for {@link DecodeLimit}. */
  public DecodeLimit.Crop crop(Decoder decoder) {
    return switch (this) {
      case RRC224 -> ((RandomResizedCropRgbDecoder) decoder)::cropBox;
      case CENTER224 -> ((CenterCropRgbDecoder) decoder)::cropBox;
      case SIMPLE -> DecodeLimit.WHOLE;
    };
  }
}
