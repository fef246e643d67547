package org.sparkbeton.loader.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** S3A's retries are bounded where Hadoop's defaults stand, and a value the user set is kept. */
class S3aRetriesTest {
  @Test
  void defaultsAreBoundedAndTheUsersSettingsKept() {
    Configuration conf = new Configuration();
    assertThat(conf.get("fs.s3a.attempts.maximum")).isEqualTo("20"); // Hadoop's core-default.xml
    conf.set("fs.s3a.retry.limit", "9");
    Configuration bounded = S3aRetries.bounded(conf);
    assertThat(bounded.get("fs.s3a.attempts.maximum")).isEqualTo("2");
    assertThat(bounded.getPropertySources("fs.s3a.attempts.maximum")).contains(S3aRetries.SOURCE);
    assertThat(bounded.get("fs.s3a.retry.limit")).isEqualTo("9");
    assertThat(bounded.get("fs.s3a.retry.interval")).isEqualTo("250ms");
    assertThat(bounded.get("fs.s3a.connection.timeout")).isEqualTo("30000");
    assertThat(conf.get("fs.s3a.attempts.maximum")).as("the caller's configuration").isEqualTo("20");
    assertThat(S3aRetries.bounded(bounded).get("fs.s3a.attempts.maximum")).isEqualTo("2");
  }

  @Test
  void aConfigurationWithoutHadoopsDefaultsIsBoundedToo() {
    Configuration bare = new Configuration(false);
    bare.set("fs.s3a.connection.timeout", "5000");
    Configuration bounded = S3aRetries.bounded(bare);
    assertThat(bounded.get("fs.s3a.attempts.maximum")).isEqualTo("2");
    assertThat(bounded.get("fs.s3a.connection.timeout")).isEqualTo("5000");
  }
}
