package org.sparkbeton.codec.nativeimpl;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Copies of the native library that processes killed between extracting and deleting them left in an extraction
 * directory (a {@code kill -9}, an executor lost mid-start): each load deletes its own copy right after
 * {@code System.load}, so a copy older than {@link #AGE} is no running process's. Deleted, quietly, after a load
 * succeeds there, so that they do not pile up in a shared temporary directory.
 */
final class LeftoverLibraries {
  /** Far longer than any extraction and load take. */
  static final Duration AGE = Duration.ofHours(1);

  private LeftoverLibraries() {}

  /** Deletes the files {@code <stem>-*.so} of {@code dir} last modified before {@code now - AGE}; returns how many. */
  static int deleteOld(Path dir, String stem, Instant now) {
    int deleted = 0;
    Instant before = now.minus(AGE);
    try (DirectoryStream<Path> copies = Files.newDirectoryStream(dir, stem + "-*.so")) {
      for (Path copy : copies) {
        try {
          if (Files.isRegularFile(copy) && Files.getLastModifiedTime(copy).toInstant().isBefore(before)) {
            Files.delete(copy);
            deleted++;
          }
        } catch (IOException e) {
          // another process deleted it first, or it is not ours to delete: left alone
        }
      }
    } catch (IOException e) {
      // the directory cannot be listed: nothing to tidy
    }
    return deleted;
  }
}
