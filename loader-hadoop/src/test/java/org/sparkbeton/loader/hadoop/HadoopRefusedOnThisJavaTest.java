package org.sparkbeton.loader.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;

/**
 * On a Java that Hadoop 3.3 cannot run on (24 and later: CI's newer-Java leg), a remote dataset is refused in words
 * before any Hadoop class runs, and a local one still loads. Skipped on Java 17 to 22, where the remote tests run.
 */
class HadoopRefusedOnThisJavaTest {
  @TempDir
  Path tmp;

  @Test
  void aRemoteDatasetIsRefusedSayingWhyAndALocalOneStillLoads() throws Exception {
    assumeTrue(HadoopJavaSupport.refusal().isPresent(),
        "Hadoop runs on Java " + Runtime.version().feature() + ": nothing is refused");
    URI remote = URI.create("hdfs://localhost:1/datasets/photos");
    assertThatThrownBy(() -> Loader.builder(remote).batchSize(4).numThreads(1).pipeline("label", new IntDecoder())
        .build())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage(remote + ": " + HadoopJavaSupport.refusal().get()
            + "; local files and dataset directories read on this Java");

    Path local = PhotoShards.write(tmp.resolve("photos"), new int[] {5, 7}, label -> label, 4, 3);
    try (Loader loader = Loader.builder(local).batchSize(4).numThreads(1).dropLast(false).seed(1)
        .pipeline("label", new IntDecoder()).build()) {
      assertThat(Epochs.sortedLabels(Epochs.read(loader))).isEqualTo(Epochs.range(12));
    }
  }
}
