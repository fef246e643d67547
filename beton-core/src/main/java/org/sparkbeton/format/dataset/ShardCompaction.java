package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.format.tools.Merge;
import org.sparkbeton.format.write.WriteResult;

/**
 * Merging runs of a dataset's small shards into larger ones, in order, without decoding anything ({@link Merge}):
 * what streaming writes (a shard per task per micro-batch) and many small appends leave behind. The samples keep
 * their order and count, so the dataset's identity ({@link DatasetFiles#DATASET_ID}) and a stream's position counted
 * in samples stay valid.
 */
public final class ShardCompaction {
  /**
   * The most shards merged into one: a merge holds every shard of its run open at once (a file descriptor and a
   * mapping each), and executors often run with a limit of 1,024 open files. A longer run of small shards is merged
   * into several; a later compaction merges those.
   */
  public static final int MAX_RUN = 500;

  private ShardCompaction() {}

  /** A run of consecutive shards, the first at index {@code first} of the manifest, merged into one. */
  public record Group(int first, List<ShardEntry> shards) implements java.io.Serializable {
    public Group {
      shards = List.copyOf(shards);
      if (shards.size() < 2) {
        throw new IllegalArgumentException("a group merges at least two shards, got " + shards.size());
      }
    }

    public long bytes() {
      return shards.stream().mapToLong(ShardEntry::bytes).sum();
    }

    public long samples() {
      return shards.stream().mapToLong(ShardEntry::samples).sum();
    }

    /** The paths of its shards, in order. */
    public List<String> paths() {
      return shards.stream().map(ShardEntry::path).toList();
    }
  }

  /**
   * The runs of {@code shards} (a manifest's, in order) that merge into shards of at most {@code targetBytes}: from
   * the first shard on, each run takes the next shard while the run's bytes stay within the target, it holds fewer
   * than {@link #MAX_RUN} shards and the page sizes agree (where the manifest's page checksums tell them), and is
   * kept where it holds two shards or more. A
   * shard at or over the target is left as it is.
   */
  public static List<Group> plan(List<ShardEntry> shards, long targetBytes) {
    if (targetBytes < 1) {
      throw new IllegalArgumentException("the target shard size must be positive, got " + targetBytes);
    }
    List<Group> groups = new ArrayList<>();
    int i = 0;
    while (i < shards.size()) {
      int end = i + 1;
      long bytes = shards.get(i).bytes();
      while (end < shards.size() && end - i < MAX_RUN && bytes + shards.get(end).bytes() <= targetBytes
          && samePageSize(shards.get(i), shards.get(end))) {
        bytes += shards.get(end).bytes();
        end++;
      }
      if (end - i >= 2) {
        groups.add(new Group(i, shards.subList(i, end)));
      }
      i = end;
    }
    return groups;
  }

  private static boolean samePageSize(ShardEntry a, ShardEntry b) {
    return a.pageChecksums() == null || b.pageChecksums() == null
        || a.pageChecksums().pageSize() == b.pageChecksums().pageSize();
  }

  /**
   * Merges local copies of {@code group}'s shards ({@code files}, in its order) into {@code out}, and returns the
   * manifest entry of the result as {@code path}: samples, bytes, SHA-256, page checksums, and each field's bounds
   * from the group's (where every shard has them). A copy that does not hold the samples its entry lists is refused,
   * and so is one whose bytes fail the manifest's checks ({@link #openChecked}).
   */
  public static ShardEntry merge(Group group, List<Path> files, Path out, String path) throws IOException {
    if (files.size() != group.shards().size()) {
      throw new IllegalArgumentException(files.size() + " files for a group of " + group.shards().size() + " shards");
    }
    List<BetonReader> readers = new ArrayList<>();
    try {
      for (int i = 0; i < files.size(); i++) {
        ShardEntry e = group.shards().get(i);
        BetonReader r = openChecked(files.get(i), e);
        readers.add(r);
        if (r.numSamples() != e.samples()) {
          throw new IOException("shard " + e.path() + " holds " + r.numSamples() + " samples; the manifest lists "
              + e.samples() + ": not the shard the manifest describes, so it is not merged");
        }
      }
      WriteResult written = Merge.run(readers, out);
      if (written.numSamples() != group.samples()) {
        throw new IllegalStateException("merged " + written.numSamples() + " samples of " + group.samples());
      }
    } catch (BetonFormatException damaged) { // a page that fails its check: named by the shard, not its copy
      String message = damaged.getMessage();
      for (int i = 0; i < files.size(); i++) {
        message = message.replace(files.get(i).toString(), group.shards().get(i).path());
      }
      throw new IOException(message + "; so nothing is merged (beton verify names every damaged shard)", damaged);
    } finally {
      for (BetonReader r : readers) {
        r.close();
      }
    }
    PageChecksums pages;
    try (BetonReader merged = BetonReader.open(out)) {
      pages = PageChecksums.compute(merged);
    }
    ShardChecksum sha = new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(out, ShardChecksum.SHA256));
    return new ShardEntry(path, group.samples(), pages.fileLength(), sha, mergedStats(group.shards()), pages);
  }

  /**
   * {@code file}, a copy of the shard {@code e} lists, opened to be merged: every byte the merge reads checked
   * against the manifest's page checksums, or the whole file against its SHA-256 first where the manifest has no
   * page checksums. A merged shard gets checksums of its own, which would vouch for any damage copied into it.
   */
  private static BetonReader openChecked(Path file, ShardEntry e) throws IOException {
    if (e.pageChecksums() == null) {
      String actual = DatasetVerifier.checksum(file, e.checksum().algorithm());
      if (!actual.equals(e.checksum().value())) {
        throw new IOException("shard " + e.path() + " has " + e.checksum().algorithm() + " " + actual + ", not the"
            + " manifest's " + e.checksum().value() + ": it changed after it was written, so it is not merged"
            + " (beton verify names the damage)");
      }
      return BetonReader.open(file);
    }
    ChannelSource source = new ChannelSource(file);
    try {
      return BetonReader.open(new CheckedSource(source, e.pageChecksums()), ReadOptions.defaults());
    } catch (IOException | RuntimeException x) {
      source.close();
      throw x;
    }
  }

  /** Each field's bounds over {@code shards}, for the fields every one of them has bounds for. */
  static Map<String, ColumnStats> mergedStats(List<ShardEntry> shards) {
    Map<String, ColumnStats> out = new LinkedHashMap<>(shards.get(0).stats());
    for (ShardEntry s : shards.subList(1, shards.size())) {
      out.keySet().retainAll(s.stats().keySet());
      out.replaceAll((field, acc) -> union(acc, s.stats().get(field)));
    }
    return out;
  }

  private static ColumnStats union(ColumnStats a, ColumnStats b) {
    boolean nan = a.hasNan() || b.hasNan();
    if (a.min() == null) {
      return new ColumnStats(b.min(), b.max(), nan);
    }
    if (b.min() == null) {
      return new ColumnStats(a.min(), a.max(), nan);
    }
    if (a.min() instanceof Long) {
      return new ColumnStats(Math.min((Long) a.min(), (Long) b.min()), Math.max((Long) a.max(), (Long) b.max()), nan);
    }
    return new ColumnStats(Math.min((Double) a.min(), (Double) b.min()), Math.max((Double) a.max(), (Double) b.max()),
        nan);
  }
}
