package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Checks a dataset directory on local disk against its manifest: every listed shard exists, has the
 * size and checksum the manifest promises, holds the promised samples and fields, and passes
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

  private static ShardResult verifyShard(Path dir, DatasetManifest manifest, ShardEntry shard) throws IOException {
    List<String> problems = new ArrayList<>();
    Path file = dir.resolve(shard.path()).normalize();
    if (!file.startsWith(dir.normalize())) {
      problems.add("path " + shard.path() + " points outside the dataset directory");
      return new ShardResult(shard, problems, null);
    }
    if (!Files.isRegularFile(file)) {
      problems.add("missing: the manifest lists it, the directory has no such file");
      return new ShardResult(shard, problems, null);
    }
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
    VerifyReport report;
    try (BetonReader reader = BetonReader.open(file)) {
      if (reader.numSamples() != shard.samples()) {
        problems.add("holds " + reader.numSamples() + " samples, the manifest says " + shard.samples());
      }
      List<ManifestField> fields = reader.fields().stream().map(ManifestField::of).toList();
      if (!fields.equals(manifest.fields())) {
        problems.add("fields " + fields + " differ from the manifest's " + manifest.fields());
      }
      report = BetonVerifier.verify(reader);
    } catch (BetonFormatException e) {
      problems.add(e.getMessage());
      return new ShardResult(shard, problems, null);
    }
    return new ShardResult(shard, problems, report);
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
