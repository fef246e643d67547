package org.sparkbeton.spark.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.CheckedSource;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.io.BetonSource;

/**
 * Opens one shard and checks it against what the driver planned from the manifest or headers: the file's
 * size, its sample count and its fields, and, when the manifest has page checksums and
 * {@link BetonReadOptions#VERIFY_CHECKSUMS} is on, every page as it is first read ({@link CheckedSource}). Shared
 * by the executors' partition readers and the driver's metadata aggregation, so both refuse a shard that is not
 * what the dataset says for the same reasons.
 */
final class ShardOpener {
  private ShardOpener() {}

  /**
   * Opens {@code source} (the returned reader owns it; on failure it is closed).
   *
   * @param expectedBytes the size the manifest promises, or -1 to skip the check
   * @param expectedSamples the sample count the manifest promises, or -1 to skip the check
   * @param pages the manifest's page checksums of the shard, or null when it has none
   */
  static BetonReader open(BetonSource source, long expectedBytes, long expectedSamples, PageChecksums pages,
      BetonSchema schema, ReadConf conf) throws IOException {
    return open(source, expectedBytes, expectedSamples, pages, schema, conf, false);
  }

  /**
   * As {@link #open(BetonSource, long, long, PageChecksums, BetonSchema, ReadConf)}; with {@code recordsOnly}
   * the shard's allocation table is not read ({@link ReadOptions#withoutAllocationTable()}), for a reader of
   * metadata records alone.
   */
  static BetonReader open(BetonSource source, long expectedBytes, long expectedSamples, PageChecksums pages,
      BetonSchema schema, ReadConf conf, boolean recordsOnly) throws IOException {
    String file = source.name();
    if (expectedBytes >= 0 && source.length() != expectedBytes) {
      long length = source.length();
      source.close();
      throw new BetonFormatException(file, "file", Math.min(length, expectedBytes),
          "shard is " + length + " bytes but the manifest says " + expectedBytes);
    }
    ReadOptions options = ReadOptions.defaults();
    if (recordsOnly) {
      options.withoutAllocationTable();
    }
    for (Map.Entry<String, ReadConf.CustomLayout> e : conf.customFields().entrySet()) {
      ReadConf.CustomLayout l = e.getValue();
      options.customField(e.getKey(), args -> new RawMetadataField(l.size(), l.alignment()));
    }
    BetonSource checked = checksPages(pages, conf) ? new CheckedSource(source, pages) : source;
    BetonReader reader = BetonReader.open(checked, options);
    try {
      List<ManifestField> actual = new ArrayList<>();
      for (BetonField f : reader.fields()) {
        actual.add(ManifestField.of(f));
      }
      List<ManifestField> expected = new ArrayList<>();
      schema.columns().forEach(c -> {
        if (!expected.contains(c.field())) {
          expected.add(c.field());
        }
      });
      if (!actual.equals(expected)) {
        throw new BetonFormatException(file, "field descriptors", 24,
            "fields " + actual + " differ from the dataset's fields " + expected);
      }
      if (expectedSamples >= 0 && reader.numSamples() != expectedSamples) {
        throw new BetonFormatException(file, "header", 8,
            "shard holds " + reader.numSamples() + " samples but the manifest says " + expectedSamples);
      }
      return reader;
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** True when a shard with these page checksums is read through {@link CheckedSource}. */
  static boolean checksPages(PageChecksums pages, ReadConf conf) {
    return pages != null && conf.verifyChecksums();
  }
}
