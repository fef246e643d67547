package org.sparkbeton.spark.write;

/**
 * What a write's commit does with the dataset already at its path, settled on the driver before the write
 * starts ({@link BetonWriteBuilder#truncate()} for SaveMode.Overwrite), as Iceberg's {@code BatchAppend} and
 * {@code OverwriteByFilter} are.
 */
enum CommitMode {
  /** the new shards are added to the dataset's (whose fields must match), or make a new dataset */
  APPEND,
  /** the new shards replace the dataset's, which are then deleted */
  OVERWRITE,
  /**
   * a new dataset where none was when the write started (SaveMode ErrorIfExists): one published there meanwhile by
   * another write fails this one at publishing, which publishes nothing, rather than adding its samples a second time
   */
  NEW,
  /** as {@link #NEW}, for SaveMode Ignore: a dataset published meanwhile makes this write publish nothing, quietly */
  NEW_UNLESS_PUBLISHED_MEANWHILE
}
