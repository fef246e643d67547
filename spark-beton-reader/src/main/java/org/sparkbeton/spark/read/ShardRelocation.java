package org.sparkbeton.spark.read;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * Finds a planned shard range again after its shard went away while the query ran: a compaction merged the shard
 * and deleted it (its keepReplacedFor passed before the task started, as in a long job or a stage retried hours
 * later). A compaction keeps the dataset's identity and its samples' order, so the same samples are the range of
 * the same dataset-wide indices in the shard that holds them now; those are read instead, the same rows. An
 * overwrite (another identity), or samples no one shard holds, leaves the shard missing.
 */
final class ShardRelocation {
  private ShardRelocation() {}

  /**
   * The range of the dataset as it is now that holds {@code range}'s samples; throws a {@link FileNotFoundException}
   * that adds why not to {@code missing} (the shard's own error) where there is none.
   */
  static ShardRange relocate(ShardRange range, Configuration conf, FileNotFoundException missing)
      throws FileNotFoundException {
    ShardRange.Origin origin = range.origin();
    if (origin == null) {
      throw missing;
    }
    try {
      Path dir = new Path(origin.dataset());
      DatasetManifest now = DatasetInputs.readManifest(dir.getFileSystem(conf), dir);
      String idNow = now.recipe().get(DatasetFiles.DATASET_ID);
      if (!origin.datasetId().equals(idNow)) {
        throw new IOException("the dataset is " + (idNow == null ? "one without an identity" : idNow) + " now, not"
            + " the " + origin.datasetId() + " this query planned: it was overwritten");
      }
      long first = origin.firstSample() + range.fromSample();
      long end = origin.firstSample() + range.toSample();
      DatasetManifest.PlacedShard holder = now.shardHolding(first, end);
      if (holder == null) {
        throw new IOException("no one shard of the dataset holds its samples [" + first + ", " + end + ") now");
      }
      ShardEntry e = holder.shard();
      String path = DatasetInputs.childPath(dir, dir.toString(), e.path());
      if (path.equals(range.path())) {
        throw new IOException("its manifest still lists it");
      }
      long at = holder.firstSample();
      return new ShardRange(path, range.shardIndex(), first - at, end - at, e.bytes(), e.samples(), e.pageChecksums(),
          new ShardRange.Origin(origin.dataset(), origin.datasetId(), at));
    } catch (IOException | RuntimeException e) {
      FileNotFoundException notFound = new FileNotFoundException(missing.getMessage() + ". Its samples are not in"
          + " the dataset as it is now either: " + e.getMessage());
      notFound.initCause(missing);
      throw notFound;
    }
  }
}
