package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of a {@link ShardCache} directory: a complete shard ({@code <key>.beton}) or a download under way
 * ({@code <key>-<bytes>.part}, counted at the shard's full size).
 *
 * @param key the shard's cache key
 * @param file the file
 * @param bytes what the file counts for in the budget
 * @param modified when it was last used (milliseconds since the epoch: the cache evicts the least recent first)
 */
record CachedFile(String key, Path file, long bytes, long modified) {
  /** The directory's shard files and downloads (other files are not the cache's and are left alone). */
  static List<CachedFile> scan(Path dir) throws IOException {
    List<CachedFile> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        try {
          if (name.endsWith(".beton")) {
            out.add(new CachedFile(name.substring(0, name.length() - 6), f, Files.size(f), modified(f)));
          } else if (name.endsWith(".part")) {
            int dash = name.lastIndexOf('-');
            long bytes = dash > 0 ? parseSize(name.substring(dash + 1, name.length() - 5)) : -1;
            if (bytes >= 0) {
              out.add(new CachedFile(name.substring(0, dash), f, bytes, modified(f)));
            }
          }
        } catch (NoSuchFileException gone) {
          // a download deleted a corrupt .part while we listed
        }
      }
    }
    return out;
  }

  private static long parseSize(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static long modified(Path f) throws IOException {
    return Files.getLastModifiedTime(f).toMillis();
  }
}
