package org.sparkbeton.loader.doctor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.sparkbeton.loader.doctor.Diagnosis.Bound;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.Resource;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;

/**
 * From measurements to advice. Training gets the smallest of three limits: what the CPUs deliver (decode and
 * augmentation on the loader's threads), what storage feeds with the chosen order and cache, and what the
 * consumer takes. The smallest is the bound; each candidate change sets new limits (measured on the sample, or
 * computed for orders and caches), and its gain is the new smallest over the old. Changes that gain under 5% are
 * not worth making, and say why.
 */
final class Prescriber {
  /** Below this predicted gain a change is listed as not worth it. */
  static final double WORTH = 1.05;
  /** A limit this far above what training gets is headroom worth mentioning. */
  static final double HEADROOM = 2;

  /**
   * A possible change: its new CPU and storage limits in images/s (NaN: unchanged).
   *
   * @param evidence what the new limits rest on
   */
  record Candidate(String id, String what, String how, double cpu, double storage, String evidence) {}

  private Prescriber() {}

  static Diagnosis prescribe(Setup setup, Measured m, List<Candidate> candidates) {
    double cpu = m.pipelinePerSecond();
    double storage = m.reads().steadyLimit();
    double consumer = m.consumerPerSecond();
    double now = Math.min(cpu, Math.min(storage, consumer));
    Bound bound = bound(setup, m, cpu, storage, consumer);

    List<Change> changes = new ArrayList<>();
    List<String> notWorth = new ArrayList<>();
    if (bound.resource() == Resource.CONSUMER) {
      notWorth.add("the loader is not your bottleneck: it delivers " + Units.rate(Math.min(cpu, storage))
          + " and your step consumes " + Units.number(consumer));
    }
    for (Candidate c : candidates) {
      double newCpu = Double.isNaN(c.cpu()) ? cpu : c.cpu();
      double newStorage = Double.isNaN(c.storage()) ? storage : c.storage();
      double predicted = Math.min(newCpu, Math.min(newStorage, consumer));
      double gain = predicted / now;
      double loaderGain = Math.min(newCpu, newStorage) / Math.min(cpu, storage);
      if (gain >= WORTH) {
        changes.add(new Change(c.id(), c.what(), c.how(), predicted, gain, c.evidence()));
      } else if (loaderGain >= WORTH) {
        notWorth.add(c.what() + ": the loader would deliver " + Units.rate(Math.min(newCpu, newStorage)) + " ("
            + Units.times(loaderGain) + "), but training stays at " + Units.rate(now) + " because "
            + bound.resource().words() + " bounds it (" + c.evidence() + ")");
      } else {
        notWorth.add(c.what() + ": no gain (" + c.evidence() + ")");
      }
    }
    changes.sort(Comparator.comparingDouble(Change::gain).reversed());
    if (bound.resource() != Resource.STORAGE && storage >= HEADROOM * now) {
      notWorth.add("storage: " + (Double.isInfinite(storage) ? m.reads().description()
          : "it feeds " + Units.rate(storage) + ", " + Units.times(storage / now) + " what training takes"));
    }
    boolean cpuBound = bound.resource() == Resource.DECODE || bound.resource() == Resource.AUGMENT;
    if (!cpuBound && cpu >= HEADROOM * now) {
      notWorth.add("decode and augmentation: " + threads(setup.threads()) + " " + Units.rate(cpu) + ", "
          + Units.times(cpu / now) + " what training takes");
    }
    return new Diagnosis(setup, m, bound, List.copyOf(changes), List.copyOf(notWorth));
  }

  /** The resource with the smallest limit, the next one, and a sentence with both. */
  static Bound bound(Setup setup, Measured m, double cpu, double storage, double consumer) {
    Resource cpuResource = m.perThread().augmentShare() > m.perThread().decodeShare() ? Resource.AUGMENT
        : Resource.DECODE;
    Resource[] resources = {cpuResource, Resource.STORAGE, Resource.CONSUMER};
    double[] limits = {cpu, storage, consumer};
    int first = 0;
    for (int i = 1; i < 3; i++) {
      if (limits[i] < limits[first]) {
        first = i;
      }
    }
    int second = first == 0 ? 1 : 0;
    for (int i = 0; i < 3; i++) {
      if (i != first && limits[i] < limits[second]) {
        second = i;
      }
    }
    Resource r = resources[first];
    double rate = limits[first];
    String next = Double.isInfinite(limits[second]) ? ""
        : "; the next limit is " + words(resources[second], setup) + " at " + Units.rate(limits[second]) + " ("
            + Units.times(limits[second] / rate) + ")";
    String summary = switch (r) {
      case CONSUMER -> "the consumer (your training step) bounds training: it takes " + Units.rate(rate)
          + " and the loader could deliver " + Units.rate(Math.min(cpu, storage)) + " ("
          + Units.times(Math.min(cpu, storage) / rate) + ")";
      case STORAGE -> "storage bounds training: it feeds " + Units.rate(rate) + " (" + m.reads().description() + ")"
          + next;
      case DECODE, AUGMENT -> words(r, setup) + " bounds training: " + threads(setup.threads()) + " "
          + Units.rate(rate) + ", "
          + Units.percent(r == Resource.DECODE ? m.perThread().decodeShare() : m.perThread().augmentShare())
          + " of the workers' time " + (r == Resource.DECODE ? "decoding" : "in augmentations") + next;
    };
    return new Bound(r, rate, resources[second], limits[second], summary);
  }

  /** "1 thread delivers", "8 threads deliver". */
  static String threads(int n) {
    return n == 1 ? "1 thread delivers" : n + " threads deliver";
  }

  /** "JPEG decode" when most images are JPEGs, else "image decode (crop + resize)"; the other resources as named. */
  static String words(Resource r, Setup setup) {
    if (r == Resource.DECODE) {
      return setup.dataset().jpegFraction() >= 0.5 ? "JPEG decode" : "image decode (crop + resize)";
    }
    return r.words();
  }
}
