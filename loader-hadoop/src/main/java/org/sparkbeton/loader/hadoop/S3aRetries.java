package org.sparkbeton.loader.hadoop;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * S3A's own retries, bounded where a configuration leaves them at Hadoop's defaults. Those defaults (20 AWS SDK
 * attempts under each of 7 S3A retries, a 200 s socket timeout) keep a call to a store that is down retrying for
 * about 13 minutes, without a word, before the loader's own retries ({@code downloadRetries}, each reported to the
 * staging listener) even start; a training run or a {@code beton inspect} sat silent that long. Bounded, a store
 * that refuses connections fails a call in about a second, and an epoch after the loader's retries, with the shard,
 * the store and the cause. A setting the user gave (in {@code core-site.xml}, {@code -D}, or in code) is kept.
 */
public final class S3aRetries {
  /** The bounds: what the AWS SDK and S3A each retry, and how long a socket may stay silent. */
  static final Map<String, String> BOUNDS = Map.of("fs.s3a.attempts.maximum", "2", "fs.s3a.retry.limit", "3",
      "fs.s3a.retry.interval", "250ms", "fs.s3a.connection.timeout", "30000");
  /** The source Hadoop's configuration dumps name for a bound set here. */
  static final String SOURCE = "spark-beton (S3aRetries: bounded for the loader)";

  private S3aRetries() {}

  /** A copy of {@code conf} with {@link #BOUNDS} set where {@code conf} has Hadoop's defaults or nothing. */
  public static Configuration bounded(Configuration conf) {
    Configuration copy = new Configuration(conf);
    BOUNDS.forEach((key, value) -> {
      if (!setByUser(conf, key)) {
        copy.set(key, value, SOURCE);
      }
    });
    return copy;
  }

  /** Whether {@code key} comes from anywhere but Hadoop's {@code core-default.xml}. */
  static boolean setByUser(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return false;
    }
    for (String s : sources) {
      if (!s.equals("core-default.xml")) {
        return true;
      }
    }
    return false;
  }
}
