package org.sparkbeton.loader.transforms;

import org.sparkbeton.loader.pipeline.BatchContext;
import org.sparkbeton.loader.pipeline.SampleRandom;

/**
 * The mixing weights of a batch, λ ~ Beta(α, α), one for the batch or one per row, drawn from the
 * batch's generator ({@link BatchContext#random(long)}, seeded like FFCV by the batch's last sample)
 * so ImageMixup and LabelMixup with the same α agree. Beta from two Marsaglia–Tsang gammas.
 */
public final class MixupLambdas {
  static final long STREAM = 0x4d49585550L; // "MIXUP"

  private MixupLambdas() {}

  public static double[] draw(BatchContext ctx, double alpha, boolean sameLambda) {
    SampleRandom r = ctx.random(STREAM);
    double[] lam = new double[ctx.size()];
    if (sameLambda) {
      java.util.Arrays.fill(lam, beta(r, alpha));
    } else {
      for (int i = 0; i < lam.length; i++) {
        lam[i] = beta(r, alpha);
      }
    }
    return lam;
  }

  static double beta(SampleRandom r, double a) {
    double x = gamma(r, a);
    double y = gamma(r, a);
    return x + y == 0 ? 0.5 : x / (x + y);
  }

  static double gamma(SampleRandom r, double a) {
    if (a < 1) {
      double u = 1 - r.nextDouble(); // (0, 1]
      return gamma(r, a + 1) * Math.pow(u, 1 / a);
    }
    double d = a - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x;
      double v;
      do {
        x = normal(r);
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      double u = r.nextDouble();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return d * v;
      }
    }
  }

  static double normal(SampleRandom r) {
    while (true) {
      double u = 2 * r.nextDouble() - 1;
      double v = 2 * r.nextDouble() - 1;
      double s = u * u + v * v;
      if (s > 0 && s < 1) {
        return u * Math.sqrt(-2 * Math.log(s) / s);
      }
    }
  }

  static void checkAlpha(String op, double alpha) {
    if (!(alpha > 0)) {
      throw new IllegalArgumentException(op + " alpha must be positive, got " + alpha);
    }
  }
}
