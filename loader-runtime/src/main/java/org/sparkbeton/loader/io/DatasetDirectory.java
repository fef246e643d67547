package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.Header;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * A dataset directory as the Spark writer makes it: the shards its {@code _manifest.json} lists, in the
 * manifest's order, become one index space (shard i's samples follow those of shards 0..i-1). Files the
 * manifest does not list (orphans of failed or speculative attempts) are never opened. Each listed shard
 * must exist with the size and sample count the manifest promises (its 24-byte header is read); the
 * loader checks the fields as it opens the shards.
 */
public final class DatasetDirectory {
  private DatasetDirectory() {}

  /** The shard files of the dataset in {@code dir}, in manifest order. */
  public static List<Path> shardFiles(Path dir) {
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
    for (ShardEntry shard : manifest.shards()) {
      Path file = dir.resolve(shard.path()).normalize();
      if (!file.startsWith(dir.normalize())) {
        throw new IllegalArgumentException("Dataset " + dir + ": shard path " + shard.path()
            + " points outside the directory");
      }
      try {
        if (!Files.isRegularFile(file)) {
          throw new IllegalArgumentException("Dataset " + dir + ": the manifest lists " + shard.path()
              + ", which does not exist");
        }
        long size = Files.size(file);
        if (size != shard.bytes()) {
          throw new IllegalArgumentException("Dataset " + dir + ": " + shard.path() + " is " + size
              + " bytes but the manifest says " + shard.bytes() + " (run `beton verify " + dir + "`)");
        }
        long samples = header(file).numSamples();
        if (samples != shard.samples()) {
          throw new IllegalArgumentException("Dataset " + dir + ": " + shard.path() + " holds " + samples
              + " samples but the manifest says " + shard.samples() + " (run `beton verify " + dir + "`)");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file, e);
      }
      files.add(file);
    }
    return files;
  }

  private static Header header(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(BetonFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
        // read the whole header
      }
      b.flip();
      return Header.parse(b, file.toString());
    }
  }
}
