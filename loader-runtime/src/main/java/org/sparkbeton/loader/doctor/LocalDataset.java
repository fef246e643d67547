package org.sparkbeton.loader.doctor;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.io.DatasetDirectory;
import org.sparkbeton.loader.io.Shards;

/**
 * A local dataset as the doctor and the bench read it: a .beton file, or a dataset directory whose shards are
 * checked against its manifest as the training loader checks them (sizes, sample counts, the checksums of the pages
 * read), so that a dataset the loader refuses is not measured as sound.
 *
 * @param shards the files' readers (metadata and allocation tables), without payload stores
 */
record LocalDataset(Path path, List<Path> files, Shards shards) implements Closeable {
  static LocalDataset open(Path path) throws IOException {
    if (!Files.isDirectory(path)) {
      return new LocalDataset(path, List.of(path), Shards.openReaders(List.of(path)));
    }
    DatasetDirectory.Listing listing = DatasetDirectory.open(path);
    Shards shards = Shards.open(listing.files(), listing.checksums(), false, true);
    try {
      DatasetDirectory.requireSampleCounts(listing, shards);
    } catch (RuntimeException e) {
      shards.close();
      throw e;
    }
    return new LocalDataset(path, listing.files(), shards);
  }

  /** The training loader over the dataset: a directory's manifest and page checksums applied. */
  LoaderBuilder loader() {
    return Loader.builder(path);
  }

  @Override
  public void close() throws IOException {
    shards.close();
  }
}
