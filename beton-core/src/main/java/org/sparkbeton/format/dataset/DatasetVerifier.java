package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.verify.VerifyReport;

/**
 * Checks a dataset directory on local disk against its manifest: every listed shard exists inside the
 * directory (a symbolic link leading out of it is refused), has the size, checksum and page checksums the
 * manifest promises, holds the promised samples and fields with the promised Int/Float min/max, and passes
 * {@link BetonVerifier}. Reads every byte of every shard (the checksums need them).
 */
public final class DatasetVerifier {
  /** The findings about one shard; {@code report} is null when the shard could not be opened. */
  public record ShardResult(ShardEntry shard, List<String> problems, VerifyReport report) {
    public boolean ok() {
      return problems.isEmpty() && report != null && report.ok();
    }
  }

  private DatasetVerifier() {}

  /** Parses {@code dir}'s manifest; a missing or malformed one throws with the reason. */
  public static DatasetManifest manifest(Path dir) throws IOException {
    Path file = dir.resolve(DatasetManifest.FILE_NAME);
    if (!Files.isRegularFile(file)) {
      throw new IOException(dir + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory");
    }
    try {
      return DatasetManifest.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  /** Verifies every shard of the dataset in {@code dir}. */
  public static List<ShardResult> verify(Path dir, DatasetManifest manifest) throws IOException {
    List<ShardResult> out = new ArrayList<>();
    for (ShardEntry shard : manifest.shards()) {
      out.add(verifyShard(dir, manifest, shard));
    }
    return out;
  }

  /**
   * {@code dir.resolve(path)}, refused unless its real path (symbolic links followed) lies inside the real path of
   * {@code dir}: a shard reached through a link to a file elsewhere is not part of the dataset.
   *
   * @throws IOException when the file is missing (NoSuchFileException) or cannot be resolved
   * @throws IllegalArgumentException when it lies outside the directory
   */
  public static Path shardFile(Path dir, String path) throws IOException {
    return shardFile(dir, dir.toRealPath(), path);
  }

  /** {@link #shardFile(Path, String)} with the real path of {@code dir} resolved once for all its shards. */
  public static Path shardFile(Path dir, Path root, String path) throws IOException {
    return shardFileAndAttributes(dir, root, path).file();
  }

  /** A shard's file and the attributes of the file it names (where a link leads, for a link). */
  public record ShardFile(Path file, BasicFileAttributes attributes) {}

  /**
   * {@link #shardFile(Path, Path, String)} with the file's attributes: a name in the directory that is no link
   * takes one {@code lstat}, which tells both that it lies inside the directory and its size and kind.
   */
  public static ShardFile shardFileAndAttributes(Path dir, Path root, String path) throws IOException {
    Path file = dir.resolve(path).normalize();
    if (path.indexOf('/') < 0 && file.startsWith(dir.normalize())) {
      BasicFileAttributes own = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!own.isSymbolicLink()) {
        return new ShardFile(file, own); // inside the directory, with no realpath
      }
    }
    Path real = file.toRealPath();
    if (!file.startsWith(dir.normalize()) || !real.startsWith(root)) {
      throw new IllegalArgumentException("shard " + path + " resolves to " + real + ", outside the dataset directory "
          + root + " (through a symbolic link); a dataset's shards must lie inside its directory");
    }
    return new ShardFile(file, Files.readAttributes(file, BasicFileAttributes.class));
  }

  private static ShardResult verifyShard(Path dir, DatasetManifest manifest, ShardEntry shard) throws IOException {
    List<String> problems = new ArrayList<>();
    Path file;
    try {
      file = shardFile(dir, shard.path());
    } catch (java.nio.file.NoSuchFileException e) {
      problems.add("missing: the manifest lists it, the directory has no such file");
      return new ShardResult(shard, problems, null);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return new ShardResult(shard, problems, null);
    }
    if (!Files.isRegularFile(file)) {
      problems.add("missing: the manifest lists it, the directory has no such file");
      return new ShardResult(shard, problems, null);
    }
    return verifyShardFile(file, manifest, shard);
  }

  /**
   * Checks {@code file} as the shard {@code shard} of the dataset {@code manifest} describes: its size, checksums,
   * sample count, fields, statistics and structure. For a remote dataset's shard, {@code file} is a local copy.
   */
  public static ShardResult verifyShardFile(Path file, DatasetManifest manifest, ShardEntry shard) throws IOException {
    List<String> problems = new ArrayList<>();
    long size = Files.size(file);
    if (size != shard.bytes()) {
      problems.add("size is " + size + " bytes, the manifest says " + shard.bytes());
    }
    if (shard.checksum() != null) {
      String actual = checksum(file, shard.checksum().algorithm());
      if (!actual.equals(shard.checksum().value())) {
        problems.add(shard.checksum().algorithm() + " is " + actual + ", the manifest says " + shard.checksum().value());
      }
    }
    if (shard.pageChecksums() != null && size == shard.bytes()) {
      problems.addAll(pageProblems(file, shard.pageChecksums()));
    }
    VerifyReport report;
    try (BetonReader reader = BetonReader.open(file)) {
      if (reader.numSamples() != shard.samples()) {
        problems.add("holds " + reader.numSamples() + " samples, the manifest says " + shard.samples());
      }
      List<ManifestField> fields = reader.fields().stream().map(ManifestField::of).toList();
      if (!fields.equals(manifest.fields())) {
        problems.add("fields " + fields + " differ from the manifest's " + manifest.fields());
      }
      if (fields.equals(manifest.fields())) {
        problems.addAll(statsProblems(reader, shard));
      }
      report = BetonVerifier.verify(reader);
    } catch (BetonFormatException e) {
      problems.add(e.getMessage());
      return new ShardResult(shard, problems, null);
    }
    return new ShardResult(shard, problems, report);
  }

  /** At most this many mismatching pages are listed per shard. */
  static final int MAX_PAGES_LISTED = 8;

  /** One line per page whose CRC32C differs from the manifest's (at most {@value #MAX_PAGES_LISTED}, then a count). */
  private static List<String> pageProblems(Path file, PageChecksums sums) throws IOException {
    List<String> out = new ArrayList<>();
    int bad = 0;
    try (org.sparkbeton.format.io.ChannelSource source = new org.sparkbeton.format.io.ChannelSource(file)) {
      for (int u = 0; u < sums.units(); u++) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (long p = sums.unitStart(u); p < sums.unitEnd(u); ) {
          int n = (int) Math.min(1 << 20, sums.unitEnd(u) - p);
          crc.update(source.read(p, n));
          p += n;
        }
        if ((int) crc.getValue() != sums.value(u) && bad++ < MAX_PAGES_LISTED) {
          out.add(sums.describe(u) + ": crc32c is " + PageChecksums.hex((int) crc.getValue()) + ", the manifest says "
              + PageChecksums.hex(sums.value(u)));
        }
      }
    }
    if (bad > MAX_PAGES_LISTED) {
      out.add("... and " + (bad - MAX_PAGES_LISTED) + " more pages whose crc32c differs from the manifest's");
    }
    return out;
  }

  /** One line per Int or Float field whose min/max in the manifest are not those of the shard's values. */
  private static List<String> statsProblems(BetonReader reader, ShardEntry shard) {
    List<String> out = new ArrayList<>();
    for (java.util.Map.Entry<String, ColumnStats> e : shard.stats().entrySet()) {
      int field = reader.fieldIndex(e.getKey());
      boolean floating = reader.fields().get(field).typeId() == org.sparkbeton.format.FieldTypes.FLOAT;
      ColumnStats.Accumulator acc = floating ? ColumnStats.Accumulator.forFloats() : ColumnStats.Accumulator.forInts();
      for (long s = 0; s < reader.numSamples(); s++) {
        if (floating) {
          acc.add(reader.floatValue(s, field));
        } else {
          acc.add(reader.intValue(s, field));
        }
      }
      ColumnStats actual = acc.result();
      if (!actual.equals(e.getValue())) {
        out.add("statistics of '" + e.getKey() + "' are " + describe(actual) + " but the manifest says "
            + describe(e.getValue()) + " (filters prune shards by them)");
      }
    }
    return out;
  }

  private static String describe(ColumnStats s) {
    return "min " + s.min() + ", max " + s.max() + (s.hasNan() ? ", with NaN" : "");
  }

  /** Lower-case hex of the file's checksum, as {@link ShardChecksum} stores it. */
  public static String checksum(Path file, String algorithm) throws IOException {
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      if (algorithm.equals(ShardChecksum.CRC32C)) {
        CRC32C crc = new CRC32C();
        for (int n; (n = in.read(buf)) > 0; ) {
          crc.update(buf, 0, n);
        }
        return String.format("%08x", crc.getValue());
      }
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (int n; (n = in.read(buf)) > 0; ) {
        sha.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }
}
