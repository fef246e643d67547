package org.sparkbeton.loader.io;

import java.io.IOException;
import java.nio.file.Path;
import org.sparkbeton.format.io.BetonSource;

/**
 * Where a loader reads a file's payload bytes from when it should not map the file itself
 * ({@link org.sparkbeton.loader.LoaderBuilder#readThrough}): a source that is not a local file, or one that
 * throttles or counts reads (tests, {@code beton doctor}). The loader owns and closes what it opens.
 */
@FunctionalInterface
public interface SourceOpener {
  /** The bytes of {@code file}, which the caller will close. */
  BetonSource open(Path file) throws IOException;
}
