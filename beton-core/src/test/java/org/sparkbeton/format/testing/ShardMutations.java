package org.sparkbeton.format.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.format.dataset.PageChecksums;

/**
 * The shard-mutation corpus of issue 25: random damage to one shard's bytes, from a fixed seed, spread over the
 * four regions of the file (a uniformly random byte would almost always land in the data, and the header, the
 * records and the table are where damage turns into wrong labels and wrong payloads). Kinds: one bit flipped, one
 * byte set, a run of random bytes, a run of zeros, a range copied from elsewhere in the file, the file cut short,
 * bytes appended. A mutation may leave the bytes as they were (a byte set to its own value): the corpus reports
 * it, and a reader must then return the clean results.
 */
public final class ShardMutations {
  /** One mutation: how it changes a file's bytes, and what it is, for messages. */
  public record Mutation(int index, String description, Op op) {
    public byte[] apply(byte[] clean) {
      return op.apply(clean);
    }

    @Override
    public String toString() {
      return "mutation " + index + " (" + description + ")";
    }
  }

  /** What a mutation does to a copy of the bytes. */
  @FunctionalInterface
  public interface Op {
    byte[] apply(byte[] clean);
  }

  private ShardMutations() {}

  /**
   * {@code count} mutations of a file of {@code length} bytes whose regions {@code regions} describes (the
   * shard's page checksums in the manifest), from {@code seed}.
   */
  public static List<Mutation> corpus(PageChecksums regions, int count, long seed) {
    long length = regions.fileLength();
    long[][] spans = {
        {0, regions.metadataStart()},
        {regions.metadataStart(), regions.dataStart()},
        {regions.dataStart(), regions.allocationTableStart()},
        {regions.allocationTableStart(), length}};
    String[] names = {"header/descriptors", "metadata", "data", "allocation table"};
    SplittableRandom random = new SplittableRandom(seed);
    List<Mutation> out = new ArrayList<>(count);
    while (out.size() < count) {
      int kind = random.nextInt(16);
      int i = out.size();
      if (kind == 14) {
        int cut = (int) random.nextLong(1, length);
        out.add(new Mutation(i, "cut to " + cut + " of " + length + " bytes", b -> Arrays.copyOf(b, cut)));
        continue;
      }
      if (kind == 15) {
        byte[] extra = new byte[random.nextInt(1, 65)];
        random.nextBytes(extra);
        out.add(new Mutation(i, extra.length + " bytes appended", b -> {
          byte[] c = Arrays.copyOf(b, b.length + extra.length);
          System.arraycopy(extra, 0, c, b.length, extra.length);
          return c;
        }));
        continue;
      }
      int r = random.nextInt(4);
      if (spans[r][1] <= spans[r][0]) {
        continue; // an empty region (no data, no table): draw again
      }
      int at = (int) random.nextLong(spans[r][0], spans[r][1]);
      String where = " at " + at + " (" + names[r] + ")";
      switch (kind % 7) {
        case 0, 1 -> {
          int bit = random.nextInt(8);
          out.add(new Mutation(i, "bit " + bit + " flipped" + where, b -> {
            byte[] c = b.clone();
            c[at] ^= (byte) (1 << bit);
            return c;
          }));
        }
        case 2 -> {
          byte v = (byte) random.nextInt(256);
          out.add(new Mutation(i, "byte set to " + (v & 0xff) + where, b -> {
            byte[] c = b.clone();
            c[at] = v;
            return c;
          }));
        }
        case 3 -> {
          byte[] run = new byte[random.nextInt(2, 65)];
          random.nextBytes(run);
          out.add(new Mutation(i, run.length + " random bytes" + where, b -> overwrite(b, at, run)));
        }
        case 4 -> {
          byte[] zeros = new byte[random.nextInt(1, 513)];
          out.add(new Mutation(i, zeros.length + " zero bytes" + where, b -> overwrite(b, at, zeros)));
        }
        default -> {
          int len = random.nextInt(16, 257);
          int from = (int) random.nextLong(0, Math.max(1, length - len));
          out.add(new Mutation(i, len + " bytes copied from " + from + where, b -> {
            byte[] run = Arrays.copyOfRange(b, from, Math.min(b.length, from + len));
            return overwrite(b, at, run);
          }));
        }
      }
    }
    return out;
  }

  private static byte[] overwrite(byte[] clean, int at, byte[] run) {
    byte[] c = clean.clone();
    System.arraycopy(run, 0, c, at, Math.min(run.length, c.length - at));
    return c;
  }
}
