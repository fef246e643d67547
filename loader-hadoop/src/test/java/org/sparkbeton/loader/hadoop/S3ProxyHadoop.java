package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import org.apache.hadoop.conf.Configuration;
import org.sparkbeton.testsupport.S3ProxyServer;

/** The loader tests' side of {@link S3ProxyServer}: a Hadoop configuration for S3A, and uploads with the AWS SDK. */
final class S3ProxyHadoop {
  private S3ProxyHadoop() {}

  /** S3A pointed at {@code s3}; Hadoop's own retries are kept short so the loader's retries show. */
  static Configuration conf(S3ProxyServer s3) {
    Configuration conf = new Configuration();
    s3.s3aSettings().forEach(conf::set);
    conf.set("fs.s3a.attempts.maximum", "1");
    conf.set("fs.s3a.retry.limit", "1");
    conf.set("fs.s3a.retry.interval", "50ms");
    conf.set("fs.s3a.connection.establish.timeout", "2000");
    conf.set("fs.s3a.connection.timeout", "10000");
    return conf;
  }

  /**
   * Uploads the files of {@code local} to {@code s3a://beton/<prefix>/} with the AWS SDK, which also creates the
   * bucket in a server that keeps objects in memory (S3A does not create buckets).
   */
  static void upload(S3ProxyServer s3, Path local, String prefix) throws IOException {
    AmazonS3 client = AmazonS3ClientBuilder.standard()
        .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration("http://127.0.0.1:" + s3.port(),
            "us-east-1"))
        .withPathStyleAccessEnabled(true)
        .withCredentials(new AWSStaticCredentialsProvider(
            new BasicAWSCredentials(S3ProxyServer.ACCESS, S3ProxyServer.SECRET)))
        .build();
    try (var files = Files.list(local)) {
      if (!client.doesBucketExistV2(S3ProxyServer.BUCKET)) {
        client.createBucket(S3ProxyServer.BUCKET); // the in-memory store starts empty
      }
      for (Path f : (Iterable<Path>) files::iterator) {
        client.putObject(S3ProxyServer.BUCKET, prefix + "/" + f.getFileName(), f.toFile());
      }
    } finally {
      client.shutdown();
    }
  }
}
