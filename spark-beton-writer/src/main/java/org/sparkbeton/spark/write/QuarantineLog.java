package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.codec.jpeg.JpegReaderWarnings;
import org.sparkbeton.format.JsonStrings;

/**
 * One task attempt's quarantine records: a JSON line per row left out because its image could not be
 * stored ({@code {"source":..., "partition":..., "row":..., "column":..., "reason":...}}, and a {@code "hint"} for
 * a JPEG only a strict decode refuses), in
 * {@code <dataset>/_quarantine/<attempt-unique name>.jsonl}. The file is created on the first record, so
 * clean data leaves no file. Like shards, an attempt's file counts only once the driver publishes a
 * manifest with the attempt committed; {@link #abort()} deletes it, and the driver deletes files of
 * attempts that did not commit.
 */
final class QuarantineLog implements AutoCloseable {
  /** The quarantine directory inside a dataset directory. */
  static final String DIR = "_quarantine";
  /** A record's hint for a JPEG that only a strict decode refuses. */
  static final String LENIENT_HINT = "only a strict decode refuses this JPEG: jpegStrict=false (beton prepare"
      + " --lenient-jpeg) stores what libjpeg decodes around the damage, as FFCV does";

  private final FileSystem fs;
  private final Path file;
  private OutputStream out;
  private long records;

  QuarantineLog(FileSystem fs, Path datasetDir, String attemptPrefix) {
    this.fs = fs;
    this.file = new Path(new Path(datasetDir, DIR), attemptPrefix + ".jsonl");
  }

  /** Records one left-out row; {@code source} may be null when no sourceIdColumn is set. */
  void add(String source, int partition, long row, String column, String reason) {
    StringBuilder line = new StringBuilder(160).append("{\"source\":");
    if (source == null) {
      line.append("null");
    } else {
      JsonStrings.append(line, source);
    }
    line.append(",\"partition\":").append(partition).append(",\"row\":").append(row).append(",\"column\":");
    JsonStrings.append(line, column);
    line.append(",\"reason\":");
    JsonStrings.append(line, reason == null ? "unknown" : reason);
    if (reason != null && JpegReaderWarnings.refusedOnlyWhenStrict(reason)) {
      // what a failing write says of such a JPEG, for the one reading the list to decide on
      line.append(",\"hint\":");
      JsonStrings.append(line, LENIENT_HINT);
    }
    line.append("}\n");
    try {
      if (out == null) {
        out = RawFileSystems.create(RawFileSystems.withoutChecksums(fs), file, false); // no .crc, no forked chmod
      }
      out.write(line.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Cannot write the quarantine record of row " + row + " to " + file, e);
    }
    records++;
  }

  /** Rows recorded so far. */
  long records() {
    return records;
  }

  /** Closes the file; returns its name inside {@value #DIR}, or null when nothing was recorded. */
  String finish() throws IOException {
    if (out == null) {
      return null;
    }
    out.close();
    out = null;
    return file.getName();
  }

  /** Deletes this attempt's file, if any. */
  void abort() throws IOException {
    try {
      close();
    } finally {
      if (records > 0) {
        fs.delete(file, false);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      OutputStream o = out;
      out = null;
      o.close();
    }
  }
}
