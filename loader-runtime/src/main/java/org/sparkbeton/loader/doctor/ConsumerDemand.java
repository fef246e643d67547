package org.sparkbeton.loader.doctor;

/**
 * What the training step asks of the loader: a time per batch ({@code --consumer-ms}) or a rate in images/s
 * ({@code --consumer-rate}); exactly one is positive. The doctor stands in for the step by sleeping that long
 * after each batch, so the consumer takes no CPU, like a GPU step.
 */
public record ConsumerDemand(double millisPerBatch, double imagesPerSecond) {
  public ConsumerDemand {
    if ((millisPerBatch > 0) == (imagesPerSecond > 0) || !Double.isFinite(millisPerBatch)
        || !Double.isFinite(imagesPerSecond) || millisPerBatch < 0 || imagesPerSecond < 0) {
      throw new IllegalArgumentException("A consumer demand is a positive time per batch or a positive rate, got "
          + millisPerBatch + " ms per batch and " + imagesPerSecond + " images/s");
    }
  }

  public static ConsumerDemand millisPerBatch(double ms) {
    return new ConsumerDemand(ms, 0);
  }

  public static ConsumerDemand imagesPerSecond(double rate) {
    return new ConsumerDemand(0, rate);
  }

  /** Images/s the step consumes at {@code batch} images per step. */
  public double rate(int batch) {
    return imagesPerSecond > 0 ? imagesPerSecond : batch / (millisPerBatch / 1e3);
  }

  /** How long the step takes per batch of {@code batch} images. */
  public long nanosPerBatch(int batch) {
    return imagesPerSecond > 0 ? Math.round(batch / imagesPerSecond * 1e9) : Math.round(millisPerBatch * 1e6);
  }

  /** As the user gave it: {@code --consumer-ms 40} or {@code --consumer-rate 600}. */
  public String flag() {
    return imagesPerSecond > 0 ? "--consumer-rate " + plain(imagesPerSecond) : "--consumer-ms " + plain(millisPerBatch);
  }

  private static String plain(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
