package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;
import org.sparkbeton.spark.write.Causes;
import org.sparkbeton.spark.write.PublishedMeanwhileException;

/** What beton prepare says of failures found after its job ran: in its own flags, with an exit code a script reads. */
class PrepareMessagesTest {
  /**
   * Two prepares into one new output at once: the second to publish published nothing (BetonBatchWriteTest); it
   * said so in DataFrame modes and exited 1, where an output found holding a dataset at the start exits 2.
   */
  @Test
  void aDatasetPublishedMeanwhileIsSaidInFlags() {
    Exception thrown = new SparkException("Writing job aborted",
        new PublishedMeanwhileException("file:/data/ds", "Path file:/data/ds holds a beton dataset ..."));
    PublishedMeanwhileException found = Causes.first(thrown, PublishedMeanwhileException.class);
    assertThat(PrepareJob.publishedMeanwhile(found)).isEqualTo("--output file:/data/ds holds a dataset that another"
        + " write (a second beton prepare?) published while this run wrote, so this run published nothing and"
        + " deleted its files. If that write stored the same input, the dataset is complete (beton verify checks"
        + " it); otherwise pass --append to add this input to it, or --overwrite to replace it");
  }

  /** A summary that could not be written (stdout on a full disk) exited 0. */
  @Test
  void aSummaryStandardOutputCouldNotTakeIsExitTwo() {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
    PrintStream full = new PrintStream(new OutputStream() {
      @Override
      public void write(int b) throws java.io.IOException {
        throw new java.io.IOException("No space left on device");
      }
    }, false, StandardCharsets.UTF_8);
    full.print("5,000 images in 7 shards\n");
    assertThat(OutputCheck.exitCode("beton-prepare", 0, full, err)).isEqualTo(2);
    assertThat(said.toString(StandardCharsets.UTF_8)).isEqualTo("beton-prepare: cannot write the output to standard"
        + " output (a full disk or a closed pipe); the job itself succeeded\n");
    assertThat(OutputCheck.exitCode("beton-prepare", 1, full, err)).isEqualTo(1);
    PrintStream fine = new PrintStream(new ByteArrayOutputStream(), false, StandardCharsets.UTF_8);
    fine.print("summary");
    assertThat(OutputCheck.exitCode("beton-prepare", 0, fine, err)).isZero();
  }
}
