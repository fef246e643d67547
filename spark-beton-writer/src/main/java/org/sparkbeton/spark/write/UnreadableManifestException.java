package org.sparkbeton.spark.write;

import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestFormatException;

/**
 * The {@code _manifest.json} of a dataset a write goes to exists but cannot be parsed (truncated, edited, its checksum
 * wrong). The message names the file and the ways out that work: an append needs the dataset's fields and is refused;
 * an overwrite replaces the dataset, leaving the files it cannot tell to be the old dataset's ({@link
 * DatasetPublisher}).
 */
public final class UnreadableManifestException extends IllegalArgumentException {
  UnreadableManifestException(Path dir, ManifestFormatException cause) {
    super("The manifest of the beton dataset at " + dir + " cannot be read (" + new Path(dir, DatasetManifest.FILE_NAME)
        + "): " + cause.getMessage() + ". Without it the dataset's shards and fields are unknown, so no append"
        + " can go there: restore " + DatasetManifest.FILE_NAME + " from a copy, or replace the dataset with a write"
        + " in mode(\"overwrite\"), which publishes a new manifest and leaves the old shards in place for beton gc "
        + dir + " --delete", cause);
  }
}
