package org.sparkbeton.spark.write;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.RecordLayout;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;

/**
 * One task attempt's output: shard files named {@code <prefix>-<seq>.beton} (the prefix is unique per
 * attempt), each a complete standalone .beton streamed to any Hadoop FileSystem, rolled over once a
 * shard's payload bytes reach the target size (the sample that reaches it is the shard's last). Shards
 * are written in {@link PageLayout#COMPACT}: the samples follow the metadata, no page is padded to its
 * end, so a small partition makes a small shard (FFCV's layout would add up to two pages of zeros to
 * each). Keeps checksum, page checksums (computed as the bytes stream out), size and Int/Float min/max per
 * shard for the manifest. {@link #abort()} deletes
 * every file this attempt created.
 */
final class ShardWriter implements AutoCloseable {
  private final FileSystem fs;
  private final org.apache.hadoop.fs.Path dir;
  private final String prefix;
  private final List<BetonField> fields;
  private final BetonWriteConf conf;
  private final int recordSize;
  private final List<org.apache.hadoop.fs.Path> created = new ArrayList<>();
  private final List<ShardEntry> finished = new ArrayList<>();
  private BetonWriter current;
  private HashingOutputStream currentOut;
  private String currentName;
  private ColumnStats.Accumulator[] stats;
  private long currentSamples;

  ShardWriter(FileSystem fs, org.apache.hadoop.fs.Path dir, String prefix, List<BetonField> fields, BetonWriteConf conf) {
    // no hidden .crc beside each shard: the manifest records each shard's SHA-256
    this.fs = RawFileSystems.withoutChecksums(fs);
    this.dir = dir;
    this.prefix = prefix;
    this.fields = fields;
    this.conf = conf;
    this.recordSize = RecordLayout.of(fields.stream().map(BetonField::codec).toList()).recordSize();
  }

  void write(Object[] values) throws IOException {
    if (current == null) {
      open();
    }
    current.append(values);
    currentSamples++;
    for (int f = 0; f < fields.size(); f++) {
      if (stats[f] != null) {
        if (fields.get(f).typeId() == FieldTypes.INT) {
          stats[f].add(((Number) values[f]).longValue());
        } else {
          stats[f].add(((Number) values[f]).doubleValue());
        }
      }
    }
    if (current.dataBytes() >= conf.targetShardSize) {
      finishCurrent();
    }
  }

  private void open() throws IOException {
    currentName = String.format(Locale.ROOT, "%s-%03d.beton", prefix, finished.size()); // ASCII digits, as prefix's
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(dir, currentName);
    created.add(path);
    currentOut = new HashingOutputStream(new CreateOnFirstWrite(fs, path), recordSize);
    current = BetonWriter.builder(fields).pageSize(conf.pageSize).pageLayout(PageLayout.COMPACT)
        .spoolMemory(conf.spoolMemory).open(currentOut, Path.of(conf.spoolDir));
    currentSamples = 0;
    stats = new ColumnStats.Accumulator[fields.size()];
    for (int f = 0; f < fields.size(); f++) {
      int type = fields.get(f).typeId();
      stats[f] = type == FieldTypes.INT ? ColumnStats.Accumulator.forInts()
          : type == FieldTypes.FLOAT ? ColumnStats.Accumulator.forFloats() : null;
    }
  }

  private void finishCurrent() throws IOException {
    current.finish(); // closes the stream
    Map<String, ColumnStats> shardStats = new LinkedHashMap<>();
    for (int f = 0; f < fields.size(); f++) {
      if (stats[f] != null) {
        shardStats.put(fields.get(f).name(), stats[f].result());
      }
    }
    finished.add(new ShardEntry(currentName, currentSamples, currentOut.count(),
        new ShardChecksum(ShardChecksum.SHA256, currentOut.sha256Hex()), shardStats, currentOut.pageChecksums()));
    current = null;
  }

  /**
   * Completes the last shard; returns every shard of this attempt. A task with no rows writes no file, and a shard
   * opened for a sample that was then refused (too large for a page) and given no other is deleted.
   */
  List<ShardEntry> finish() throws IOException {
    if (current != null && currentSamples == 0) {
      org.apache.hadoop.fs.Path empty = created.remove(created.size() - 1);
      try {
        current.close();
      } finally {
        current = null;
        fs.delete(empty, false);
      }
    } else if (current != null) {
      finishCurrent();
    }
    return List.copyOf(finished);
  }

  /** Shards started so far: finished ones and the open one. */
  int shardsSoFar() {
    return finished.size() + (current == null ? 0 : 1);
  }

  /**
   * Bytes written so far: finished shards exactly, plus the payload bytes of the open shard (its metadata,
   * allocation table and any page tails are written when it finishes, after Spark's last metrics update of
   * the task).
   */
  long bytesSoFar() {
    long bytes = 0;
    for (ShardEntry e : finished) {
      bytes += e.bytes();
    }
    return bytes + (current == null ? 0 : current.dataBytes());
  }

  /** Deletes everything this attempt wrote. */
  void abort() throws IOException {
    try {
      if (current != null) {
        current.close();
      }
    } finally {
      current = null;
      for (org.apache.hadoop.fs.Path p : created) {
        fs.delete(p, false);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      abort();
    }
  }
}
