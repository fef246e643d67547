package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.testsupport.ChildJvm;

/** Image files read by path for image columns of strings: whole, by any spelling of the path, missing ones as bad input. */
class ImageFileReaderTest {
  @TempDir Path tmp;
  final ImageFileReader reader = new ImageFileReader(new Configuration());

  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static byte[] remaining(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  /** A buffer grown past what the reader keeps for one large file is given back before the next file is read. */
  @Test
  void aBufferGrownForOneLargeFileIsNotKeptForTheNext() throws Exception {
    ImageFileReader keepingOneMiB = new ImageFileReader(new Configuration(), ImageFileReader.Budget.keeping(1 << 20));
    byte[] large = bytes(3_000_000, 3);
    byte[] medium = bytes(600_000, 4);
    Path a = Files.write(tmp.resolve("large.jpg"), large);
    Path b = Files.write(tmp.resolve("medium.jpg"), medium);
    assertThat(remaining(keepingOneMiB.read(a.toString()))).isEqualTo(large);
    assertThat(keepingOneMiB.capacity()).isEqualTo(4 << 20);
    assertThat(remaining(keepingOneMiB.read(b.toString()))).isEqualTo(medium);
    assertThat(keepingOneMiB.capacity()).as("started again from 256 KiB, grown to 1 MiB").isEqualTo(1 << 20);
    assertThat(remaining(keepingOneMiB.read(b.toString()))).isEqualTo(medium);
    assertThat(keepingOneMiB.capacity()).as("kept").isEqualTo(1 << 20);
    assertThat(ImageFileReader.Budget.NONE.keep()).isEqualTo(64L << 20);
  }

  @Test
  void readsWholeFilesLargerAndSmallerThanItsBuffer() throws Exception {
    byte[] big = bytes(700_000, 1); // past the initial 256 KiB buffer: it grows twice
    byte[] small = bytes(1_000, 2);
    Path a = Files.write(tmp.resolve("big.jpg"), big);
    Path b = Files.write(tmp.resolve("small.jpg"), small);
    assertThat(remaining(reader.read(a.toString()))).isEqualTo(big);
    // the buffer is reused: the view ends where the smaller file does
    assertThat(remaining(reader.read(b.toString()))).isEqualTo(small);
    assertThat(remaining(reader.read(a.toString()))).isEqualTo(big);
  }

  @Test
  void aLocalFileComesBackInDirectMemoryWhichTheNativeCodecReadsInPlace() throws Exception {
    byte[] data = bytes(9_000, 7);
    Path f = Files.write(tmp.resolve("direct.jpg"), data);
    ByteBuffer read = reader.read(f.toString());
    assertThat(read.isDirect()).isTrue();
    assertThat(read.position()).isZero();
    assertThat(remaining(read)).isEqualTo(data);
  }

  @Test
  void acceptsPlainPathsFileUrisAndSpacesAsBinaryFileWritesThem() throws Exception {
    byte[] data = bytes(5_000, 3);
    Path f = Files.write(tmp.resolve("with space.jpg"), data);
    assertThat(remaining(reader.read(f.toString()))).isEqualTo(data);
    // binaryFile's path column holds Hadoop's spelling: file:/dir/with space.jpg
    assertThat(remaining(reader.read("file:" + f))).isEqualTo(data);
    assertThat(remaining(reader.read(new org.apache.hadoop.fs.Path(f.toUri()).toString()))).isEqualTo(data);
  }

  @Test
  void readsTheFileItselfNotHadoopsChecksumOfIt() throws Exception {
    byte[] data = bytes(5_000, 4);
    Path f = Files.write(tmp.resolve("photo.jpg"), data);
    // a stale checksum beside the file: Hadoop's checksummed local file system would refuse the bytes
    org.apache.hadoop.fs.LocalFileSystem checked = org.apache.hadoop.fs.FileSystem.getLocal(new Configuration());
    try (var out = checked.create(new org.apache.hadoop.fs.Path(f.toUri()), true)) {
      out.write(bytes(5_000, 5));
    }
    Files.write(f, data); // same length, other bytes: the .crc written above no longer matches
    assertThat(tmp.resolve(".photo.jpg.crc")).exists();
    assertThatThrownBy(() -> {
      try (var in = checked.open(new org.apache.hadoop.fs.Path(f.toUri()))) {
        in.readFully(new byte[5_000]);
      }
    }).as("the positive control: the checksummed file system reads through the .crc")
        .isInstanceOf(org.apache.hadoop.fs.ChecksumException.class);
    assertThat(remaining(reader.read(f.toString()))).isEqualTo(data);
  }

  @Test
  void missingEmptyAndDirectoryPathsAreBadInputNamingThePath() throws Exception {
    Path missing = tmp.resolve("missing.jpg");
    assertThatThrownBy(() -> reader.read(missing.toString())).isInstanceOf(ImageDecodeException.class)
        .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist")
        .hasMessageNotContaining("relative");
    // a relative path is resolved where the task runs: on a cluster, an executor's work directory
    assertThatThrownBy(() -> reader.read("photos/missing.jpg")).isInstanceOf(ImageDecodeException.class)
        .hasMessage("image file photos/missing.jpg does not exist (a relative path is resolved in the executor's"
            + " working directory, file:" + System.getProperty("user.dir") + "; store absolute paths or URIs)");
    Path empty = Files.createFile(tmp.resolve("empty.jpg"));
    assertThatThrownBy(() -> reader.read(empty.toString())).isInstanceOf(ImageDecodeException.class)
        .hasMessageContaining("empty.jpg is an empty file (0 bytes)");
    Path dir = Files.createDirectory(tmp.resolve("a-dir.jpg"));
    assertThatThrownBy(() -> reader.read(dir.toString())).isInstanceOf(ImageDecodeException.class)
        .hasMessageContaining("a-dir.jpg");
  }

  @Test
  void readsOtherFileSystemsThroughTheirStreams() throws Exception {
    byte[] big = bytes(600_000, 6); // past the initial buffer, so the stream path grows it too
    Path f = Files.write(tmp.resolve("remote.jpg"), big);
    Configuration conf = new Configuration();
    conf.setClass("fs.opened.impl", OpenCounting.class, org.apache.hadoop.fs.FileSystem.class);
    conf.setBoolean("fs.opened.impl.disable.cache", true);
    ImageFileReader other = new ImageFileReader(conf);
    OpenCounting.opened.set(0);
    assertThat(remaining(other.read("opened://host" + f))).isEqualTo(big);
    assertThat(OpenCounting.opened.get()).as("read through the file system's own open").isEqualTo(1);
    assertThatThrownBy(() -> other.read("opened://host" + tmp.resolve("missing.jpg")))
        .isInstanceOf(ImageDecodeException.class).hasMessageContaining("missing.jpg does not exist");
  }

  /** A file system of its own scheme ({@code opened://host/...}, not a local one) that serves local files. */
  public static final class OpenCounting extends org.apache.hadoop.fs.FileSystem {
    static final java.util.concurrent.atomic.AtomicInteger opened = new java.util.concurrent.atomic.AtomicInteger();
    private final org.apache.hadoop.fs.RawLocalFileSystem local = new org.apache.hadoop.fs.RawLocalFileSystem();

    @Override
    public void initialize(java.net.URI name, Configuration conf) throws java.io.IOException {
      super.initialize(name, conf);
      local.initialize(java.net.URI.create("file:///"), conf);
    }

    @Override
    public java.net.URI getUri() {
      return java.net.URI.create("opened://host");
    }

    @Override
    public org.apache.hadoop.fs.FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize)
        throws java.io.IOException {
      opened.incrementAndGet();
      return local.open(new org.apache.hadoop.fs.Path(f.toUri().getPath()), bufferSize);
    }

    @Override
    public org.apache.hadoop.fs.FSDataOutputStream create(org.apache.hadoop.fs.Path f,
        org.apache.hadoop.fs.permission.FsPermission permission, boolean overwrite, int bufferSize, short replication,
        long blockSize, org.apache.hadoop.util.Progressable progress) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public org.apache.hadoop.fs.FSDataOutputStream append(org.apache.hadoop.fs.Path f, int bufferSize,
        org.apache.hadoop.util.Progressable progress) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public boolean delete(org.apache.hadoop.fs.Path f, boolean recursive) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public org.apache.hadoop.fs.FileStatus[] listStatus(org.apache.hadoop.fs.Path f) {
      throw new UnsupportedOperationException("not listed");
    }

    @Override
    public void setWorkingDirectory(org.apache.hadoop.fs.Path dir) {}

    @Override
    public org.apache.hadoop.fs.Path getWorkingDirectory() {
      return new org.apache.hadoop.fs.Path("opened://host/");
    }

    @Override
    public boolean mkdirs(org.apache.hadoop.fs.Path f, org.apache.hadoop.fs.permission.FsPermission permission) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public org.apache.hadoop.fs.FileStatus getFileStatus(org.apache.hadoop.fs.Path f) throws java.io.IOException {
      return local.getFileStatus(new org.apache.hadoop.fs.Path(f.toUri().getPath()));
    }
  }

  /**
   * Child JVM entry: reads the file {@code args[0]} names (URL-encoded: the child's locale must not spell the
   * argument, which a task gets from a row as a Java string) as a write task does, prints its size or the failure.
   */
  public static void main(String[] args) {
    try {
      String location = java.net.URLDecoder.decode(args[0], java.nio.charset.StandardCharsets.UTF_8);
      System.out.println("bytes=" + new ImageFileReader(new Configuration()).read(location).remaining());
    } catch (Exception e) {
      System.out.println("failed=" + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /**
   * A task whose JVM reads file names as ASCII (an executor under the POSIX locale) cannot open a local path
   * holding any other character: the task fails saying so, as any I/O failure (not a bad image to skip or
   * quarantine, since every such path fails alike).
   */
  @Test
  void aPathTheExecutorsLocaleCannotNameFailsTheTaskSayingWhy() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.format.io.LocalPaths.nameCharsetHint().isEmpty(),
        "this JVM does not read file names as UTF-8 (a UTF-8 locale makes the file)");
    Path file = Files.write(Files.createDirectories(tmp.resolve("données")).resolve("chat.jpg"), bytes(500, 3));
    assertThat(readInAChild(file, "C.UTF-8")).isEqualTo("bytes=500");
    // (the child prints 'é' as its ASCII output can)
    assertThat(readInAChild(file, "C")).startsWith("failed=IOException: Cannot open the local file " + tmp + "/donn")
        .endsWith("es/chat.jpg (this JVM reads file names as ANSI_X3.4-1968, its locale's charset: a name holding"
            + " other characters cannot be read; run it under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)");
  }

  private static String readInAChild(Path file, String locale) throws Exception {
    return ChildJvm.lineUnderLocale(locale, List.of("bytes=", "failed="), ImageFileReaderTest.class,
        java.net.URLEncoder.encode(file.toString(), java.nio.charset.StandardCharsets.UTF_8));
  }

}
