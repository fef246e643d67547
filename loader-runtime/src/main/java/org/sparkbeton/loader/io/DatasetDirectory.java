package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.Header;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * A dataset directory as the Spark writer makes it: the shards its {@code _manifest.json} lists, in the
 * manifest's order, become one index space (shard i's samples follow those of shards 0..i-1). Files the
 * manifest does not list (orphans of failed or speculative attempts) are never opened. Each listed shard
 * must lie inside the directory (a symbolic link leading out of it is refused) and exist with the size and
 * sample count the manifest promises (its 24-byte header is read); the loader checks the fields as it opens
 * the shards, and every page against the manifest's page checksums as it reads them. A manifest edited after it
 * was written is refused when parsed.
 */
public final class DatasetDirectory {
  private static final System.Logger LOG = System.getLogger(DatasetDirectory.class.getName());

  /**
   * The shards of a dataset, in manifest order.
   *
   * @param checksums each shard's page checksums, null for a shard that has none
   * @param manifest the parsed manifest
   */
  public record Listing(List<Path> files, List<PageChecksums> checksums, DatasetManifest manifest) {}

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
    for (ShardEntry shard : manifest.shards()) {
      Path file;
      try {
        file = DatasetVerifier.shardFile(dir, shard.path());
        if (!Files.isRegularFile(file)) {
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
      try {
        long size = Files.size(file);
        if (size != shard.bytes()) {
          throw new IllegalArgumentException("Dataset " + dir + ": " + shard.path() + " is " + size
              + " bytes but the manifest says " + shard.bytes() + " (run `beton verify " + dir + "`)");
        }
        long samples = header(file, shard.pageChecksums()).numSamples();
        if (samples != shard.samples()) {
          throw new IllegalArgumentException("Dataset " + dir + ": " + shard.path() + " holds " + samples
              + " samples but the manifest says " + shard.samples() + " (run `beton verify " + dir + "`)");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file, e);
      }
      files.add(file);
      checksums.add(shard.pageChecksums());
    }
    warnIfUnchecked(dir, manifest);
    return new Listing(List.copyOf(files), java.util.Collections.unmodifiableList(checksums), manifest);
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

  /** The file's header; with page checksums, the header and descriptors are checked first. */
  private static Header header(Path file, PageChecksums sums) throws IOException {
    int length = sums == null ? BetonFormat.HEADER_SIZE : sums.unitLength(0);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
        // read it all
      }
      b.flip();
      if (sums != null && b.remaining() == length) {
        sums.check(file.toString(), 0, b);
      }
      return Header.parse(b, file.toString());
    }
  }
}
