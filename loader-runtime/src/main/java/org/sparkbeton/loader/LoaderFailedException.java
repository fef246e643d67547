package org.sparkbeton.loader;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.loader.pipeline.BadSampleException;

/**
 * An epoch failed: a worker's failure, handed to the consumer by the loader's iterator. The message says where
 * ({@code Loader failed in epoch 0, batch 1, sample 7, output 'image': <the cause>}); the cause is the worker's own
 * exception. {@link #isDataError()} tells the dataset's fault (a bad sample, a damaged file, an I/O error) from a
 * bug in an operation or in the loader, so a caller can report the first as the user's to fix without
 * unwrapping.
 */
public final class LoaderFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int epoch;
  private final int batch;
  private final long sample;
  private final String output;

  /**
   * @param sample the sample being read (an index of the loader's index space), -1 when the failure was outside
   *     one sample (a damaged allocation table, a batch operation)
   * @param output the output being computed, null when none was
   */
  LoaderFailedException(int epoch, int batch, long sample, String output, Throwable cause) {
    super(where(epoch, batch, sample, output) + ": " + cause, cause);
    this.epoch = epoch;
    this.batch = batch;
    this.sample = sample;
    this.output = output;
  }

  private static String where(int epoch, int batch, long sample, String output) {
    return "Loader failed in epoch " + epoch + ", batch " + batch + (sample >= 0 ? ", sample " + sample : "")
        + (output != null ? ", output '" + output + "'" : "");
  }

  public int epoch() {
    return epoch;
  }

  public int batch() {
    return batch;
  }

  /** The sample being read when the worker failed, an index of the loader's index space; -1 when none was. */
  public long sample() {
    return sample;
  }

  /** The output being computed when the worker failed; null when none was. */
  public String output() {
    return output;
  }

  /** The message without the cause: {@code Loader failed in epoch 0, batch 1, sample 7, output 'image'}. */
  public String where() {
    return where(epoch, batch, sample, output);
  }

  /**
   * True when the data caused the failure: a bad sample (an undecodable image, a frame that disagrees with its
   * metadata), a malformed or changed file ({@link BetonFormatException}, a page checksum mismatch included), an
   * I/O error. False for anything else: an operation's or the loader's own failure, a bug to report.
   */
  public boolean isDataError() {
    for (Throwable t = getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof BadSampleException || t instanceof BetonFormatException || t instanceof IOException
          || t instanceof UncheckedIOException || t instanceof JpegException || t instanceof ImageDecodeException) {
        return true;
      }
    }
    return false;
  }
}
