package org.sparkbeton.loader.doctor;

import java.util.Locale;
import org.sparkbeton.loader.LoaderTimings;
import org.sparkbeton.loader.bench.DecodeLimit;

/** {@code beton bench --json}: the run as one JSON document, every epoch included (rates in images/s). */
public final class BenchJson {
  private BenchJson() {}

  public static String of(BenchReport r) {
    DatasetFacts f = r.dataset();
    DiagnosisJson.Json j = new DiagnosisJson.Json();
    j.open().field("dataset", f.name()).field("dataset_samples", f.samples()).field("samples_per_epoch", r.samples())
        .field("pipeline", r.pipeline().flag()).field("threads", r.threads()).field("batch", r.batch())
        .field("order", r.order().toLowerCase(Locale.ROOT)).field("cache", r.cache().toString())
        .field("codec", r.codec()).field("cores", r.cores()).field("load_average", r.loadAverage());
    j.key("epochs").array();
    for (BenchReport.Epoch e : r.epochs()) {
      LoaderTimings t = e.timings();
      j.open().field("images", e.images()).field("seconds", e.wallNanos() / 1e9).field("per_second", e.perSecond())
          .field("per_cpu_second", e.perCpuSecond()).field("decode_seconds", t.decode() / 1e9)
          .field("augment_seconds", t.augment() / 1e9).field("busy_seconds", t.busy() / 1e9)
          .field("page_wait_seconds", t.cacheWait() / 1e9).field("slot_wait_seconds", t.producerWait() / 1e9)
          .field("consumer_wait_seconds", t.consumerWait() / 1e9).close();
    }
    j.end();
    j.field("epoch1_per_second", r.epochs().get(0).perSecond()).field("rest_median_per_second", r.restMedian())
        .field("rest_min_per_second", r.restMin()).field("rest_max_per_second", r.restMax())
        .field("rest_median_per_cpu_second", r.restCpuMedian());
    j.key("decode_limit").array();
    for (DecodeLimit.Rate l : r.limits()) {
      j.open().field("per_second", l.perSecond()).field("per_cpu_second", l.perCpuSecond()).close();
    }
    j.end();
    double[] fraction = r.fractionOfLimit();
    j.field("fraction_of_decode_limit", r.limits().isEmpty() ? null : fraction[0])
        .field("fraction_of_decode_limit_cpu", r.limits().isEmpty() ? null : fraction[1])
        .field("decode_limit_note", r.limitNote());
    DiagnosisJson.staging(j, r.staging(), r.staged());
    j.close();
    return j + "\n";
  }
}
