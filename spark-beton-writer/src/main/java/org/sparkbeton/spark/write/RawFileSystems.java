package org.sparkbeton.spark.write;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's checksummed file systems (the local one) keep a hidden {@code .crc} beside every file: written with
 * a CRC32 of every byte (and, without Hadoop's native library, a forked chmod per file), looked for on every
 * open. The writer has its own integrity check (the manifest's SHA-256 per shard, the codec's checks of every
 * image), so it reads and writes through the raw file system underneath.
 */
final class RawFileSystems {
  /** Buffer of a local file created by {@link #createNew}: Hadoop's own default for its local streams. */
  private static final int LOCAL_BUFFER = 64 << 10;

  private RawFileSystems() {}

  /** {@code fs} without its checksum layer, or {@code fs} itself when it has none. */
  static FileSystem withoutChecksums(FileSystem fs) {
    return fs instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : fs;
  }

  /**
   * A new file at {@code path} (its parent directories created), failing with {@link FileAlreadyExistsException}
   * when one is there: {@code fs.create(path, false)}, except that a file of the raw local file system is created
   * through java.nio. Hadoop 3.3's local file system sets the mode of every file it creates, which without its native
   * library forks a {@code chmod} per file (visible in a profile of the writer, once per shard); java.nio gives the
   * file the same mode (0666 less the umask) without one.
   */
  static OutputStream createNew(FileSystem fs, Path path) throws IOException {
    if (!(fs instanceof RawLocalFileSystem local)) {
      return fs.create(path, false);
    }
    java.nio.file.Path file = local.pathToFile(path).toPath();
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    OutputStream out;
    try {
      out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException("File already exists: " + path);
    }
    // Hadoop's mode for a new file (0666 less its configured umask), set by a system call
    FsPermission mode = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(local.getConf()));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode.toString()));
    return new BufferedOutputStream(out, LOCAL_BUFFER);
  }
}
