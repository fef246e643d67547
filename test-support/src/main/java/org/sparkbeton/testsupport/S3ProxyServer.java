package org.sparkbeton.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A local S3-compatible server for tests and benchmarks: S3Proxy (Maven Central {@code org.gaul:s3proxy}, the jar
 * a module's build copies to {@code target/s3proxy}) in its own JVM (its Jackson and Guava differ from Hadoop's),
 * storing objects as files under a directory, so a restarted server serves the same objects and a test can kill it
 * mid-transfer. This class needs neither Hadoop nor an S3 client: {@link #s3aSettings()} gives the {@code fs.s3a.*}
 * settings that point S3A at it, for a Hadoop configuration or a Spark session ({@code spark.hadoop.} + key).
 */
public final class S3ProxyServer implements AutoCloseable {
  public static final String BUCKET = "beton";
  public static final String ACCESS = "access";
  public static final String SECRET = "secret-key";

  private final Path dir;
  private final int port;
  private final List<String> jvmOptions;
  private Process process;

  private S3ProxyServer(Path dir, int port, List<String> jvmOptions) {
    this.dir = dir;
    this.port = port;
    this.jvmOptions = jvmOptions;
  }

  /** Starts a server over {@code dir} (created) with an empty bucket {@link #BUCKET}. */
  public static S3ProxyServer start(Path dir) throws IOException, InterruptedException {
    return start(dir, false, List.of("-Xmx256m"));
  }

  /**
   * Starts a server that keeps objects in files under {@code dir} or, {@code inMemory}, in its heap
   * (jclouds' transient store: they are lost when it stops), in a JVM with {@code jvmOptions}.
   */
  public static S3ProxyServer start(Path dir, boolean inMemory, List<String> jvmOptions)
      throws IOException, InterruptedException {
    Files.createDirectories(dir.resolve("data").resolve(BUCKET));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Files.writeString(dir.resolve("s3proxy.conf"), String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + ACCESS,
        "s3proxy.credential=" + SECRET,
        "jclouds.provider=" + (inMemory ? "transient" : "filesystem"),
        "jclouds.filesystem.basedir=" + dir.resolve("data"),
        "jclouds.identity=" + ACCESS,
        "jclouds.credential=" + SECRET, ""));
    S3ProxyServer server = new S3ProxyServer(dir, port, List.copyOf(jvmOptions));
    server.restart();
    return server;
  }

  /** (Re)starts the server process and waits until it accepts connections. */
  public void restart() throws IOException, InterruptedException {
    String jar = System.getProperty("s3proxy.jar", "target/s3proxy/s3proxy.jar");
    if (!Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException("No S3Proxy jar at " + jar + ": build the module with Maven, which copies it there");
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar, "--properties", dir.resolve("s3proxy.conf").toString()));
    process = new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("s3proxy.log").toFile()))
        .start();
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("S3Proxy exited with " + process.exitValue() + "; see "
            + dir.resolve("s3proxy.log"));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    kill();
    throw new IllegalStateException("S3Proxy did not start within 90 s; see " + dir.resolve("s3proxy.log"));
  }

  /** CPU seconds the server process has used so far (Linux {@code /proc}; -1 elsewhere). */
  public double cpuSeconds() {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime, in USER_HZ ticks
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Kills the server at once (SIGKILL): transfers in progress break. */
  public void kill() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public int port() {
    return port;
  }

  /** {@code s3a://beton/<key>}. */
  public URI uri(String key) {
    return URI.create("s3a://" + BUCKET + "/" + key);
  }

  /**
   * The {@code fs.s3a.*} settings that point S3A (hadoop-aws 3.3) at this server. Directory markers are kept:
   * after each PUT, S3A otherwise deletes the parent "directory" markers with a multi-object delete, which
   * S3Proxy answers only after about 10 s, so every file S3A writes here would take 10 s (S3 itself answers at
   * once; keeping markers is a supported S3A mode since Hadoop 3.3.1 and changes nothing a reader sees).
   */
  public Map<String, String> s3aSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    s.put("fs.s3a.path.style.access", "true");
    s.put("fs.s3a.connection.ssl.enabled", "false");
    s.put("fs.s3a.access.key", ACCESS);
    s.put("fs.s3a.secret.key", SECRET);
    s.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    s.put("fs.s3a.bucket.probe", "0");
    s.put("fs.s3a.directory.marker.retention", "keep");
    return s;
  }

  @Override
  public void close() {
    kill();
  }
}
