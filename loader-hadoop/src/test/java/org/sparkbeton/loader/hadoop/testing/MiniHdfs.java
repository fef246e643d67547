package org.sparkbeton.loader.hadoop.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS for tests (MiniDFSCluster: NameNode and one DataNode in the test JVM) and datasets copied into it,
 * for loader-hadoop's tests and beton-cli's (this module's test-jar).
 */
public final class MiniHdfs {
  private MiniHdfs() {}

  /** A cluster with one datanode, storing under {@code baseDir}, active; the caller shuts it down. */
  public static MiniDFSCluster start(Path baseDir) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toString());
    MiniDFSCluster hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    hdfs.waitActive();
    return hdfs;
  }

  /**
   * Copies the files of the local directory {@code dir} (a dataset directory: shards and manifest) into
   * {@code path} of {@code hdfs}; returns the copy's URI ({@code hdfs://host:port/path}).
   */
  public static String upload(MiniDFSCluster hdfs, Path dir, String path) throws IOException {
    FileSystem fs = hdfs.getFileSystem();
    String uri = fs.getUri() + path;
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(f.toUri()),
            new org.apache.hadoop.fs.Path(uri + "/" + f.getFileName()));
      }
    }
    return uri;
  }
}
