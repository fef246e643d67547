package org.sparkbeton.spark.write;

import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileSystem;

/**
 * Hadoop's checksummed file systems (the local one) keep a hidden {@code .crc} beside every file: written with
 * a CRC32 of every byte (and, without Hadoop's native library, a forked chmod per file), looked for on every
 * open. The writer has its own integrity check (the manifest's SHA-256 per shard, the codec's checks of every
 * image), so it reads and writes through the raw file system underneath.
 */
final class RawFileSystems {
  private RawFileSystems() {}

  /** {@code fs} without its checksum layer, or {@code fs} itself when it has none. */
  static FileSystem withoutChecksums(FileSystem fs) {
    return fs instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : fs;
  }
}
