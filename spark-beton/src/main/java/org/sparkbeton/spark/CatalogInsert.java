package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.spark.write.BetonWriteOptions;

/**
 * How an {@code INSERT} into a beton table writes, so that its rows join the dataset as the table shows it: each
 * image field of the dataset is an image column of the write (its {@code _width}, {@code _height} and {@code _mode}
 * columns, which reads add, left out), with the image settings the dataset's manifest records (write mode, size,
 * JPEG quality and subsampling), unless the table's options say otherwise. Stored JPEGs read back from the table
 * then pass through as they are; new images are resized and encoded as the rest were.
 *
 * @param dropColumns columns of the inserted rows to leave out
 * @param options the write's options
 */
record CatalogInsert(List<String> dropColumns, Map<String, String> options) {
  private static final String[] IMAGE_PARTS = {"_width", "_height", "_mode"};
  /** Recipe keys of the manifest and the write options they give back. */
  private static final Map<String, String> RECIPE_OPTIONS = Map.of("write_mode", BetonWriteOptions.WRITE_MODE,
      "max_resolution", BetonWriteOptions.MAX_RESOLUTION, "min_resolution", BetonWriteOptions.MIN_RESOLUTION,
      "jpeg_quality", BetonWriteOptions.JPEG_QUALITY, "jpeg_subsampling", BetonWriteOptions.JPEG_SUBSAMPLING);

  /**
   * The insert of rows with {@code columns} into the dataset {@code stored} (null: the table holds no dataset yet,
   * and the rows are written with {@code tableOptions} alone).
   */
  static CatalogInsert of(DatasetManifest stored, List<String> columns, Map<String, String> tableOptions) {
    Map<String, String> options = new LinkedHashMap<>(tableOptions);
    List<String> drop = new ArrayList<>();
    if (stored == null) {
      return new CatalogInsert(drop, options);
    }
    List<String> images = new ArrayList<>();
    for (ManifestField f : stored.fields()) {
      if (f.typeId() == FieldTypes.RGB_IMAGE) {
        images.add(f.name());
        for (String part : IMAGE_PARTS) {
          columns.stream().filter((f.name() + part)::equalsIgnoreCase).forEach(drop::add);
        }
      }
    }
    if (images.isEmpty() || given(options, BetonWriteOptions.IMAGE_COLUMNS)) {
      return new CatalogInsert(drop, options);
    }
    options.put(BetonWriteOptions.IMAGE_COLUMNS, String.join(",", images));
    RECIPE_OPTIONS.forEach((recipeKey, option) -> {
      String value = stored.recipe().get(recipeKey);
      if (value != null && !value.equals("none") && !given(options, option)) {
        options.put(option, value);
      }
    });
    return new CatalogInsert(drop, options);
  }

  private static boolean given(Map<String, String> options, String option) {
    String lower = option.toLowerCase(Locale.ROOT);
    return options.keySet().stream().anyMatch(k -> k.toLowerCase(Locale.ROOT).equals(lower));
  }
}
