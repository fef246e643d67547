package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Which file systems' block locations the driver asks for: those that override {@link FileSystem}'s own answer (HDFS;
 * Hadoop's local file system, a filter over the raw one), not those that keep it (S3A, the raw local file system),
 * whose answer is always {@code localhost} and would cost a status call per shard.
 */
class BetonBatchLocalityTest {
  @Test
  void onlyFileSystemsWithTheirOwnBlockLocationsAreAsked() throws Exception {
    assertThat(BetonBatch.namesHosts(new RawLocalFileSystem())).isFalse();
    assertThat(BetonBatch.namesHosts(FileSystem.getLocal(new Configuration()))).isTrue();
    assertThat(BetonBatch.namesHosts(new org.apache.hadoop.hdfs.DistributedFileSystem())).isTrue();
  }
}
