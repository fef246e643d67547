package org.sparkbeton.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster of separate JVMs: one Master and Workers, started from a {@link SparkDistribution}
 * (Spark's own jars, none of ours) the way {@code sbin/start-master.sh} and {@code start-worker.sh} start them.
 * Workers bind to the loopback addresses given, so several of them look like distinct hosts to Spark (it never
 * places a speculative copy on the host of the running attempt). Executors get the distribution's
 * {@code jars/} from the Worker and whatever the application adds.
 */
final class StandaloneCluster implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final String masterUrl;

  StandaloneCluster(Path workDir, SparkDistribution spark, List<String> workerHosts, int coresPerWorker)
      throws IOException, InterruptedException {
    int port = freePort();
    masterUrl = "spark://127.0.0.1:" + port;
    try {
      start(workDir, spark, "master", "127.0.0.1", "org.apache.spark.deploy.master.Master", List.of(
          "--host", "127.0.0.1", "--port", Integer.toString(port), "--webui-port", Integer.toString(freePort())));
      waitForPort(port, workDir.resolve("master.log"));
      for (String host : workerHosts) {
        Path work = Files.createDirectories(workDir.resolve("worker-" + host));
        start(workDir, spark, "worker-" + host, host, "org.apache.spark.deploy.worker.Worker", List.of("--host", host,
            "--cores", Integer.toString(coresPerWorker), "--memory", "1g", "--work-dir", work.toString(),
            "--webui-port", Integer.toString(freePort()), masterUrl));
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      throw e;
    }
  }

  String masterUrl() {
    return masterUrl;
  }

  private void start(Path workDir, SparkDistribution spark, String name, String host, String mainClass,
      List<String> args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(spark.javaCommand("512m", List.of(), mainClass, args))
        .directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile());
    spark.configure(pb, host);
    processes.add(pb.start());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private void waitForPort(int port, Path log) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!processes.get(0).isAlive()) {
        throw new IOException("The Spark master exited with " + processes.get(0).exitValue() + "; see " + log);
      }
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(200);
      }
    }
    throw new IOException("The Spark master did not open port " + port + " within 120 s; see " + log);
  }

  @Override
  public void close() {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
