package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;

class StoreWaitNoticeTest {
  /**
   * A store at {@code slowstore://host/...} that answers a look-up after the milliseconds its path's first name
   * gives ({@code /400/x}), as a store being retried does: {@code absent} as not there, {@code broken} as failed.
   */
  public static final class SlowStore extends FileSystem {
    private URI uri;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
      super.initialize(name, conf);
      uri = URI.create(name.getScheme() + "://" + name.getAuthority());
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      String[] names = f.toUri().getPath().split("/");
      try {
        Thread.sleep(Long.parseLong(names[1]));
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      return switch (names[names.length - 1]) {
        case "absent" -> throw new FileNotFoundException(f.toString());
        case "broken" -> throw new IOException("Connection refused");
        default -> new FileStatus(0, true, 1, 0, 0, f);
      };
    }

    @Override
    public URI getUri() {
      return uri;
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
        short replication, long blockSize, Progressable progress) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean rename(Path src, Path dst) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean delete(Path f, boolean recursive) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileStatus[] listStatus(Path f) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void setWorkingDirectory(Path dir) {}

    @Override
    public Path getWorkingDirectory() {
      return new Path(uri);
    }

    @Override
    public boolean mkdirs(Path f, FsPermission permission) {
      throw new UnsupportedOperationException();
    }
  }

  static Configuration withSlowStore() {
    Configuration conf = new Configuration(false);
    conf.set("fs.slowstore.impl", SlowStore.class.getName());
    conf.setBoolean("fs.slowstore.impl.disable.cache", true);
    conf.set("fs.s3a.impl", SlowStore.class.getName()); // the S3A line's hint, without S3A
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  static String reach(String path, Duration first, Duration every) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StoreWaitNotice.reach(withSlowStore(), "beton-prepare", "--input", path, err, first, every);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aStoreThatAnswersInTimeOrSaysAPathIsAbsentIsQuiet() throws IOException {
    assertThat(reach("slowstore://bucket/0/photos", Duration.ofSeconds(5), Duration.ofSeconds(5))).isEmpty();
    assertThat(reach("slowstore://bucket/0/absent", Duration.ofSeconds(5), Duration.ofSeconds(5))).isEmpty();
  }

  @Test
  void aStoreSlowToAnswerIsSaidToBeOnceAndThenCounted() throws IOException {
    String said = reach("slowstore://bucket/700/photos", Duration.ofMillis(100), Duration.ofMillis(250));
    String[] lines = said.split("\n");
    // at 100, 350, 600 ms at least (later lines while Hadoop's first FileSystem call loads its classes)
    assertThat(lines.length).isGreaterThanOrEqualTo(2);
    assertThat(lines[0]).matches("beton-prepare: --input slowstore://bucket/700/photos: the store has not answered"
        + " for [0-9]+ s; still trying \\(Hadoop's client retries a store it cannot reach before failing\\)");
    for (int i = 1; i < lines.length; i++) {
      assertThat(lines[i]).matches("beton-prepare: --input slowstore://bucket/700/photos: the store has not"
          + " answered for [0-9]+ s; still trying");
    }
    assertThat(reach("s3a://bucket/300/photos", Duration.ofMillis(100), Duration.ofSeconds(5)))
        .contains("S3A at Hadoop's defaults for about 15 minutes: bound it with BETON_JAVA_OPTS=\""
            + "-Dspark.hadoop.fs.s3a.attempts.maximum=2 -Dspark.hadoop.fs.s3a.retry.limit=3\"");
  }

  @Test
  void aStoreThatFailsTheCallFailsNamingTheFlagAndPath() {
    assertThatThrownBy(() -> reach("slowstore://bucket/0/broken", Duration.ofSeconds(5), Duration.ofSeconds(5)))
        .isInstanceOf(IOException.class)
        .hasMessage("--input slowstore://bucket/0/broken: the store failed the first call: Connection refused");
  }

  @Test
  void localPathsAreNotCalled() throws IOException {
    // no such directory: a call would not fail (absent is an answer), but none is made, so nothing can wait
    assertThat(reach("/nonexistent/photos", Duration.ZERO.plusMillis(1), Duration.ofMillis(1))).isEmpty();
    assertThat(reach("file:///nonexistent/photos", Duration.ZERO.plusMillis(1), Duration.ofMillis(1))).isEmpty();
  }
}
