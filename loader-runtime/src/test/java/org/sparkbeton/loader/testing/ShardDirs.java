package org.sparkbeton.loader.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Dataset directories as the Spark writer lays them out (shards {@code part-NNNNN.beton} plus a manifest with
 * their SHA-256s), for the store's tests here and loader-hadoop's (this module's test-jar); what the samples hold
 * is the caller's.
 */
public final class ShardDirs {
  private ShardDirs() {}

  /** Appends sample {@code g} (global index, from 0 across the shards) to the shard being written. */
  @FunctionalInterface
  public interface SampleWriter {
    void append(BetonWriter w, int g) throws IOException;
  }

  public static String shardName(int i) {
    return String.format("part-%05d.beton", i);
  }

  /**
   * Writes {@code dir}: shard i holds {@code samples[i]} samples of {@code fields}, then the manifest, with each
   * shard's SHA-256 and page checksums as the Spark writer records them.
   */
  public static Path write(Path dir, List<BetonField> fields, int[] samples, SampleWriter samplesOf)
      throws IOException {
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    int g = 0;
    for (int i = 0; i < samples.length; i++) {
      Path file = dir.resolve(shardName(i));
      try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 << 20).open(file)) {
        for (int j = 0; j < samples[i]; j++, g++) {
          samplesOf.append(w, g);
        }
        w.finish();
      }
      org.sparkbeton.format.dataset.PageChecksums pages;
      // positional reads, not a mapping: a test counting the process's mappings sees the loader's only
      try (org.sparkbeton.format.BetonReader r = org.sparkbeton.format.BetonReader.open(
          new org.sparkbeton.format.io.ChannelSource(file), org.sparkbeton.format.ReadOptions.defaults())) {
        pages = org.sparkbeton.format.dataset.PageChecksums.compute(r);
      }
      entries.add(new ShardEntry(shardName(i), samples[i], Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of(),
          pages));
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        fields.stream().map(ManifestField::of).toList(), entries, Map.of(), "test").toJson());
    return dir;
  }

  /** Bytes of the largest shard. */
  public static long largestShard(Path dir) throws IOException {
    return DatasetVerifier.manifest(dir).shards().stream().mapToLong(ShardEntry::bytes).max().orElse(0);
  }

  /** Bytes of all the shards. */
  public static long totalBytes(Path dir) throws IOException {
    return DatasetVerifier.manifest(dir).shards().stream().mapToLong(ShardEntry::bytes).sum();
  }

  /** Bytes the cache directory's shards and downloads occupy on disk now. */
  public static long diskBytes(Path cacheDir) throws IOException {
    if (!Files.isDirectory(cacheDir)) {
      return 0;
    }
    long total = 0;
    try (var files = Files.list(cacheDir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".beton") || name.endsWith(".part")) {
          try {
            total += Files.size(f);
          } catch (NoSuchFileException gone) {
            // evicted while we listed
          }
        }
      }
    }
    return total;
  }
}
