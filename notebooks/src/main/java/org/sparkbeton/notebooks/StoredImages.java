package org.sparkbeton.notebooks;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.loader.io.DatasetDirectory;

/**
 * The images of one RGBImage field of a dataset directory (or of one {@code .beton} file) as stored, by the
 * sample index the loader uses: the shards its manifest lists, in manifest order, as one index space.
 */
public final class StoredImages implements AutoCloseable {
  private final List<BetonReader> shards = new ArrayList<>();
  private final long[] firstSample;
  private final int field;

  private StoredImages(List<Path> files, String field) throws IOException {
    firstSample = new long[files.size() + 1];
    try {
      for (int i = 0; i < files.size(); i++) {
        BetonReader r = BetonReader.open(files.get(i));
        shards.add(r);
        firstSample[i + 1] = firstSample[i] + r.numSamples();
      }
      this.field = shards.get(0).fieldIndex(field);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Opens a dataset directory (through its {@code _manifest.json}) or a single {@code .beton} file. */
  public static StoredImages open(Path datasetOrFile, String field) throws IOException {
    List<Path> files = datasetOrFile.toFile().isDirectory() ? DatasetDirectory.shardFiles(datasetOrFile)
        : List.of(datasetOrFile);
    return new StoredImages(files, field);
  }

  public long numSamples() {
    return firstSample[shards.size()];
  }

  /** Sample {@code sample}'s image as stored (a JPEG decoded by beton-codec, raw pixels as they are). */
  public BufferedImage image(long sample) {
    if (sample < 0 || sample >= numSamples()) {
      throw new IllegalArgumentException("Sample " + sample + " is not in 0.." + (numSamples() - 1));
    }
    int shard = 0;
    while (sample >= firstSample[shard + 1]) {
      shard++;
    }
    Object value = shards.get(shard).value(sample - firstSample[shard], field);
    if (!(value instanceof RgbImage img)) {
      throw new IllegalStateException("Field " + field + " of " + shards.get(shard).file() + " is not an RGBImage");
    }
    return img.mode() == ImageMode.JPG ? Pictures.decode(img.payloadBytes())
        : Pictures.rgb(img.payloadBytes(), img.width(), img.height());
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (BetonReader r : shards) {
      try {
        r.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    shards.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
