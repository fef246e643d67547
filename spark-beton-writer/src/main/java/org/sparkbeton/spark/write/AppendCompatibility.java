package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.RecordedColumnTypes;

/**
 * Whether a write's rows can be appended to a dataset: the fields the write plans must be the dataset's, in its order,
 * since one manifest describes every shard. Checked on the driver before any task runs ({@link BetonBatchWrite}), so
 * a mismatch costs no job, and again when the manifest is published ({@link DatasetPublisher}), for a dataset
 * replaced meanwhile. The message names each column that differs and what would make it match: an image column left
 * out of {@code imageColumns} is stored as JSON or bytes, and the advice to overwrite would replace the dataset.
 */
final class AppendCompatibility {
  private AppendCompatibility() {}

  /**
   * Refuses to append {@code planned} (with the Spark types of their columns by name, for messages; any may be
   * missing) to {@code dataset} at {@code dir}, before any task runs.
   */
  static void require(String dir, DatasetManifest dataset, List<ManifestField> planned,
      Map<String, String> columnTypes) {
    differences(dataset, planned, columnTypes).ifPresent(d -> {
      throw new IllegalArgumentException("Cannot append to " + dir + ": the DataFrame's columns do not match the"
          + " dataset's fields, so nothing was written. " + d + ". " + instead(dataset));
    });
  }

  /**
   * Refuses to append rows whose recorded types ({@code written}, this write's recipe entries) count an Int field in
   * other units than the dataset's rows do: a date beside timestamps, a timestamp beside a timestamp without time zone
   * or a bigint. Read back as one type (the field's bigint), the days and the microseconds were mixed without a word.
   */
  static void requireSameUnits(String dir, DatasetManifest dataset, Map<String, String> written) {
    if (dataset.totalSamples() == 0) {
      return;
    }
    Map<String, String> before = RecordedColumnTypes.of(dataset.recipe());
    Map<String, String> after = RecordedColumnTypes.of(written);
    for (ManifestField f : dataset.fields()) {
      if (f.typeId() != FieldTypes.INT) {
        continue;
      }
      String was = before.get(f.name());
      String now = after.get(f.name());
      if (RecordedColumnTypes.unit(was).equals(RecordedColumnTypes.unit(now))) {
        continue;
      }
      throw new IllegalArgumentException("Cannot append to " + dir + ": column '" + f.name() + "' holds "
          + RecordedColumnTypes.sqlName(was) + " values in the dataset (" + RecordedColumnTypes.unit(was) + "), and"
          + " the DataFrame's " + RecordedColumnTypes.sqlName(now) + " values (" + RecordedColumnTypes.unit(now)
          + ") would be stored beside them in its one Int field, read back as one type that means something else"
          + " for one of them; nothing was written. " + (RecordedColumnTypes.isTime(was) ? "Cast the column to "
              + was.toLowerCase(Locale.ROOT) : "Convert it to the dataset's numbers yourself (unix_date(col) gives"
              + " a date's days, unix_micros(col) a timestamp's microseconds)") + ". " + instead(dataset));
    }
  }

  /**
   * What to do when the columns are what the user wants: replace the dataset deliberately, or write elsewhere (a
   * streaming query, which has no overwrite, only elsewhere).
   */
  static String instead(DatasetManifest dataset) {
    return "If these columns are the ones you want, write them to another path, or replace the dataset with"
        + " mode(\"overwrite\") (its " + dataset.totalSamples() + (dataset.totalSamples() == 1 ? " sample is"
        : " samples are") + " deleted); a streaming query has no overwrite: start it on another path, with a new"
        + " checkpointLocation";
  }

  /**
   * Each difference between {@code dataset}'s fields and {@code planned} with its fix, joined by {@code "; "};
   * empty when they are the same, or when the dataset holds no sample and has the planned columns by name, in their
   * order: its fields then become the write's ({@link #takesTheWritesFields}).
   */
  static Optional<String> differences(DatasetManifest dataset, List<ManifestField> planned,
      Map<String, String> columnTypes) {
    List<ManifestField> stored = dataset.fields();
    if (stored.equals(planned) || takesTheWritesFields(dataset, planned)) {
      return Optional.empty();
    }
    Map<String, String> recorded = RecordedColumnTypes.of(dataset.recipe());
    List<String> out = new ArrayList<>();
    List<ManifestField> extra = new ArrayList<>(planned);
    for (ManifestField d : stored) {
      ManifestField p = planned.stream().filter(f -> f.name().equals(d.name())).findFirst()
          .orElseGet(() -> planned.stream().filter(f -> f.name().equalsIgnoreCase(d.name())).findFirst().orElse(null));
      extra.remove(p);
      if (p == null) {
        out.add("the dataset's column '" + d.name() + "' (" + type(d) + ") is missing from the DataFrame");
      } else if (!p.name().equals(d.name())) {
        out.add("column '" + p.name() + "' is '" + d.name() + "' in the dataset: rename it");
      } else if (!p.equals(d)) {
        String spark = columnTypes.get(p.name());
        out.add("column '" + d.name() + "' is " + type(d) + " in the dataset, but the DataFrame's"
            + (spark == null ? "" : " " + spark) + " column would be stored as " + type(p) + ": "
            + fix(d, p, recorded.get(d.name())));
      }
    }
    for (ManifestField p : extra) {
      out.add("column '" + p.name() + "' is not in the dataset: drop it");
    }
    if (out.isEmpty()) {
      out.add("the columns are in another order: select them in the dataset's, "
          + stored.stream().map(ManifestField::name).collect(Collectors.joining(", ")));
    }
    return Optional.of(String.join("; ", out));
  }

  /** {@code Int}, {@code NDArray <f4 [3, 4]}. */
  /**
   * Whether an append to {@code dataset} publishes the write's fields instead of checking them against the
   * dataset's: an empty dataset of the same columns, as a create of a table writes before its first rows. A
   * stream's {@code toTable} into a new table of the path catalog creates it without the stream's write options
   * (Spark hands none to the create), an image column there as JSON; its first batch, with {@code imageColumns},
   * was refused, and every restart after it. No sample is stored in the fields that change.
   */
  static boolean takesTheWritesFields(DatasetManifest dataset, List<ManifestField> planned) {
    return dataset.totalSamples() == 0 && dataset.fields().stream().map(ManifestField::name).toList()
        .equals(planned.stream().map(ManifestField::name).toList());
  }

  private static String type(ManifestField f) {
    return FieldTypes.name(f.typeId()) + (f.dtype() == null ? "" : " " + f.dtype() + " " + Arrays.toString(f.shape()));
  }

  /** What makes column {@code p} be stored as {@code d}, whose recorded Spark type is {@code recorded} (or null). */
  private static String fix(ManifestField d, ManifestField p, String recorded) {
    String name = d.name();
    if (d.typeId() == FieldTypes.RGB_IMAGE) {
      return "name it in option imageColumns (.option(\"imageColumns\", \"" + name + "\")): strings there are paths"
          + " of image files, binary values encoded images";
    }
    if (p.typeId() == FieldTypes.RGB_IMAGE) {
      return "the dataset does not store it as images: leave it out of option imageColumns";
    }
    if (d.dtype() != null) {
      String shape = Arrays.stream(d.shape()).mapToObj(Long::toString).collect(Collectors.joining("x"));
      return "make it an array of " + element(d.dtype()) + " with option arrayShapes '" + name + ":" + shape + "'";
    }
    if (d.typeId() == FieldTypes.BYTES && RecordedColumnTypes.STRING.equals(recorded)) {
      return "the dataset stores its strings as UTF-8 bytes: set option stringEncoding to bytes";
    }
    return "cast it to " + (recorded != null ? recorded.toLowerCase(Locale.ROOT) : switch (d.typeId()) {
      case FieldTypes.INT -> "bigint";
      case FieldTypes.FLOAT -> "double";
      case FieldTypes.BYTES -> "binary";
      default -> "string";
    });
  }

  /** The Spark element type a write stores as {@code dtype} ({@link BetonSchemaMapping#numpyType}). */
  private static String element(String dtype) {
    return switch (dtype) {
      case "|b1" -> "boolean";
      case "|i1" -> "tinyint";
      case "<i2" -> "smallint";
      case "<i4" -> "int";
      case "<i8" -> "bigint";
      case "<f4" -> "float";
      case "<f8" -> "double";
      default -> "the numbers a beton read of the dataset gives (" + dtype + ")";
    };
  }
}
