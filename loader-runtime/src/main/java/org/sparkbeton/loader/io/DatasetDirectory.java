package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * A dataset directory as the Spark writer makes it: the shards its {@code _manifest.json} lists, in the
 * manifest's order, become one index space (shard i's samples follow those of shards 0..i-1). Files the
 * manifest does not list (orphans of failed or speculative attempts) are never opened. Each listed shard
 * must lie inside the directory (a symbolic link leading out of it is refused) and exist with the size the
 * manifest promises; the loader checks the sample count and the fields as it opens the shards
 * ({@link #requireSampleCounts}), and every page against the manifest's page checksums as it reads them. A
 * manifest edited after it was written is refused when parsed.
 */
public final class DatasetDirectory {
  private static final System.Logger LOG = System.getLogger(DatasetDirectory.class.getName());

  /**
   * The shards of a dataset, in manifest order.
   *
   * @param dir the dataset directory
   * @param checksums each shard's page checksums, null for a shard that has none
   * @param manifest the parsed manifest
   */
  public record Listing(Path dir, List<Path> files, List<PageChecksums> checksums, DatasetManifest manifest) {}

  private DatasetDirectory() {}

  /** The shard files of the dataset in {@code dir}, in manifest order. */
  public static List<Path> shardFiles(Path dir) {
    return open(dir).files();
  }

  /**
   * The shards of the dataset in {@code dir} with their page checksums. Says once (a warning through
   * {@link System.Logger}) when the manifest or some shards have no checksums to check them with.
   */
  public static Listing open(Path dir) {
    DatasetManifest manifest;
    try {
      manifest = DatasetVerifier.manifest(dir);
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (manifest.shards().isEmpty()) {
      throw new IllegalArgumentException("Dataset " + dir + " has no shards (its manifest lists 0 samples)");
    }
    List<Path> files = new ArrayList<>();
    List<PageChecksums> checksums = new ArrayList<>();
    Path realDir = realPath(dir);
    for (ShardEntry shard : manifest.shards()) {
      Path file;
      BasicFileAttributes attributes;
      try {
        DatasetVerifier.ShardFile found = DatasetVerifier.shardFileAndAttributes(dir, realDir, shard.path());
        file = found.file();
        attributes = found.attributes();
        if (!attributes.isRegularFile()) {
          throw new NoSuchFileException(file.toString());
        }
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("Dataset " + dir + ": the manifest lists " + shard.path()
            + ", which does not exist");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Dataset " + dir + ": " + e.getMessage(), e);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot resolve " + shard.path() + " in " + dir, e);
      }
      if (attributes.size() != shard.bytes()) {
        throw new IllegalArgumentException("Dataset " + dir + ": " + shard.path() + " is " + attributes.size()
            + " bytes but the manifest says " + shard.bytes() + " (run `beton verify " + dir + "`)");
      }
      files.add(file);
      checksums.add(shard.pageChecksums());
    }
    warnIfUnchecked(dir, manifest);
    return new Listing(dir, List.copyOf(files), java.util.Collections.unmodifiableList(checksums), manifest);
  }

  private static void warnIfUnchecked(Path dir, DatasetManifest manifest) {
    long unchecked = manifest.shards().stream().filter(s -> s.pageChecksums() == null).count();
    if (!manifest.hasContentChecksum()) {
      LOG.log(System.Logger.Level.WARNING, "Dataset {0} was written before manifests carried checksums"
          + " (format_version 1): its shards are read without page checks", dir);
    } else if (unchecked > 0) {
      LOG.log(System.Logger.Level.WARNING, "Dataset {0}: {1} of its {2} shards have no page checksums (appended"
          + " before checksums existed) and are read unchecked", dir, unchecked, manifest.shards().size());
    }
  }

  /**
   * Refuses shards whose headers, as the loader opened them (and checked them against their page checksums), hold
   * another number of samples than the manifest lists: checked on the opened readers rather than by reading
   * every header once more while listing.
   */
  public static void requireSampleCounts(Listing dataset, Shards shards) {
    List<ShardEntry> entries = dataset.manifest().shards();
    for (int i = 0; i < entries.size(); i++) {
      long samples = shards.reader(i).numSamples();
      if (samples != entries.get(i).samples()) {
        Path dir = dataset.dir();
        throw new IllegalArgumentException("Dataset " + dir + ": " + entries.get(i).path() + " holds " + samples
            + " samples but the manifest says " + entries.get(i).samples() + " (run `beton verify " + dir + "`)");
      }
    }
  }

  private static Path realPath(Path dir) {
    try {
      return dir.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot resolve " + dir, e);
    }
  }
}
