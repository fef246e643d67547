package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.testsupport.S3ProxyServer;

/**
 * CPU per downloaded byte of each step of a shard download, alone, on one thread: reading the objects
 * through S3A (with the client settings under test), SHA-256 over bytes in memory, writes into the page
 * cache (heap or direct buffer), and the whole chain as the loader runs it. Steps alternate across
 * rounds; medians. Not a test: a probe for the numbers in BENCHMARKS.md.
 *
 * <pre>
 * java -Ds3proxy.jar=... -cp $CP org.sparkbeton.loader.hadoop.DownloadCostProbe /tmp/remote-bench photos-20000-40 \
 *   [rounds=5] [only steps whose name contains this]
 * </pre>
 * (the directory and data set the {@link RemoteLoaderBenchmark} left: its S3Proxy data under {@code dir/s3})
 */
public final class DownloadCostProbe {
  private DownloadCostProbe() {}

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  interface Step {
    long run() throws Exception; // returns bytes processed
  }

  public static void main(String[] args) throws Exception {
    java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
    String key = args[1];
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    java.nio.file.Path scratch = Files.createDirectories(dir.resolve("probe-scratch"));
    List<String> objects = new ArrayList<>();
    try (var files = Files.list(dir.resolve(key))) {
      files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().forEach(objects::add);
    }
    byte[] data = Files.readAllBytes(dir.resolve(key).resolve(objects.get(0)));
    long total = (long) data.length * objects.size();
    try (S3ProxyServer s3 = S3ProxyServer.start(dir.resolve("s3"));
        S3ProxyServer parallelGc = S3ProxyServer.start(dir.resolve("s3"), false, List.of("-Xmx256m",
            "-XX:+UseParallelGC"));
        S3ProxyServer inMemory = S3ProxyServer.start(scratch.resolve("s3-transient"), true, List.of("-Xmx2g"))) {
      S3ProxyHadoop.upload(inMemory, dir.resolve(key), key);
      Map<String, Step> steps = new java.util.LinkedHashMap<>();
      steps.put("server: filesystem store, G1 (the benchmark's), S3A read, 1 MB reads",
          read(s3, key, objects, S3ProxyHadoop.conf(s3), 1 << 20));
      steps.put("server: filesystem store, ParallelGC, S3A read, 1 MB reads",
          read(parallelGc, key, objects, S3ProxyHadoop.conf(parallelGc), 1 << 20));
      steps.put("server: in memory (transient store), S3A read, 1 MB reads",
          read(inMemory, key, objects, S3ProxyHadoop.conf(inMemory), 1 << 20));
      steps.put("S3A read, defaults (8 KB socket buffers), 1 MB reads", read(s3, key, objects, S3ProxyHadoop.conf(s3), 1 << 20));
      steps.put("S3A read, defaults, 64 KB reads", read(s3, key, objects, S3ProxyHadoop.conf(s3), 64 << 10));
      steps.put("S3A read, socket buffers 1 MB, 1 MB reads", read(s3, key, objects, buffers(S3ProxyHadoop.conf(s3), 1 << 20), 1 << 20));
      steps.put("S3A read, socket buffers 4 MB, 1 MB reads", read(s3, key, objects, buffers(S3ProxyHadoop.conf(s3), 4 << 20), 1 << 20));
      steps.put("SHA-256 of bytes in memory, 1 MB updates", () -> {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < objects.size(); i++) {
          for (int at = 0; at < data.length; at += 1 << 20) {
            sha.update(data, at, Math.min(1 << 20, data.length - at));
          }
        }
        sha.digest();
        return total;
      });
      steps.put("chain: read, write heap buffer, SHA-256, fsync; 1 MB chunks (until now)",
          chain(s3, key, objects, scratch, 1 << 20, false));
      steps.put("chain: read, copy to direct buffer, write, SHA-256, fsync; 1 MB chunks",
          chain(s3, key, objects, scratch, 1 << 20, true));
      steps.put("chain: read, copy to direct buffer, write, SHA-256, fsync; 256 KB chunks",
          chain(s3, key, objects, scratch, 256 << 10, true));
      steps.put("chain: read, write heap buffer, SHA-256, fsync; 256 KB chunks",
          chain(s3, key, objects, scratch, 256 << 10, false));
      steps.put("chain: read, copy to direct buffer, write, SHA-256, fsync; 128 KB chunks",
          chain(s3, key, objects, scratch, 128 << 10, true));
      steps.put("chain: read, write heap buffer, SHA-256, fsync; 64 KB chunks",
          chain(s3, key, objects, scratch, 64 << 10, false));
      steps.put("write to page cache + fsync, heap buffer", write(scratch, objects.size(), data, false, true));
      steps.put("write to page cache + fsync, direct buffer", write(scratch, objects.size(), data, true, true));
      steps.put("write to page cache, heap buffer, no fsync", write(scratch, objects.size(), data, false, false));
      steps.put("write to page cache, direct buffer, no fsync", write(scratch, objects.size(), data, true, false));
      if (args.length > 3 && !args[3].isEmpty()) { // only the steps whose name contains this
        steps.keySet().removeIf(name -> !name.contains(args[3]));
      }
      Map<String, List<double[]>> results = new TreeMap<>();
      for (int r = 0; r < rounds; r++) {
        List<String> names = new ArrayList<>(steps.keySet());
        if (r % 2 == 1) {
          java.util.Collections.reverse(names);
        }
        for (String name : names) {
          clear(scratch); // deleting the last round's files (freeing their pages) is not the step's cost
          double server0 = s3.cpuSeconds() + parallelGc.cpuSeconds() + inMemory.cpuSeconds();
          long cpu0 = OS.getProcessCpuTime();
          long t0 = System.nanoTime();
          long bytes = steps.get(name).run();
          double wall = (System.nanoTime() - t0) / 1e9;
          double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9;
          double server = s3.cpuSeconds() + parallelGc.cpuSeconds() + inMemory.cpuSeconds() - server0;
          results.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {cpu / bytes * 1e9,
              server / bytes * 1e9, bytes / wall / 1e6});
        }
      }
      System.out.printf(Locale.ROOT, "%d objects of %.1f MB, one thread, median of %d rounds%n%n", objects.size(),
          data.length / 1e6, rounds);
      System.out.println("| step | loader CPU ns/B | S3 server CPU ns/B | MB/s |");
      System.out.println("|---|---:|---:|---:|");
      for (String name : steps.keySet()) {
        List<double[]> rs = results.get(name);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.0f |%n", name, median(rs, 0), median(rs, 1),
            median(rs, 2));
      }
    }
  }

  static Configuration buffers(Configuration conf, int bytes) {
    conf.setInt("fs.s3a.socket.recv.buffer", bytes);
    conf.setInt("fs.s3a.socket.send.buffer", bytes);
    return conf;
  }

  static Step read(S3ProxyServer s3, String key, List<String> objects, Configuration conf, int chunk) throws IOException {
    FileSystem fs = FileSystem.newInstance(s3.uri(key), conf);
    byte[] buf = new byte[chunk];
    return () -> {
      long n = 0;
      for (String o : objects) {
        try (InputStream in = fs.open(new Path(s3.uri(key + "/" + o)))) {
          int r;
          while ((r = in.read(buf, 0, buf.length)) > 0) {
            n += r;
          }
        }
      }
      return n;
    };
  }

  /** A shard download's copy chain, as ShardDownload runs it, with a chunk size and buffer kind. */
  static Step chain(S3ProxyServer s3, String key, List<String> objects, java.nio.file.Path scratch, int chunk,
      boolean direct) throws IOException {
    FileSystem fs = FileSystem.newInstance(s3.uri(key), S3ProxyHadoop.conf(s3));
    byte[] buf = new byte[chunk];
    ByteBuffer d = ByteBuffer.allocateDirect(chunk);
    return () -> {
      long n = 0;
      int i = 0;
      for (String o : objects) {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = fs.open(new Path(s3.uri(key + "/" + o)));
            FileChannel out = FileChannel.open(scratch.resolve("c" + i++), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
          long have = 0;
          int r;
          while ((r = in.read(buf, 0, buf.length)) > 0) {
            ByteBuffer b;
            if (direct) {
              d.clear();
              d.put(buf, 0, r).flip();
              b = d;
            } else {
              b = ByteBuffer.wrap(buf, 0, r);
            }
            while (b.hasRemaining()) {
              out.write(b, have + b.position());
            }
            sha.update(buf, 0, r);
            have += r;
          }
          out.force(false);
          n += have;
        }
        sha.digest();
      }
      return n;
    };
  }

  static Step write(java.nio.file.Path scratch, int files, byte[] data, boolean direct, boolean fsync) {
    ByteBuffer d = ByteBuffer.allocateDirect(1 << 20);
    return () -> {
      long n = 0;
      for (int i = 0; i < files; i++) {
        java.nio.file.Path f = scratch.resolve("f" + i);
        try (FileChannel out = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
          for (int at = 0; at < data.length; at += 1 << 20) {
            int len = Math.min(1 << 20, data.length - at);
            ByteBuffer b;
            if (direct) {
              d.clear();
              d.put(data, at, len).flip();
              b = d;
            } else {
              b = ByteBuffer.wrap(data, at, len);
            }
            while (b.hasRemaining()) {
              out.write(b);
            }
          }
          if (fsync) {
            out.force(false);
          }
          n += data.length;
        }
      }
      return n;
    };
  }

  static void clear(java.nio.file.Path scratch) throws IOException {
    try (var files = Files.list(scratch)) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
        if (Files.isRegularFile(f)) {
          Files.delete(f);
        }
      }
    }
  }

  static double median(List<double[]> rs, int k) {
    double[] v = rs.stream().mapToDouble(a -> a[k]).sorted().toArray();
    return v[v.length / 2];
  }
}
