package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;

/**
 * The image columns of a DataFrame read with {@code format("beton")}, known by the annotations the read puts in
 * their metadata ({@link ColumnAnnotations}), which Spark keeps through filters, projections, joins and renames.
 * A write of such rows stores them as the dataset held them: each image column is an image column without being
 * listed in {@code imageColumns}, its {@code _width}, {@code _height} and {@code _mode} columns describe its
 * payload instead of being stored ({@link BetonSchemaMapping}), and the image settings the dataset's manifest
 * records apply where the write's options give none ({@link BetonWriteOptions#withRecipe}): a subset of a dataset
 * of JPEGs at 256 px is a dataset of the same JPEGs, passed through, not one of raw pixels.
 */
final class ReadImageColumns {
  private ReadImageColumns() {}

  /**
   * {@code options} with the image columns of {@code schema} that come from beton reads added to
   * {@code imageColumns}, and their datasets' image settings where the options give none.
   *
   * @throws IllegalArgumentException when such columns come from datasets whose image settings differ and the
   *     options do not say how to store them
   */
  static Map<String, String> options(StructType schema, Map<String, String> options) {
    List<String> names = new ArrayList<>();
    Map<String, String> recipe = Map.of();
    String recipeColumn = null;
    boolean differ = false;
    for (StructField f : schema.fields()) {
      if (!isImageValue(f)) {
        continue;
      }
      names.add(f.name());
      Map<String, String> own = recipe(f.metadata());
      if (recipe.isEmpty()) {
        recipe = own;
        recipeColumn = f.name();
      } else if (!own.isEmpty() && !own.equals(recipe)) {
        if (!BetonWriteOptions.given(options, BetonWriteOptions.WRITE_MODE)) {
          throw new IllegalArgumentException("Image columns '" + recipeColumn + "' and '" + f.name() + "' were read"
              + " from datasets that stored their images differently (" + recipe + " and " + own + "): give the"
              + " write's options writeMode, maxResolution and jpegQuality to say how to store them");
        }
        differ = true; // the options given decide; neither dataset's settings are added
      }
    }
    if (names.isEmpty()) {
      return options;
    }
    Map<String, String> out = new LinkedHashMap<>(options);
    String listed = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(BetonWriteOptions.IMAGE_COLUMNS)) {
        listed = e.getKey();
      }
    }
    List<String> columns = new ArrayList<>();
    if (listed != null) {
      for (String c : options.get(listed).split(",")) {
        if (!c.isBlank()) {
          columns.add(c.trim());
        }
      }
      out.remove(listed);
    }
    for (String n : names) {
      if (columns.stream().noneMatch(n::equalsIgnoreCase)) {
        columns.add(n);
      }
    }
    out.put(BetonWriteOptions.IMAGE_COLUMNS, String.join(",", columns));
    return differ ? out : BetonWriteOptions.withRecipe(out, recipe);
  }

  /**
   * Whether {@code f} is an image field's value as a beton read gives it: stored or decoded bytes, or Spark's image
   * struct.
   */
  static boolean isImageValue(StructField f) {
    Metadata m = f.metadata();
    if (!m.contains(ColumnAnnotations.TYPE) || m.contains(ColumnAnnotations.IMAGE_PART)
        || !FieldTypes.name(FieldTypes.RGB_IMAGE).equals(m.getString(ColumnAnnotations.TYPE))) {
      return false;
    }
    return f.dataType() instanceof BinaryType ? m.contains(ColumnAnnotations.IMAGE_PAYLOAD)
        : BetonSchemaMapping.isImageStruct(f.dataType());
  }

  /** Whether the value column {@code f} holds decoded RGB bytes (a read with {@code imageMode=raw}). */
  static boolean holdsRgb(StructField f) {
    return ColumnAnnotations.PAYLOAD_RGB.equals(annotation(f, ColumnAnnotations.IMAGE_PAYLOAD));
  }

  /**
   * The columns of {@code schema} that a beton read added for the image in {@code image} (same dataset, same field):
   * its width, height and mode columns, under whatever names they have now, and those of its copies in a self-join.
   */
  static List<Integer> partsOf(StructType schema, StructField image) {
    List<Integer> out = new ArrayList<>();
    StructField[] fields = schema.fields();
    for (int j = 0; j < fields.length; j++) {
      if (part(fields[j]) != null && sameImage(image, fields[j])) {
        out.add(j);
      }
    }
    return out;
  }

  /**
   * Where the width, height and mode of image column {@code i} are: its own columns (of its dataset and field) when
   * there is one of each, else, where a self-join doubled them, the ones named as a read names them
   * ({@code <column>_width}, ...); null when that does not settle it or one is missing.
   */
  static ColumnPlan.ImageParts parts(StructType schema, int i) {
    StructField image = schema.fields()[i];
    int[] byKind = {-1, -1, -1};
    int[] byName = {-1, -1, -1};
    int[] count = new int[3];
    for (int j : partsOf(schema, image)) {
      StructField f = schema.fields()[j];
      int kind = switch (part(f)) {
        case ColumnAnnotations.PART_WIDTH -> f.dataType() instanceof IntegerType ? 0 : -1;
        case ColumnAnnotations.PART_HEIGHT -> f.dataType() instanceof IntegerType ? 1 : -1;
        case ColumnAnnotations.PART_MODE -> f.dataType() instanceof StringType ? 2 : -1;
        default -> -1;
      };
      if (kind < 0) {
        continue;
      }
      count[kind]++;
      byKind[kind] = j;
      if (f.name().equalsIgnoreCase(image.name() + "_" + part(f))) {
        byName[kind] = j;
      }
    }
    int[] chosen = new int[3];
    for (int k = 0; k < 3; k++) {
      chosen[k] = count[k] == 1 ? byKind[k] : byName[k];
      if (chosen[k] < 0) {
        return null;
      }
    }
    return new ColumnPlan.ImageParts(chosen[0], chosen[1], chosen[2], holdsRgb(image));
  }

  /** Whether every payload of image column {@code f} is a JPEG: the bytes as stored by a {@code jpg} dataset. */
  static boolean allJpeg(StructField f) {
    Metadata m = f.metadata();
    String mode = ColumnAnnotations.RECIPE_PREFIX + "write_mode";
    return !holdsRgb(f) && m.contains(mode) && "jpg".equals(m.getString(mode));
  }

  /** The dataset image column {@code f} was read from, for messages. */
  static String dataset(StructField f) {
    return annotation(f, ColumnAnnotations.DATASET);
  }

  private static boolean sameImage(StructField image, StructField part) {
    return java.util.Objects.equals(field(image), field(part))
        && java.util.Objects.equals(dataset(image), dataset(part));
  }

  private static String annotation(StructField f, String key) {
    return f.metadata().contains(key) ? f.metadata().getString(key) : null;
  }

  /** The image field {@code f} was read from, or null when it is not annotated. */
  static String field(StructField f) {
    return annotation(f, ColumnAnnotations.FIELD);
  }

  /** Which part of an image field {@code f} holds ({@link ColumnAnnotations#PART_WIDTH} ...), or null. */
  static String part(StructField f) {
    return annotation(f, ColumnAnnotations.IMAGE_PART);
  }

  private static Map<String, String> recipe(Metadata m) {
    Map<String, String> r = new LinkedHashMap<>();
    for (String entry : ColumnAnnotations.IMAGE_RECIPE) {
      if (m.contains(ColumnAnnotations.RECIPE_PREFIX + entry)) {
        r.put(entry, m.getString(ColumnAnnotations.RECIPE_PREFIX + entry));
      }
    }
    return r;
  }
}
