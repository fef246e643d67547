package org.sparkbeton.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Spark standalone cluster of separate JVMs started from the test classpath (no Spark
 * distribution): one Master and Workers bound to distinct loopback addresses, so Spark sees distinct
 * hosts (it never places a speculative copy on the host of the running attempt). Recipe from the
 * project's dependency notes: a SPARK_HOME with an empty jars/ and SPARK_SCALA_VERSION=2.12.
 */
final class StandaloneCluster implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final String masterUrl;
  final String classpath;

  StandaloneCluster(Path workDir, List<String> workerHosts) throws IOException, InterruptedException {
    classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path sparkHome = Files.createDirectories(workDir.resolve("spark-home"));
    Files.createDirectories(sparkHome.resolve("jars"));
    int port = freePort();
    masterUrl = "spark://127.0.0.1:" + port;
    start(workDir, "master", "127.0.0.1", sparkHome, List.of("org.apache.spark.deploy.master.Master",
        "--host", "127.0.0.1", "--port", Integer.toString(port), "--webui-port", Integer.toString(freePort())));
    waitForPort(port);
    for (String host : workerHosts) {
      Path work = Files.createDirectories(workDir.resolve("worker-" + host));
      start(workDir, "worker-" + host, host, sparkHome, List.of("org.apache.spark.deploy.worker.Worker",
          "--host", host, "--cores", "1", "--memory", "1g", "--work-dir", work.toString(),
          "--webui-port", Integer.toString(freePort()), masterUrl));
    }
  }

  String masterUrl() {
    return masterUrl;
  }

  private void start(Path workDir, String name, String host, Path sparkHome, List<String> mainAndArgs) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    for (String opt : System.getProperty("spark.it.jvmOpts", "").split(" ")) {
      if (!opt.isBlank()) {
        cmd.add(opt);
      }
    }
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.addAll(mainAndArgs);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(workDir.resolve(name + ".log").toFile());
    Map<String, String> env = pb.environment();
    env.put("SPARK_HOME", sparkHome.toString());
    env.put("SPARK_SCALA_VERSION", "2.12");
    env.put("SPARK_LOCAL_IP", host);
    processes.add(pb.start());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void waitForPort(int port) throws InterruptedException, IOException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(200);
      }
    }
    throw new IOException("The Spark master did not open port " + port + " within 60 s");
  }

  @Override
  public void close() {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

}
