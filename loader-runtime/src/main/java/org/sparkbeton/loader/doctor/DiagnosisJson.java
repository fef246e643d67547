package org.sparkbeton.loader.doctor;

import java.util.List;
import java.util.Locale;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;

/**
 * {@code beton doctor --json}: the same report as one JSON document. Rates are images/s; a limit that does not
 * exist (nothing read from storage, no consumer given) is {@code null}.
 */
public final class DiagnosisJson {
  private DiagnosisJson() {}

  public static String of(Diagnosis d) {
    Setup s = d.setup();
    DatasetFacts f = s.dataset();
    Measured m = d.measured();
    Json j = new Json();
    j.open();
    j.key("dataset").open().field("name", f.name()).field("files", f.files().size()).field("samples", f.samples())
        .field("image_field", f.imageField()).field("jpegs", f.jpegs()).field("raws", f.raws())
        .field("mean_payload_bytes", f.meanPayload()).field("median_side", f.medianSide())
        .field("max_side", f.maxSide()).field("page_size", f.pageSize()).field("pages", f.pages())
        .field("page_bytes", f.pageBytes()).field("file_bytes", f.fileBytes()).field("file_system", f.fileSystem())
        .field("memory_available", f.memoryAvailable()).close();
    j.key("setup").open().field("pipeline", s.pipeline().flag()).field("threads", s.threads())
        .field("batch", s.batch()).field("order", s.order().toLowerCase(Locale.ROOT)).field("cache", s.cache().toString())
        .field("read_through", s.readThrough()).field("codec", s.codec()).field("cores", s.cores())
        .field("load_average", s.loadAverage()).field("consumer", s.consumer() == null ? null : s.consumer().flag())
        .close();
    Diagnosis.Storage st = m.storage();
    j.key("measured").open()
        .key("storage").open().field("method", st.method()).field("uncached", st.uncached())
        .field("pages_per_second", st.pagesPerSecond()).field("page_bytes_per_second", st.pageBytesPerSecond())
        .field("payloads_per_second", st.payloadsPerSecond())
        .field("payload_bytes_per_second", st.payloadBytesPerSecond()).close()
        .key("reads").open().field("description", m.reads().description())
        .field("page_reads_per_sample", m.reads().pageReadsPerSample() < 0 ? null : m.reads().pageReadsPerSample())
        .field("miss_fraction", m.reads().missFraction()).field("steady_limit", m.reads().steadyLimit())
        .field("first_epoch_limit", m.reads().firstEpochLimit()).close()
        .key("per_thread").open().field("samples", m.perThread().samples())
        .field("decode_per_second", m.perThread().decodePerSecond())
        .field("augment_per_second", m.perThread().augmentPerSecond())
        .field("per_second", m.perThread().perSecond()).field("decode_share", m.perThread().decodeShare())
        .field("augment_share", m.perThread().augmentShare()).close()
        .field("pipeline_per_second", m.pipelinePerSecond()).field("consumer_per_second", m.consumerPerSecond())
        .key("end_to_end").open().field("seconds", m.endToEnd().seconds()).field("images", m.endToEnd().images())
        .field("per_second", m.endToEnd().perSecond()).field("waited_fraction", m.endToEnd().waitedFraction())
        .field("page_reads_per_sample", m.endToEnd().pageReadsPerSample() < 0 ? null
            : m.endToEnd().pageReadsPerSample()).close()
        .field("predicted_per_second", m.predictedPerSecond()).field("seconds", m.seconds());
    Diagnosis.Remote r = m.remote();
    if (r == null) {
      j.field("remote", null);
    } else {
      j.key("remote").open().field("uri", r.uri()).field("cache_dir", r.cacheDir()).field("cache_bytes", r.budget())
          .field("dataset_bytes", r.datasetBytes()).field("usable_bytes", r.usableBytes())
          .field("fits", r.fits()).field("downloads", r.downloads()).field("bytes_per_second", r.bytesPerSecond())
          .field("more_downloads", r.moreDownloads()).field("more_bytes_per_second", r.moreBytesPerSecond())
          .field("staging_per_second", r.stagingPerSecond());
      staging(j, null, r.endToEnd());
      j.close();
    }
    j.close();
    j.key("bound").open().field("resource", d.bound().resource().name().toLowerCase(Locale.ROOT))
        .field("per_second", d.bound().perSecond())
        .field("next", d.bound().next().name().toLowerCase(Locale.ROOT))
        .field("next_per_second", d.bound().nextPerSecond()).field("summary", d.bound().summary()).close();
    j.key("changes").array();
    for (Change c : d.changes()) {
      j.open().field("id", c.id()).field("what", c.what()).field("how", c.how())
          .field("predicted_per_second", c.predictedPerSecond()).field("gain", c.gain())
          .field("evidence", c.evidence()).close();
    }
    j.end();
    j.key("not_worth_changing").strings(d.notWorthChanging());
    j.close();
    return j.toString() + "\n";
  }

  /** {@code "staging": ..., "staged": {...}} (nulls for a local dataset). */
  static void staging(Json j, String staging, Diagnosis.Staged s) {
    if (staging != null) {
      j.field("staging", staging);
    }
    if (s == null) {
      j.field("staged", null);
      return;
    }
    j.key("staged").open().field("downloaded", s.downloaded()).field("fetched_bytes", s.fetchedBytes())
        .field("cached", s.cached()).field("retries", s.retries()).field("bytes_per_second", s.bytesPerSecond())
        .close();
  }

  /** A small JSON writer: commas and nesting kept right, numbers finite or null. */
  static final class Json {
    private final StringBuilder b = new StringBuilder();
    private boolean first = true;

    Json open() {
      comma();
      b.append('{');
      first = true;
      return this;
    }

    Json close() {
      b.append('}');
      first = false;
      return this;
    }

    Json array() {
      comma();
      b.append('[');
      first = true;
      return this;
    }

    Json end() {
      b.append(']');
      first = false;
      return this;
    }

    Json key(String k) {
      comma();
      b.append(JsonStrings.quote(k)).append(": ");
      first = true; // the value follows without a comma
      return this;
    }

    Json field(String k, Object v) {
      key(k);
      first = false;
      if (v == null) {
        b.append("null");
      } else if (v instanceof String str) {
        b.append(JsonStrings.quote(str));
      } else if (v instanceof Double x) {
        b.append(number(x));
      } else {
        b.append(v);
      }
      return this;
    }

    Json strings(List<String> values) {
      array();
      for (String v : values) {
        comma();
        b.append(JsonStrings.quote(v));
        first = false;
      }
      return end();
    }

    /** Six significant digits, plain notation; null for a value that is not finite (JSON has none). */
    static String number(double x) {
      if (!Double.isFinite(x)) {
        return "null";
      }
      if (x == Math.rint(x) && Math.abs(x) < 1e15) {
        return Long.toString((long) x);
      }
      return new java.math.BigDecimal(x).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private void comma() {
      if (!first) {
        b.append(", ");
      }
    }

    @Override
    public String toString() {
      return b.toString();
    }
  }
}
