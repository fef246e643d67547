package org.sparkbeton.format.dataset;

import java.util.List;

/**
 * Names of the annotations a column of a table read from a dataset carries (Spark keeps them as the column's
 * metadata through filters, projections and joins), so that a write of that table can store each column as the
 * field it came from: an image field's payload as an image, its width, height and mode columns as part of it,
 * and its images stored the way the dataset's manifest says they were; an array as its dtype and shape.
 */
public final class ColumnAnnotations {
  private ColumnAnnotations() {}

  /** The name of the field the column was read from. */
  public static final String FIELD = "beton.field";
  /**
   * On an image field's columns: the dataset (or file) they were read from, which with {@link #FIELD} tells the
   * parts of one image apart from another's after a join.
   */
  public static final String DATASET = "beton.dataset";
  /** The field's type name ({@code FieldTypes.name}), e.g. {@code RGBImage}. */
  public static final String TYPE = "beton.type";
  /** On an NDArray or TorchTensor field's column: its numpy dtype ({@code <f4}). */
  public static final String DTYPE = "beton.dtype";
  /** On an NDArray or TorchTensor field's column: its shape (a long array). */
  public static final String SHAPE = "beton.shape";
  /** On an image field's value column: {@link #PAYLOAD_STORED} or {@link #PAYLOAD_RGB}. */
  public static final String IMAGE_PAYLOAD = "beton.image_payload";
  /** The image as stored: JPEG bytes, or H x W x 3 RGB bytes where the image is stored raw. */
  public static final String PAYLOAD_STORED = "stored";
  /** The image decoded: H x W x 3 RGB bytes whatever the image's stored mode. */
  public static final String PAYLOAD_RGB = "rgb";
  /**
   * On the extra columns a read adds for an image field: {@link #PART_WIDTH}, {@link #PART_HEIGHT} or
   * {@link #PART_MODE}.
   */
  public static final String IMAGE_PART = "beton.image_part";
  public static final String PART_WIDTH = "width";
  public static final String PART_HEIGHT = "height";
  /** The stored mode, {@code jpg} or {@code raw}. */
  public static final String PART_MODE = "mode";
  /** Prefix of the manifest recipe's entries of {@link #IMAGE_RECIPE} on an image field's value column. */
  public static final String RECIPE_PREFIX = "beton.recipe.";
  /** The entries of a manifest's recipe that say how its images were stored. */
  public static final List<String> IMAGE_RECIPE = List.of("write_mode", "max_resolution", "min_resolution",
      "jpeg_quality", "jpeg_subsampling", "compress_probability", "smart_threshold", "seed");
}
