package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** KernelMain patches rapaio-jupyter-kernel's internals: the jar the build copies must have them. */
class KernelMainTest {
  @Test
  void theBuildsKernelJarHasWhatKernelMainPatches() throws Exception {
    Path jar = Path.of(System.getProperty("notebooks.kernelJar"));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
        ClassLoader.getPlatformClassLoader())) {
      assertThatCode(() -> KernelMain.requireSupportedKernel(loader)).doesNotThrowAnyException();
    }
  }

  @Test
  void anotherKernelIsRefusedNamingWhatIsMissing() {
    assertThatThrownBy(() -> KernelMain.requireSupportedKernel(ClassLoader.getPlatformClassLoader()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is not rapaio-jupyter-kernel 2.3.0")
        .hasMessageContaining("missing MainApp.kernel, core.ConnectionProperties");
  }

  @Test
  void mainWantsAConnectionFile() {
    assertThatThrownBy(() -> KernelMain.main(new String[] {"/no/such/connection.json"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("usage: KernelMain CONNECTION_FILE (the kernelspec's {connection_file}), got"
            + " /no/such/connection.json");
  }
}
