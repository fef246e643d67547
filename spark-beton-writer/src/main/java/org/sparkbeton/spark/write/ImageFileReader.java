package org.sparkbeton.spark.write;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.memory.BufferCleaner;
import org.sparkbeton.format.io.LocalPaths;

/**
 * Reads whole image files named by an image column of strings (paths or URIs, on any Hadoop file system) into
 * one buffer reused from file to file: what {@code binaryFile} does for a content column, at a fraction of its
 * cost per row (measured with 5,000 photos on 2 cores: 0.35 s by path against 0.8-1.1 s through the content
 * column, whose every file goes through a growing stream copy and a copy into the row), through
 * {@link RawFileSystems#withoutChecksums}, into a direct buffer: local files straight through a {@link FileChannel},
 * others through their file system's stream. One instance per task thread.
 */
final class ImageFileReader implements ImageFiles {
  /** The largest file read (a buffer's limit, as binaryFile's array). */
  static final int MAX_BYTES = Integer.MAX_VALUE - 16;
  /** The buffer a reader starts with, and goes back to in {@link #shrink}. */
  static final int INITIAL_BYTES = 1 << 18;

  /** Where a reader accounts the memory its buffer takes beyond {@link #INITIAL_BYTES}. */
  interface Budget {
    /**
     * No limit on the buffer's growth, and up to 64 MiB of it kept from file to file: a task that met one scan of
     * 300 MB does not hold 512 MiB of direct memory to its end.
     */
    Budget NONE = keeping(64L << 20);

    /** No limit on the buffer's growth, and up to {@code keep} bytes of it kept from file to file. */
    static Budget keeping(long keep) {
      return new Budget() {
        @Override
        public void reserve(long bytes) {}

        @Override
        public void release(long bytes) {}

        @Override
        public long keep() {
          return keep;
        }
      };
    }

    /** Waits until the buffer may take {@code bytes} more. */
    void reserve(long bytes) throws java.io.InterruptedIOException;

    /** The buffer gave {@code bytes} back. */
    void release(long bytes);

    /** The largest buffer {@link #shrink} keeps. */
    long keep();
  }

  private final Configuration hadoopConf;
  private final Budget budget;
  private FileSystem lastFs;
  private String lastScheme;
  private String lastAuthority;
  private ByteBuffer buffer = ByteBuffer.allocateDirect(INITIAL_BYTES);

  ImageFileReader(Configuration hadoopConf) {
    this(hadoopConf, Budget.NONE);
  }

  ImageFileReader(Configuration hadoopConf, Budget budget) {
    this.hadoopConf = hadoopConf;
    this.budget = budget;
  }

  /**
   * The bytes of the file at {@code location}, as a view of this reader's direct buffer valid until the next call.
   * A file that does not exist (or is a directory), or an empty path, is bad input, as a corrupt image: an
   * {@link ImageDecodeException} naming it; other I/O errors (the file system failing) propagate, so that the
   * task fails and Spark retries it.
   */
  @Override
  public ByteBuffer read(String location) throws IOException {
    if (location.isBlank()) {
      throw new ImageDecodeException("the path of the image file is empty");
    }
    shrink(); // the last file's bytes are no longer needed
    Path path = new Path(location);
    FileSystem fs = fileSystem(path);
    ByteBuffer bytes = fs instanceof RawLocalFileSystem local ? readLocal(local.pathToFile(path), location)
        : readStream(fs, path, location);
    if (!bytes.hasRemaining()) {
      throw new ImageDecodeException("image file " + location + " is an empty file (0 bytes)");
    }
    return bytes;
  }

  /**
   * A local file straight through java.nio into this reader's direct buffer: Hadoop's local stream allocates a
   * buffer of {@code io.file.buffer.size} (64 KiB under Spark) per file and resolves the path again, which cost about
   * a tenth of a task's time by path (a profile of the writer's benchmark); a whole-file read needs neither. Into
   * direct memory, the file's bytes are copied once (by the kernel): a read into an array goes through the JDK's
   * temporary direct buffer, and the native codec copies an array's bytes in again for its probe and its decode
   * (10 us of the image step's ~540 us per photo on the benchmark's photos, BENCHMARKS.md).
   */
  private ByteBuffer readLocal(File file, String location) throws IOException {
    java.nio.file.Path local;
    try {
      local = file.toPath();
    } catch (java.nio.file.InvalidPathException e) {
      // not the image's fault but this executor's locale, and every such path fails alike: the task fails, saying so
      throw new IOException("Cannot open the local file " + location + LocalPaths.nameCharsetHint(), e);
    }
    try (FileChannel in = FileChannel.open(local, StandardOpenOption.READ)) {
      return readAll(in, location);
    } catch (NoSuchFileException e) {
      throw doesNotExist(location, LocalPaths.nameCharsetHint(), e);
    } catch (IOException e) {
      if (file.isDirectory()) {
        throw new ImageDecodeException("image file " + location + " is a directory", e);
      }
      throw e;
    }
  }

  /** Another file system's file through its stream (into the same buffer, through the channel's small array). */
  private ByteBuffer readStream(FileSystem fs, Path path, String location) throws IOException {
    try (InputStream in = fs.open(path)) {
      return readAll(Channels.newChannel(in), location);
    } catch (FileNotFoundException e) {
      throw doesNotExist(location, "", e);
    }
  }

  /**
   * A missing image file, as bad input; a relative path also says where it was looked for: the driver cannot
   * qualify paths that are data, so one is resolved here, in the executor's working directory, not where the user
   * looked.
   */
  private ImageDecodeException doesNotExist(String location, String hint, IOException cause) {
    String relative = new Path(location).isAbsolute() ? "" : " (a relative path is resolved in the executor's"
        + " working directory, " + lastFs.getWorkingDirectory() + "; store absolute paths or URIs)";
    return new ImageDecodeException("image file " + location + " does not exist" + hint + relative, cause);
  }

  /**
   * Reads {@code in} to its end into this reader's buffer, from its start, doubling it (up to {@link #MAX_BYTES}, and
   * as the budget allows); the smaller buffer is freed at once, not left to the garbage collector.
   */
  private ByteBuffer readAll(ReadableByteChannel in, String location) throws IOException {
    buffer.clear();
    while (true) {
      if (!buffer.hasRemaining()) {
        int n = buffer.position();
        if (n >= MAX_BYTES) {
          throw new ImageDecodeException("image file " + location + " is over " + MAX_BYTES + " bytes");
        }
        int bigger = (int) Math.min(MAX_BYTES, 2L * n);
        budget.reserve(bigger - buffer.capacity());
        ByteBuffer smaller = buffer;
        buffer = ByteBuffer.allocateDirect(bigger).put(smaller.flip());
        BufferCleaner.free(smaller);
      }
      if (in.read(buffer) < 0) {
        return buffer.flip();
      }
    }
  }

  /**
   * Frees this reader's buffer and starts again from {@link #INITIAL_BYTES} where it grew past the budget's
   * {@link Budget#keep}: the last bytes {@link #read} gave are gone. Only between reads.
   */
  void shrink() {
    if (buffer.capacity() <= budget.keep()) {
      return;
    }
    ByteBuffer grown = buffer;
    buffer = ByteBuffer.allocateDirect(INITIAL_BYTES);
    BufferCleaner.free(grown);
    budget.release(grown.capacity() - INITIAL_BYTES);
  }

  /** The capacity of this reader's buffer now. */
  int capacity() {
    return buffer.capacity();
  }

  /**
   * The file system of {@code path}, kept while consecutive rows stay on one scheme and authority (Hadoop's own
   * cache walks the stack for the current user on every lookup).
   */
  private FileSystem fileSystem(Path path) throws IOException {
    URI uri = path.toUri();
    if (lastFs == null || !Objects.equals(uri.getScheme(), lastScheme) || !Objects.equals(uri.getAuthority(), lastAuthority)) {
      lastFs = RawFileSystems.withoutChecksums(path.getFileSystem(hadoopConf));
      lastScheme = uri.getScheme();
      lastAuthority = uri.getAuthority();
    }
    return lastFs;
  }
}
