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
  /** Buffer of a local file created by {@link #create}: Hadoop's own default for its local streams. */
  private static final int LOCAL_BUFFER = 64 << 10;

  private RawFileSystems() {}

  /** {@code fs} without its checksum layer, or {@code fs} itself when it has none. */
  static FileSystem withoutChecksums(FileSystem fs) {
    return fs instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : fs;
  }

  /**
   * A file at {@code path} (its parent directories created), as {@code fs.create(path, overwrite)}: without
   * {@code overwrite}, failing with {@link FileAlreadyExistsException} when one is there (on the raw local file
   * system atomically, which Hadoop's check-then-open is not); with it, truncating one.
   * A file of the raw local file system is created through java.nio instead: Hadoop 3.3's local file system sets
   * the mode of every file it creates, which without its native library forks a {@code chmod} per file, about
   * 10 ms each on the project's machines (visible in a profile of the writer, once per shard, then on the driver
   * for the job marker and the manifest); java.nio gives the file Hadoop's mode (0666 less its umask) with a
   * system call.
   */
  static OutputStream create(FileSystem fs, Path path, boolean overwrite) throws IOException {
    if (!(fs instanceof RawLocalFileSystem local)) {
      return fs.create(path, overwrite);
    }
    java.nio.file.Path file = local.pathToFile(path).toPath();
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    OutputStream out;
    try {
      out = overwrite
          ? Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)
          : Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException("File already exists: " + path);
    }
    try {
      // Hadoop's mode for a file it creates or overwrites (0666 less its configured umask)
      FsPermission mode = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(local.getConf()));
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode.toString()));
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
    return new BufferedOutputStream(out, LOCAL_BUFFER);
  }
}
