package org.sparkbeton.loader.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldDescriptor;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * A shard the loader planned with that a compaction has since merged into a larger one and deleted (its
 * keepReplacedFor passed during a long training run): rebuilt byte for byte from the shard that holds its samples
 * now, so the loader goes on with the metadata it planned with. A compaction keeps the dataset's identity and its
 * samples' order, and copies each sample's payload bytes unchanged; the rebuilt file gets the shard's own header,
 * descriptors and metadata records (the bytes the loader read when it opened the dataset), each payload at the
 * pointer the shard had it at, and the shard's allocation table, and must then match the shard's checksum in the
 * manifest the loader opened. Where any of that does not hold (another dataset at the path, samples split over
 * shards, other bytes), the shard is gone for good and the caller's error stands. The identity only tells an
 * overwrite early: the checksum is what proves the rebuilt shard is the one the loader planned with.
 */
final class CompactedShard {
  /** Bytes of the merged shard read from the store at once (several payloads a read). */
  private static final int WINDOW = 8 << 20;

  private CompactedShard() {}

  /** What a rebuild read: the shard that holds the samples now, and how many of its payload bytes it read. */
  record Rebuilt(String from, long bytesRead) {
  }

  /**
   * The metadata of a shard that holds replaced shards' samples now: several rebuilds read from one merged shard
   * (up to 500 shards merge into one), so its allocation table is read once, not once per rebuild.
   */
  @FunctionalInterface
  interface HolderMetadata {
    BetonReader open(ShardEntry holder) throws IOException;
  }

  /** The shard the loader opened, as it knows it: its manifest entry, first sample, reader and metadata records. */
  record Lost(ShardEntry entry, long firstSample, BetonReader reader, MetadataSource metadata) {
  }

  /**
   * Rebuilds {@code lost} into {@code part} from the store's current manifest. Where the dataset's current shards
   * cannot give it back, throws a {@link FileNotFoundException} that says why, caused by {@code gone} (the store's).
   */
  static Rebuilt rebuild(DatasetStore store, HolderMetadata holders, String datasetId, Lost lost, Path part,
      IOException gone) throws IOException {
    try {
      DatasetManifest now = ShardMetadata.readManifest(store);
      String idNow = now.recipe().get(DatasetFiles.DATASET_ID);
      // a dataset written before identities gets one at its first compaction: then the checksum alone decides
      if (datasetId != null && !datasetId.equals(idNow)) {
        throw new IOException("the dataset is " + (idNow == null ? "one without an identity" : idNow) + " now, not"
            + " the " + datasetId + " the loader opened: it was overwritten");
      }
      long first = lost.firstSample();
      long end = first + lost.entry().samples();
      DatasetManifest.PlacedShard holder = now.shardHolding(first, end);
      if (holder == null) {
        throw new IOException("no one shard of the dataset holds its samples [" + first + ", " + end + ") now");
      }
      if (holder.shard().path().equals(lost.entry().path())) {
        throw new IOException("the manifest still lists it: it was deleted by something other than a write or a"
            + " compaction");
      }
      return copy(store, holders.open(holder.shard()), lost, holder.shard(), first - holder.firstSample(), part);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(part);
      FileNotFoundException failed = new FileNotFoundException("Shard " + lost.entry().path() + " of " + store.uri()
          + " is gone since this loader read the dataset's manifest, and cannot be rebuilt from the dataset as it is"
          + " now: " + e.getMessage() + ". Build the loader again to read the dataset as it is now");
      failed.initCause(gone);
      failed.addSuppressed(e);
      throw failed;
    }
  }

  /**
   * The metadata of {@code holder} read from the store: header, descriptors and allocation table, not its records.
   */
  static BetonReader openHolder(DatasetStore store, ShardEntry holder) throws IOException {
    return BetonReader.open(new MetadataSource(holder.path(), holder.bytes(),
        (position, dst) -> store.readFully(holder.path(), position, dst)), ReadOptions.defaults());
  }

  /**
   * Writes the lost shard from {@code holder} ({@code merged}: its metadata), whose sample {@code offset} is the lost
   * shard's first.
   */
  private static Rebuilt copy(DatasetStore store, BetonReader merged, Lost lost, ShardEntry holder, long offset,
      Path part) throws IOException {
    BetonReader original = lost.reader();
    if (!merged.fields().toString().equals(original.fields().toString())) {
      throw new IOException(holder.path() + " has other fields than " + lost.entry().path());
    }
    AllocationTable mine = original.allocations();
    AllocationTable theirs = merged.allocations();
    int[] match = matching(mine, theirs, offset, lost.entry().samples(), holder.path());
    try (FileChannel out = FileChannel.open(part, StandardOpenOption.READ, StandardOpenOption.WRITE,
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)) {
      writeMetadata(out, original, lost.metadata());
      long payloadBytes = copyPayloads(store, holder.path(), mine, theirs, match, out);
      writeAllocationTable(out, original);
      if (out.size() != lost.entry().bytes()) {
        throw new IOException("the rebuilt shard has " + out.size() + " bytes, not " + lost.entry().bytes());
      }
      Digests.Running digest = Digests.running(lost.entry().checksum().algorithm());
      ShardDownload.hashPrefix(out, out.size(), digest);
      String actual = digest.hex();
      if (!actual.equals(lost.entry().checksum().value())) {
        throw new IOException("the shard rebuilt from " + holder.path() + " has "
            + lost.entry().checksum().algorithm() + " " + actual + ", not the manifest's "
            + lost.entry().checksum().value());
      }
      out.force(false);
      return new Rebuilt(holder.path(), payloadBytes);
    }
  }

  /**
   * For each allocation of {@code mine} (pointer order), the index of the same payload in {@code theirs}: the
   * allocations of samples {@code [offset, offset + samples)} there, in pointer order, of the same samples and sizes.
   * This project's writers and merges lay a shard's payloads out in sample order, so the lost shard's stretch is
   * found by a binary search (a merged shard holds up to hundreds of thousands of payloads, and hundreds of shards
   * are rebuilt from one); a shard laid out otherwise is scanned whole. The checksum of the rebuilt shard is the
   * proof either way.
   */
  static int[] matching(AllocationTable mine, AllocationTable theirs, long offset, long samples, String holder)
      throws IOException {
    int[] match = new int[mine.size()];
    if (inStretch(mine, theirs, firstAtOrAfter(theirs, offset), offset, samples, match)) {
      return match;
    }
    int j = 0;
    for (int i = 0; i < theirs.size(); i++) {
      long sample = theirs.sample(i) - offset;
      if (sample < 0 || sample >= samples) {
        continue;
      }
      if (j == match.length || mine.sample(j) != sample || mine.size(j) != theirs.size(i)) {
        throw new IOException(holder + " does not hold the same payloads in the same order");
      }
      match[j++] = i;
    }
    if (j != match.length) {
      throw new IOException(holder + " holds " + j + " of the " + match.length + " payloads");
    }
    return match;
  }

  /** The first index of {@code table} whose sample is at least {@code sample}, where samples ascend by index. */
  private static int firstAtOrAfter(AllocationTable table, long sample) {
    int lo = 0;
    int hi = table.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (table.sample(mid) < sample) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Whether {@code theirs} from {@code start} on holds {@code mine}'s payloads one after the other, each of the same
   * sample and size, with no payload of the range just before or after; fills {@code match} when it does.
   */
  private static boolean inStretch(AllocationTable mine, AllocationTable theirs, int start, long offset,
      long samples, int[] match) {
    if (start + match.length > theirs.size()) {
      return false;
    }
    for (int j = 0; j < match.length; j++) {
      int i = start + j;
      if (theirs.sample(i) - offset != mine.sample(j) || theirs.size(i) != mine.size(j)) {
        return false;
      }
      match[j] = i;
    }
    return !inRange(theirs, start - 1, offset, samples) && !inRange(theirs, start + match.length, offset, samples);
  }

  private static boolean inRange(AllocationTable table, int i, long offset, long samples) {
    if (i < 0 || i >= table.size()) {
      return false;
    }
    long sample = table.sample(i) - offset;
    return sample >= 0 && sample < samples;
  }

  /** Header, descriptors and metadata records, as the loader read them when it opened the dataset. */
  private static void writeMetadata(FileChannel out, BetonReader original, MetadataSource metadata)
      throws IOException {
    ByteBuffer head = ByteBuffer.allocate((int) BetonFormat.metadataStart(original.fields().size()))
        .order(ByteOrder.LITTLE_ENDIAN);
    head.put(original.header().toBytes());
    original.fields().forEach(f -> FieldDescriptor.of(f).writeTo(head));
    write(out, head.flip(), 0);
    write(out, ByteBuffer.wrap(metadata.records()), metadata.recordsAt());
  }

  /**
   * Each payload read from the merged shard, a window of consecutive ones at a time, and written at its pointer;
   * returns the bytes read.
   */
  private static long copyPayloads(DatasetStore store, String holder, AllocationTable mine, AllocationTable theirs,
      int[] match, FileChannel out) throws IOException {
    long read = 0;
    int i = 0;
    while (i < match.length) {
      long from = theirs.ptr(match[i]);
      int j = i + 1;
      while (j < match.length && theirs.ptr(match[j]) + theirs.size(match[j]) - from <= WINDOW) {
        j++;
      }
      long to = theirs.ptr(match[j - 1]) + theirs.size(match[j - 1]);
      if (to - from > Integer.MAX_VALUE - 8) {
        throw new IOException("a payload of " + (to - from) + " bytes in " + holder + " is more than one read holds");
      }
      byte[] window = new byte[(int) (to - from)];
      store.readFully(holder, from, window);
      read += window.length;
      for (int k = i; k < j; k++) {
        write(out, ByteBuffer.wrap(window, (int) (theirs.ptr(match[k]) - from), (int) theirs.size(match[k])),
            mine.ptr(k));
      }
      i = j;
    }
    return read;
  }

  /** The allocation table in pointer order, as the writers of this project lay it out, to the end of the file. */
  private static void writeAllocationTable(FileChannel out, BetonReader original) throws IOException {
    AllocationTable table = original.allocations();
    ByteBuffer b = ByteBuffer.allocate(table.size() * BetonFormat.ALLOCATION_ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < table.size(); i++) {
      b.putLong(table.sample(i)).putLong(table.ptr(i)).putLong(table.size(i));
    }
    write(out, b.flip(), original.header().allocTablePtr());
  }

  private static void write(FileChannel out, ByteBuffer b, long at) throws IOException {
    long position = at;
    while (b.hasRemaining()) {
      position += out.write(b, position);
    }
  }
}
