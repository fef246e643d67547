package org.sparkbeton.format.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The FFCV-written golden files, shipped gzipped in the test resources (see {@code golden/README.md}
 * there), unpacked once per JVM into a temporary directory.
 */
public final class GoldenFiles {
  public static final List<String> NAMES =
      List.of("worked_example", "jpg_labels", "every_field", "scalars_only", "page_spill");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path dir;

  private GoldenFiles() {}

  /** The unpacked {@code NAME.beton}. */
  public static synchronized Path path(String name) {
    try {
      if (dir == null) {
        dir = Files.createTempDirectory("beton-golden-");
        dir.toFile().deleteOnExit();
      }
      Path file = dir.resolve(name + ".beton");
      if (!Files.exists(file)) {
        try (InputStream in = new GZIPInputStream(resource("/golden/" + name + ".beton.gz"))) {
          Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        file.toFile().deleteOnExit();
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static byte[] bytes(String name) {
    try {
      return Files.readAllBytes(path(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The parsed {@code NAME.expected.json}. */
  public static JsonNode expected(String name) {
    try (InputStream in = resource("/golden/" + name + ".expected.json")) {
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = GoldenFiles.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("Missing test resource " + name);
    }
    return in;
  }
}
