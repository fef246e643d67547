package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.loader.io.MappedPayloadStore;
import org.sparkbeton.loader.io.PageVerifier;
import org.sparkbeton.loader.io.PayloadStore;
import org.sparkbeton.loader.io.PayloadView;

/**
 * Payload reads of one remote shard, from its staged copy in the cache, memory-mapped while the shard is
 * staged for the current epoch. The stager maps it before any batch that needs it is decoded and unmaps
 * it once every such batch is done (or after the workers stopped), at once, so that an evicted file
 * leaves the disk now rather than at the next GC. A read outside that window is a loader bug and throws
 * instead of reading. Each page of a mapping is checked against the manifest's page checksums the first time it is
 * read, as a local shard's pages are: a cached copy is verified whole when it is downloaded, but it stays on the
 * node's disk for later epochs and processes, where a byte changed since (a failing disk, a write into the cache
 * directory) was read as it was, wrong values without an error.
 */
final class StagedShard implements PayloadStore {
  private final String name;
  /** The shard's page checksums from the manifest; null reads pages unchecked (none recorded, or checks off). */
  private final PageChecksums sums;
  private volatile MappedPayloadStore mapped;

  StagedShard(String name, PageChecksums sums) {
    this.name = name;
    this.sums = sums;
  }

  /** Maps the staged copy {@code file}; its pages are checked afresh (the file may be a new download). */
  void map(Path file) throws IOException {
    PageVerifier verifier = sums == null ? null : new PageVerifier(sums, file + " (this node's cached copy of "
        + name + "; delete it and the loader downloads the shard again)");
    mapped = new MappedPayloadStore(file, verifier, true);
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
