package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.store.DatasetStore;
import org.sparkbeton.loader.store.DatasetStoreProvider;

/**
 * Opens {@link HadoopDatasetStore}s. Found by {@code Loader.builder(URI)} through {@link java.util.ServiceLoader}
 * for every scheme but {@code file:} that Hadoop has a FileSystem for, with a default {@link Configuration}
 * (the {@code core-site.xml} on the classpath); pass one with your configuration to
 * {@code Loader.builder(uri, new HadoopDatasetStoreProvider(conf))}. On a Java that Hadoop 3.3 cannot run on (24 and
 * later, {@link HadoopJavaSupport}) it claims every scheme but {@code file:} and refuses to open, saying why.
 */
public final class HadoopDatasetStoreProvider implements DatasetStoreProvider {
  private final Configuration conf;

  /** With the default configuration (for {@link java.util.ServiceLoader}). */
  public HadoopDatasetStoreProvider() {
    this(new Configuration());
  }

  /** With {@code conf}; S3A's retries it leaves at Hadoop's defaults are bounded ({@link S3aRetries}). */
  public HadoopDatasetStoreProvider(Configuration conf) {
    this.conf = S3aRetries.bounded(Objects.requireNonNull(conf, "conf"));
  }

  @Override
  public boolean supports(URI uri) {
    String scheme = uri.getScheme();
    if (scheme == null) {
      return false;
    }
    if (HadoopJavaSupport.refusal().isPresent()) {
      // Hadoop's FileSystem lookup itself would log the JDK's refusal; open() says it once, in words
      return !scheme.equalsIgnoreCase("file");
    }
    try {
      FileSystem.getFileSystemClass(scheme, conf);
      return true;
    } catch (IOException e) {
      return false; // no FileSystem for this scheme (UnsupportedFileSystemException)
    } catch (RuntimeException e) {
      return false; // a FileSystem configured for it whose class is not on the classpath (s3a:// without hadoop-aws)
    } catch (LinkageError e) {
      return false; // its class is there, a class it needs is not (hadoop-aws without the AWS SDK bundle)
    }
  }

  @Override
  public DatasetStore open(URI uri) throws IOException {
    HadoopJavaSupport.refusal().ifPresent(why -> {
      throw new UnsupportedOperationException(uri + ": " + why + "; local files and dataset directories read on"
          + " this Java");
    });
    return HadoopDatasetStore.open(uri, conf);
  }
}
