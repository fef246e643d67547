package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelSpecTest {
  @TempDir
  Path dir;

  private KernelSpec spec(List<String> jvm) throws Exception {
    Path jar = Files.writeString(dir.resolve("kernel.jar"), "not really a jar");
    return new KernelSpec(Path.of("/opt/jdk/bin/java"), List.of(Path.of("/build/classes"), Path.of("/m2/spark.jar")),
        jar, dir.resolve("work"), jvm);
  }

  @Test
  void startsKernelMainWithTheClassPathAndTheKernelJarLast() throws Exception {
    KernelSpec spec = spec(List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx3g"));
    @SuppressWarnings("unchecked")
    List<String> argv = (List<String>) spec.json().get("argv");
    assertThat(argv.get(0)).isEqualTo("/opt/jdk/bin/java");
    assertThat(argv.subList(argv.size() - 2, argv.size()))
        .containsExactly(KernelMain.class.getName(), "{connection_file}");
    assertThat(argv.get(argv.indexOf("-cp") + 1))
        .isEqualTo("/build/classes:/m2/spark.jar:" + dir.resolve("kernel.jar"));
    assertThat(argv).contains("-D" + Notebook.WORK_PROPERTY + "=" + dir.resolve("work"), "-Djava.awt.headless=true");
    // the caller's -Xmx comes after the default, so it wins
    assertThat(argv.indexOf("-Xmx3g")).isGreaterThan(argv.indexOf(KernelSpec.DEFAULT_HEAP));
    // DJL offline, its natives unpacked next to the work folder, PyTorch on one thread; -Xmx3g still after them
    assertThat(argv).contains("-Dai.djl.offline=true", "-DDJL_CACHE_DIR=" + dir.resolve("djl-cache"),
        "-DENGINE_CACHE_DIR=" + dir.resolve("djl-cache"), "-Dai.djl.pytorch.num_threads=1",
        "-Dai.djl.pytorch.num_interop_threads=1");
    assertThat(argv.indexOf("-Xmx3g")).isGreaterThan(argv.indexOf("-Dai.djl.pytorch.num_threads=1"));
    String log4j = argv.stream().filter(a -> a.startsWith("-Dlog4j2.configurationFile=")).findFirst().orElseThrow();
    assertThat(Path.of(log4j.substring(log4j.indexOf('=') + 1))).isRegularFile();
  }

  @Test
  void writesKernelJsonWhereJupyterLooks() throws Exception {
    Path folder = spec(List.of()).write(dir.resolve("jupyter"));
    assertThat(folder).isEqualTo(dir.resolve("jupyter/kernels/spark-beton"));
    JsonNode json = new ObjectMapper().readTree(folder.resolve("kernel.json").toFile());
    assertThat(json.path("display_name").asText()).isEqualTo(KernelSpec.DISPLAY_NAME);
    assertThat(json.path("language").asText()).isEqualTo("java");
    assertThat(json.path("env").path("SPARK_LOCAL_IP").asText()).isEqualTo("127.0.0.1");
    assertThat(json.path("env").path("RJK_CLASSPATH").asText()).isEmpty();
    assertThat(json.path("argv").size()).isEqualTo(((List<?>) spec(List.of()).json().get("argv")).size());
  }

  @Test
  void refusesAMissingKernelJar() {
    assertThatThrownBy(() -> new KernelSpec(Path.of("java"), List.of(), dir.resolve("none.jar"), dir, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("No kernel jar at " + dir.resolve("none.jar"));
  }

  @Test
  void refusesAClassPathEntryWithASeparator() throws Exception {
    Path jar = Files.writeString(dir.resolve("kernel.jar"), "x");
    assertThatThrownBy(() -> new KernelSpec(Path.of("java"), List.of(Path.of("/a:/b")), jar, dir, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Class path entry '/a:/b' is empty or contains ':'");
  }

  @Test
  void mainNamesAMissingOption() {
    assertThatThrownBy(() -> KernelSpec.main(new String[] {"--java", "java"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing --jupyter-dir");
  }

  @Test
  void mainWritesTheSpecAndPassesTheRestAsJvmOptions() throws Exception {
    Path jar = Files.writeString(dir.resolve("kernel.jar"), "x");
    KernelSpec.main(new String[] {"--jupyter-dir", dir.resolve("j").toString(), "--java", "/usr/bin/java",
        "--kernel-jar", jar.toString(), "--class-path", "/a.jar:/b.jar", "--work", dir.toString(), "-Xmx1g", "-Dx=y"});
    JsonNode argv = new ObjectMapper().readTree(dir.resolve("j/kernels/spark-beton/kernel.json").toFile()).path("argv");
    List<String> args = new ObjectMapper().convertValue(argv, List.class);
    assertThat(args).contains("-Xmx1g", "-Dx=y", "/a.jar:/b.jar:" + jar);
  }
}
