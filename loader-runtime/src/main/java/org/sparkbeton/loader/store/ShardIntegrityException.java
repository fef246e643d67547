package org.sparkbeton.loader.store;

import java.io.IOException;

/**
 * A shard's bytes do not match the dataset: its checksum differs from the manifest's, or its metadata
 * differs from what the loader read when it opened the dataset. The shard is never used; retrying the
 * download does not help (the store's copy is wrong).
 */
public final class ShardIntegrityException extends IOException {
  private static final long serialVersionUID = 1L;

  public ShardIntegrityException(String message) {
    super(message);
  }
}
