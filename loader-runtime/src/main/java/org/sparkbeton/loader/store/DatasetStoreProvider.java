package org.sparkbeton.loader.store;

import java.io.IOException;
import java.net.URI;

/**
 * Opens {@link DatasetStore}s for {@code Loader.builder(URI)}: found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.sparkbeton.loader.store.DatasetStoreProvider}), so adding loader-hadoop to
 * the classpath is enough for {@code hdfs://} and {@code s3a://}.
 */
public interface DatasetStoreProvider {

  /** True when this provider can open {@code uri} (usually decided by its scheme). */
  boolean supports(URI uri);

  /** A store over the dataset directory {@code uri}, with the provider's default configuration. */
  DatasetStore open(URI uri) throws IOException;
}
