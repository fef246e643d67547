package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.sparkbeton.loader.io.MappedPayloadStore;
import org.sparkbeton.loader.io.PayloadStore;
import org.sparkbeton.loader.io.PayloadView;

/**
 * Payload reads of one remote shard, from its staged copy in the cache, memory-mapped while the shard is
 * staged for the current epoch. The stager maps it before any batch that needs it is decoded and unmaps
 * it once every such batch is done (or after the workers stopped), at once, so that an evicted file
 * leaves the disk now rather than at the next GC. A read outside that window is a loader bug and throws
 * instead of reading.
 */
final class StagedShard implements PayloadStore {
  private final String name;
  private volatile MappedPayloadStore mapped;

  StagedShard(String name) {
    this.name = name;
  }

  void map(Path file) throws IOException {
    mapped = new MappedPayloadStore(file);
  }

  /** The caller guarantees no worker reads this shard any more (see the class comment). */
  void unmap() {
    MappedPayloadStore m = mapped;
    mapped = null;
    if (m != null) {
      m.close(); // unmaps at once: the one-argument constructor unmaps on close
    }
  }

  private MappedPayloadStore mapped() {
    MappedPayloadStore m = mapped;
    if (m == null) {
      throw new IllegalStateException("Shard " + name + " is not staged in the local cache");
    }
    return m;
  }

  @Override
  public void copy(long position, int length, ByteBuffer dst, int dstOffset) {
    mapped().copy(position, length, dst, dstOffset);
  }

  @Override
  public boolean view(long position, int length, PayloadView view) {
    return mapped().view(position, length, view);
  }

  @Override
  public void close() {
    unmap();
  }
}
