package org.sparkbeton.loader.doctor;

import java.util.Arrays;
import java.util.List;
import org.sparkbeton.loader.LoaderTimings;
import org.sparkbeton.loader.bench.DecodeLimit;

/**
 * What {@code beton bench} measured: every epoch of the loader (the first includes building it), and, with
 * {@code --decode-limit}, the bare codec decoding the same crops next to each later epoch.
 *
 * @param samples samples per epoch (a random subset when fewer than the dataset's)
 * @param limits the decode limit of epochs 2.. (empty when not asked for or not measurable)
 * @param limitNote why there is no decode limit, or null
 * @param staging a remote dataset's shard cache and downloads in words, or null for a local one
 * @param staged what the loader's staging did over the run (null for a local dataset)
 */
public record BenchReport(DatasetFacts dataset, DoctorPipeline pipeline, int threads, int batch, String order,
                          CacheChoice cache, String codec, int cores, double loadAverage, int samples,
                          List<Epoch> epochs, List<DecodeLimit.Rate> limits, String limitNote, String staging,
                          Diagnosis.Staged staged) {

  /** One epoch of the loader: images, wall-clock and process CPU time, the loader's attribution of its time. */
  public record Epoch(long images, long wallNanos, long cpuNanos, LoaderTimings timings) {
    public double perSecond() {
      return images / (wallNanos / 1e9);
    }

    public double perCpuSecond() {
      return images / (cpuNanos / 1e9);
    }
  }

  /** Epochs 2.. (the steady ones). */
  public List<Epoch> rest() {
    return epochs.subList(1, epochs.size());
  }

  /** Median of epochs 2..'s images/s. */
  public double restMedian() {
    return median(rest().stream().mapToDouble(Epoch::perSecond).toArray());
  }

  public double restMin() {
    return rest().stream().mapToDouble(Epoch::perSecond).min().orElse(0);
  }

  public double restMax() {
    return rest().stream().mapToDouble(Epoch::perSecond).max().orElse(0);
  }

  public double restCpuMedian() {
    return median(rest().stream().mapToDouble(Epoch::perCpuSecond).toArray());
  }

  /** Epochs 2.. summed: the loader's attribution of worker time. */
  public LoaderTimings restTimings() {
    LoaderTimings t = rest().get(0).timings();
    for (Epoch e : rest().subList(1, rest().size())) {
      t = t.plus(e.timings());
    }
    return t;
  }

  public long restImages() {
    return rest().stream().mapToLong(Epoch::images).sum();
  }

  public long restWallNanos() {
    return rest().stream().mapToLong(Epoch::wallNanos).sum();
  }

  /** Median of the decode limit's images/s over epochs 2.. (0 without one). */
  public double limitMedian() {
    return median(limits.stream().mapToDouble(DecodeLimit.Rate::perSecond).toArray());
  }

  public double limitCpuMedian() {
    return median(limits.stream().mapToDouble(DecodeLimit.Rate::perCpuSecond).toArray());
  }

  /** Median over epochs 2.. of the loader's images/s over the limit's in the same epoch ({wall, CPU}). */
  public double[] fractionOfLimit() {
    if (limits.isEmpty()) {
      return new double[] {0, 0};
    }
    double[] wall = new double[limits.size()];
    double[] cpu = new double[limits.size()];
    for (int i = 0; i < wall.length; i++) {
      wall[i] = rest().get(i).perSecond() / limits.get(i).perSecond();
      cpu[i] = rest().get(i).perCpuSecond() / limits.get(i).perCpuSecond();
    }
    return new double[] {median(wall), median(cpu)};
  }

  static double median(double[] values) {
    if (values.length == 0) {
      return 0;
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
