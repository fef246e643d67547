package org.sparkbeton.loader.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;

/**
 * Reads a local dataset directory as {@link LocalDirectoryStore} does; a test overrides the read it watches or tampers
 * with.
 */
class LocalStore implements DatasetStore {
  private final LocalDirectoryStore local;

  LocalStore(Path dir) {
    this.local = new LocalDirectoryStore(dir);
  }

  @Override
  public URI uri() {
    return local.uri();
  }

  @Override
  public byte[] readManifest() throws IOException {
    return local.readManifest();
  }

  @Override
  public void readFully(String shard, long position, byte[] dst) throws IOException {
    local.readFully(shard, position, dst);
  }

  @Override
  public InputStream open(String shard, long offset) throws IOException {
    return local.open(shard, offset);
  }
}
