package org.sparkbeton.spark.prepare;

import java.util.Optional;
import org.sparkbeton.format.ByteSizes;
import org.sparkbeton.format.Counts;

/**
 * The note after a run that wrote many small shards, in the command line's terms ({@code --shards}, {@code beton
 * compact}). The writer gives the same advice in the DataFrame API's terms ({@code df.coalesce}); the command line's
 * logging configuration ({@code bin/log4j2-quiet.properties}) drops that one, so a user of {@code beton prepare} reads
 * advice about flags they can pass. Same thresholds as the writer's.
 */
final class SmallShardsNote {
  /** Fewer shards than this are never too many. */
  static final int MIN_SHARDS = 32;
  /** Shards smaller than this on average are small. */
  static final long SMALL_BYTES = 4L << 20;
  /** The shard size the note aims at. */
  static final long AIM_BYTES = 128L << 20;

  private SmallShardsNote() {}

  /** The note for what a run wrote, or none. */
  static Optional<String> of(ImageFolderPrepare.Result r) {
    long shards = r.written().shards();
    long bytes = r.written().bytes();
    if (shards < MIN_SHARDS || bytes >= SMALL_BYTES * shards) {
      return Optional.empty();
    }
    long aim = Math.max(1, (bytes + AIM_BYTES - 1) / AIM_BYTES);
    return Optional.of(Counts.of(shards, "shard") + " of " + ByteSizes.human(bytes / shards) + " on average:"
        + " small shards slow every open of the dataset (reads and the loader open each one); --shards " + aim
        + " writes shards of about " + ByteSizes.human(Math.min(bytes, AIM_BYTES)) + ", and beton compact "
        + r.output() + " merges the shards written");
  }
}
