package org.sparkbeton.loader;

import java.io.IOException;
import java.nio.file.Path;

/** Opens {@link Datasets} to tests in other packages. */
public final class DatasetsAccess {
  private DatasetsAccess() {}

  public static Path rawImages(Path dir, int n, int width, int height) throws IOException {
    return Datasets.rawImages(dir, n, width, height);
  }

  /** JPEGs of varying sizes ({width, height} pairs, cycled). */
  public static Path jpegImages(Path dir, int n, int[][] sizes) throws IOException {
    return JpegDatasets.jpegs(dir, "jpegs-" + n, n, sizes, JpegDatasets.list());
  }

  /** RAW images of varying sizes ({width, height} pairs, cycled). */
  public static Path rawImages(Path dir, int n, int[][] sizes) throws IOException {
    return JpegDatasets.raws(dir, "raws-" + n, n, sizes, JpegDatasets.list());
  }
}
