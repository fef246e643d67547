package org.sparkbeton.codec.nativeimpl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A directory the bundled library may be extracted to and loaded from, named as the fallback warning names it.
 * In order: {@code -Dbeton.native.tmpdir}, {@code java.io.tmpdir}, the working directory. The later ones are there
 * for machines whose temp directory cannot hold code: mounted {@code noexec} (hardened hosts, some Kubernetes
 * pods) or read-only; a Spark executor's working directory is its own, writable, scratch directory.
 */
record ExtractionDirectory(String name, Path dir) {
  /** System property: a directory to extract the library to, tried first. */
  static final String PROPERTY = "beton.native.tmpdir";

  static List<ExtractionDirectory> candidates() {
    Map<Path, String> dirs = new LinkedHashMap<>(); // one attempt per directory, under its first name
    String named = System.getProperty(PROPERTY);
    if (named != null && !named.isBlank()) {
      dirs.putIfAbsent(Path.of(named).toAbsolutePath().normalize(), "-D" + PROPERTY);
    }
    dirs.putIfAbsent(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize(), "java.io.tmpdir");
    dirs.putIfAbsent(Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize(), "the working directory");
    List<ExtractionDirectory> out = new ArrayList<>();
    dirs.forEach((dir, name) -> out.add(new ExtractionDirectory(name, dir)));
    return out;
  }

  /**
   * True when a load failed because of where the file was, not what it is: the kernel refused to map it executable
   * (a {@code noexec} mount gives "failed to map segment from shared object") or to open it.
   */
  static boolean refusedHere(UnsatisfiedLinkError e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("failed to map segment") || m.contains("Operation not permitted")
        || m.contains("Permission denied");
  }

  @Override
  public String toString() {
    return name + " " + dir;
  }
}
