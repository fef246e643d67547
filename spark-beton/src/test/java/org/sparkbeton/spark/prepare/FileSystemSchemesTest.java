package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** A path whose scheme no FileSystem on the class path serves is refused with what to add. */
class FileSystemSchemesTest {
  @Test
  void s3aWithoutHadoopAwsNamesTheJarsAndHowToAddThem() {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.NotOnThisClassPath"); // as where hadoop-aws is missing
    assertThatThrownBy(() -> FileSystemSchemes.require(conf, "--output", "s3a://bucket/train"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--output s3a://bucket/train: no Hadoop FileSystem for scheme 's3a' on the class path (s3a:// needs"
            + " hadoop-aws 3.3.4 and the AWS SDK bundle it was built with, aws-java-sdk-bundle 1.12.262: add them with"
            + " BETON_CLASSPATH=/path/hadoop-aws-3.3.4.jar:/path/aws-java-sdk-bundle-1.12.262.jar; under"
            + " spark-submit, --packages org.apache.hadoop:hadoop-aws:3.3.4)");
  }

  @Test
  void anUnknownSchemeIsRefusedAndLocalAndHdfsPathsPass() {
    Configuration conf = new Configuration();
    assertThatThrownBy(() -> FileSystemSchemes.require(conf, "--input", "abfs://c@a.dfs.core.windows.net/photos"))
        .hasMessageStartingWith("--input abfs://c@a.dfs.core.windows.net/photos: no Hadoop FileSystem for scheme"
            + " 'abfs' on the class path (add the jar of the FileSystem that serves abfs://");
    assertThatCode(() -> {
      FileSystemSchemes.require(conf, "--input", "/data/photos");
      FileSystemSchemes.require(conf, "--input", "relative/photos");
      FileSystemSchemes.require(conf, "--output", "file:/data/out");
      FileSystemSchemes.require(conf, "--output", "hdfs://nn:8020/datasets/x");
    }).doesNotThrowAnyException();
  }
}
