package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.spark.write.BetonWriteOptions;

/**
 * How an {@code INSERT} into a beton table writes, so that its rows join the dataset as the table shows it: each
 * image field of the dataset is an image column of the write (its {@code _width}, {@code _height} and {@code _mode}
 * columns, which reads add, left out: dropped here when the rows are the user's, left to the write when a beton
 * read gave them), with the image settings the dataset's manifest records (write mode, size, JPEG quality and
 * subsampling, the {@code smart} and {@code proportion} settings), unless the table's options say otherwise. Stored
 * JPEGs read back from the table then pass through as they are; new images are resized and encoded as the rest were.
 *
 * @param dropColumns columns of the inserted rows to leave out
 * @param options the write's options
 */
record CatalogInsert(List<String> dropColumns, Map<String, String> options) {
  private static final String[] IMAGE_PARTS = {"_width", "_height", "_mode"};

  /**
   * The insert of rows with {@code columns} into the dataset {@code stored} (null: the table holds no dataset yet,
   * and the rows are written with {@code tableOptions} alone).
   */
  static CatalogInsert of(DatasetManifest stored, StructType columns, Map<String, String> tableOptions) {
    Map<String, String> options = new LinkedHashMap<>(tableOptions);
    List<String> drop = new ArrayList<>();
    if (stored == null) {
      return new CatalogInsert(drop, options);
    }
    options = new LinkedHashMap<>(BetonWriteOptions.withArrayShapes(options, stored, columns));
    List<String> images = new ArrayList<>();
    for (ManifestField f : stored.fields()) {
      if (f.typeId() == FieldTypes.RGB_IMAGE) {
        images.add(f.name());
        for (String part : IMAGE_PARTS) {
          // those a beton read gave (the table's own rows) describe their image to the write, which leaves them out
          Arrays.stream(columns.fields()).filter(c -> c.name().equalsIgnoreCase(f.name() + part))
              .filter(c -> !c.metadata().contains(ColumnAnnotations.IMAGE_PART)).map(StructField::name)
              .forEach(drop::add);
        }
      }
    }
    if (images.isEmpty() || BetonWriteOptions.given(options, BetonWriteOptions.IMAGE_COLUMNS)) {
      return new CatalogInsert(drop, options);
    }
    options.put(BetonWriteOptions.IMAGE_COLUMNS, String.join(",", images));
    return new CatalogInsert(drop, BetonWriteOptions.withRecipe(options, stored.recipe()));
  }
}
