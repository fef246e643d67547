package org.sparkbeton.loader.store;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the {@link DatasetStoreProvider} for a URI among those on the classpath. */
public final class DatasetStores {
  private DatasetStores() {}

  /** Opens {@code uri} with the first provider that supports it; throws naming the scheme when none does. */
  public static DatasetStore open(URI uri) throws IOException {
    List<String> seen = new ArrayList<>();
    for (DatasetStoreProvider p : ServiceLoader.load(DatasetStoreProvider.class, DatasetStores.class.getClassLoader())) {
      if (p.supports(uri)) {
        return p.open(uri);
      }
      seen.add(p.getClass().getName());
    }
    throw new IllegalArgumentException("No DatasetStore for scheme '" + uri.getScheme() + "' of " + uri + ": "
        + (seen.isEmpty() ? "no DatasetStoreProvider is on the class path"
            : "the DatasetStoreProviders on the class path " + seen + " do not support it")
        + ". For hdfs://, s3a:// and the other Hadoop file systems, add org.sparkbeton:loader-hadoop to the class path"
        + " (s3a:// also needs org.apache.hadoop:hadoop-aws); for another store, pass its provider with"
        + " Loader.builder(URI, DatasetStoreProvider)");
  }
}
