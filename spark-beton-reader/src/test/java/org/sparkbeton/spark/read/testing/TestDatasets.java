package org.sparkbeton.spark.read.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.JsonField;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Writes {@code .beton} files and dataset directories with the core writer and {@link DatasetManifest}, as the
 * Spark writer makes them (checksums, page checksums, min/max), without Spark.
 */
public final class TestDatasets {
  /** image (raw), label, weight, bytes, json, arr ({@code <f4} 2x3), tensor ({@code <i2} (4,)). */
  public static final List<BetonField> EVERY_FIELD = List.of(
      new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE),
      new BetonField("weight", FloatField.INSTANCE),
      new BetonField("bytes", BytesField.INSTANCE),
      new BetonField("json", JsonField.INSTANCE),
      new BetonField("arr", NdArrayField.ndarray("<f4", 2, 3)),
      new BetonField("tensor", NdArrayField.torchTensor(NumpyDtype.of("<i2"), 4)));

  private TestDatasets() {}

  /** Sample {@code i} of {@link #EVERY_FIELD}: deterministic, label = i % 10, weight = i / 4.0. */
  public static Object[] everyFieldSample(int i) {
    Random r = new Random(1000 + i);
    int w = 2 + i % 5;
    int h = 1 + i % 3;
    byte[] rgb = new byte[w * h * 3];
    r.nextBytes(rgb);
    byte[] bytes = new byte[i % 7 + 1];
    r.nextBytes(bytes);
    float[] arr = new float[6];
    for (int k = 0; k < arr.length; k++) {
      arr[k] = r.nextFloat() - 0.5f;
    }
    short[] tensor = {(short) i, (short) -i, Short.MAX_VALUE, Short.MIN_VALUE};
    return new Object[] {RgbImage.raw(w, h, rgb), (long) (i % 10), i / 4.0, bytes,
        "{\"i\": " + i + ", \"s\": \"caf\u00e9\"}", arr, tensor};
  }

  public static List<Object[]> everyFieldSamples(int from, int to) {
    List<Object[]> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(everyFieldSample(i));
    }
    return out;
  }

  /** Writes one standalone file with 2 MiB pages. */
  public static Path writeFile(Path file, List<BetonField> fields, List<Object[]> samples) {
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(BetonFormat.MIN_PAGE_SIZE).open(file)) {
      for (Object[] s : samples) {
        w.append(s);
      }
      w.finish();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes a dataset directory: one shard per element of {@code shards} (named
   * {@code part-0000N.beton}), then {@code _manifest.json} with checksums, page checksums and Int/Float min/max.
   */
  public static DatasetManifest writeDataset(Path dir, List<BetonField> fields, List<List<Object[]>> shards) {
    try {
      Files.createDirectories(dir);
      List<ShardEntry> entries = new ArrayList<>();
      for (int s = 0; s < shards.size(); s++) {
        String name = String.format("part-%05d.beton", s);
        Path file = writeFile(dir.resolve(name), fields, shards.get(s));
        entries.add(new ShardEntry(name, shards.get(s).size(), Files.size(file), sha256(file), stats(fields, shards.get(s)),
            pageChecksums(file)));
      }
      List<ManifestField> mf = new ArrayList<>();
      fields.forEach(f -> mf.add(ManifestField.of(f)));
      DatasetManifest manifest = new DatasetManifest(mf, entries, Map.of("writer", "TestDatasets"), "spark-beton tests");
      Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), manifest.toJson(), StandardCharsets.UTF_8);
      return manifest;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, ColumnStats> stats(List<BetonField> fields, List<Object[]> samples) {
    Map<String, ColumnStats> out = new LinkedHashMap<>();
    for (int f = 0; f < fields.size(); f++) {
      int type = fields.get(f).typeId();
      if (type != FieldTypes.INT && type != FieldTypes.FLOAT) {
        continue;
      }
      ColumnStats.Accumulator acc = type == FieldTypes.INT ? ColumnStats.Accumulator.forInts()
          : ColumnStats.Accumulator.forFloats();
      for (Object[] s : samples) {
        if (type == FieldTypes.INT) {
          acc.add(((Number) s[f]).longValue());
        } else {
          acc.add(((Number) s[f]).doubleValue());
        }
      }
      out.put(fields.get(f).name(), acc.result());
    }
    return out;
  }

  /** The file's page checksums, as the Spark writer computes them while it streams a shard out. */
  public static PageChecksums pageChecksums(Path file) throws IOException {
    try (BetonReader reader = BetonReader.open(file)) {
      return PageChecksums.compute(reader);
    }
  }

  public static ShardChecksum sha256(Path file) throws IOException {
    return new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256));
  }

}
