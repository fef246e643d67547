package org.sparkbeton.loader.doctor;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.loader.io.SourceOpener;

/**
 * Reads of a dataset's files that do not come from the OS page cache, for the storage probe: {@code O_DIRECT}
 * ({@code com.sun.nio.file.ExtendedOpenOption.DIRECT}) on local files, which reads the device and leaves the page
 * cache (the machine's and other processes' cached pages) alone; or the loader's own sources when it reads through
 * a {@link SourceOpener}. Where a file system refuses {@code O_DIRECT} (tmpfs keeps files in memory anyway), plain
 * reads, and {@link #method()} says so.
 */
final class UncachedReads implements Closeable {
  private static final int ALIGN = 4096;

  private final FileChannel[] channels;
  private final BetonSource[] sources;
  private final int align;
  private final String method;

  private UncachedReads(FileChannel[] channels, BetonSource[] sources, int align, String method) {
    this.channels = channels;
    this.sources = sources;
    this.align = align;
    this.method = method;
  }

  /** Reads of {@code files}: through {@code opener} when not null, else with O_DIRECT where the file system allows. */
  static UncachedReads open(List<Path> files, SourceOpener opener) throws IOException {
    if (opener != null) {
      BetonSource[] sources = new BetonSource[files.size()];
      try {
        for (int i = 0; i < sources.length; i++) {
          sources[i] = opener.open(files.get(i));
        }
      } catch (IOException | RuntimeException e) {
        closeAll(sources);
        throw e;
      }
      return new UncachedReads(null, sources, 1, "through the loader's source");
    }
    FileChannel[] channels = new FileChannel[files.size()];
    String refused = null;
    int align = ALIGN;
    try {
      for (int i = 0; i < channels.length; i++) {
        if (refused == null) {
          try {
            align = Math.max(align, (int) Math.min(1 << 20, Files.getFileStore(files.get(i)).getBlockSize()));
            channels[i] = FileChannel.open(files.get(i), StandardOpenOption.READ, direct());
            // some file systems accept the flag and refuse the reads (EINVAL)
            channels[i].read(ByteBuffer.allocateDirect(2 * align).alignedSlice(align).limit(align), 0);
            continue;
          } catch (IOException | UnsupportedOperationException e) {
            refused = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
          }
        }
        channels[i] = FileChannel.open(files.get(i), StandardOpenOption.READ);
      }
    } catch (IOException | RuntimeException e) {
      closeAll(channels);
      throw e;
    }
    if (refused != null) { // one method for all files: reopen the ones opened directly
      closeAll(channels);
      for (int i = 0; i < channels.length; i++) {
        channels[i] = FileChannel.open(files.get(i), StandardOpenOption.READ);
      }
      return new UncachedReads(channels, null, ALIGN, "plain reads (the file system refused O_DIRECT: " + refused
          + "; pages in the page cache read at memory speed)");
    }
    return new UncachedReads(channels, null, align, "O_DIRECT, bypassing the page cache");
  }

  private static OpenOption direct() {
    return com.sun.nio.file.ExtendedOpenOption.DIRECT;
  }

  /** How the reads avoid the page cache, for the report. */
  String method() {
    return method;
  }

  /** True when the reads bypass every cache (O_DIRECT or the loader's source). */
  boolean uncached() {
    return !method.startsWith("plain");
  }

  /**
   * A buffer for reads of up to {@code length} bytes (aligned for O_DIRECT). A read widened to the alignment spans
   * up to {@code length + 2 * align - 2} bytes rounded down to a whole block (a 1 KB image across a 4 KiB boundary:
   * 8 KiB), and aligning the slice gives up to {@code align - 1} bytes of the allocation: three blocks more than
   * {@code length} hold both.
   */
  ByteBuffer buffer(int length) {
    return ByteBuffer.allocateDirect(length + 3 * align).alignedSlice(align);
  }

  /**
   * Reads {@code length} bytes at {@code position} of file {@code file} (widened to the alignment O_DIRECT needs,
   * into {@code scratch} of {@link #buffer} size); returns the bytes read of those asked for.
   */
  int read(int file, long position, int length, ByteBuffer scratch) throws IOException {
    if (sources != null) {
      long end = Math.min(sources[file].length(), position + length);
      return end <= position ? 0 : sources[file].read(position, (int) (end - position)).remaining();
    }
    long start = position & -align;
    long end = (position + length + align - 1) & -align;
    scratch.clear().limit((int) (end - start));
    long at = start;
    while (scratch.hasRemaining()) {
      int n = channels[file].read(scratch, at);
      if (n <= 0) {
        break;
      }
      at += n;
      if ((n & (align - 1)) != 0) {
        break; // a short read: the end of the file (O_DIRECT reads stop there, unaligned)
      }
    }
    return (int) Math.max(0, Math.min(position + length, at) - position);
  }

  @Override
  public void close() throws IOException {
    closeAll(channels);
    closeAll(sources);
  }

  private static void closeAll(Closeable[] all) throws IOException {
    IOException first = null;
    for (Closeable c : all == null ? new Closeable[0] : all) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
