package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.verify.BetonVerifier;

/**
 * Mutates the golden files (bit flips, byte overwrites, truncations, header, descriptor and table
 * edits) and reads everything back: opening, every value of every sample, the JSON dump and the
 * verifier. Nothing but {@link BetonFormatException} may escape. 1,000 cases by default;
 * {@code -Dbeton.fuzz.cases=100000} runs more, {@code -Dbeton.fuzz.seed} picks the seed.
 */
class FuzzTest {
  private static final int CASES = Integer.getInteger("beton.fuzz.cases", 1000);
  private static final long SEED = Long.getLong("beton.fuzz.seed", 20261121L);

  @Test
  void onlyFormatExceptionsEscape() {
    Map<String, byte[]> originals = new HashMap<>();
    for (String name : GoldenFiles.NAMES) {
      originals.put(name, GoldenFiles.bytes(name));
    }
    Random random = new Random(SEED);
    int formatErrors = 0;
    for (int c = 0; c < CASES; c++) {
      String name = GoldenFiles.NAMES.get(random.nextInt(GoldenFiles.NAMES.size()));
      byte[] original = originals.get(name);
      long caseSeed = random.nextLong();
      Mutation m = mutate(original, new Random(caseSeed));
      try {
        readEverything(m.bytes);
      } catch (BetonFormatException expected) {
        assertThat(expected.getMessage()).startsWith("fuzz.beton: ");
        formatErrors++;
      } catch (Throwable t) {
        fail("case " + c + " (" + name + ", " + m.description + ", case seed " + caseSeed + ") escaped with " + t, t);
      } finally {
        m.restore(original);
      }
    }
    // The mutations must actually bite: most cases hit a checked structure.
    assertThat(formatErrors).isGreaterThan(CASES / 10);
  }

  private static void readEverything(byte[] file) throws Exception {
    try (BetonReader r = BetonReader.open(new ByteArraySource("fuzz.beton", file), ReadOptions.defaults())) {
      SampleJson json = new SampleJson(r, null);
      for (long s = 0; s < r.numSamples(); s++) {
        r.sample(s);
        json.row(s);
      }
      BetonVerifier.verify(r);
    }
  }

  /** A mutated view of a file; in-place edits are undone by {@link #restore}. */
  private static final class Mutation {
    byte[] bytes;
    String description;
    final Map<Integer, Byte> saved = new HashMap<>();

    void set(int pos, byte value) {
      saved.putIfAbsent(pos, bytes[pos]);
      bytes[pos] = value;
    }

    void setLong(int pos, long value) {
      byte[] b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
      for (int i = 0; i < 8 && pos + i < bytes.length; i++) {
        set(pos + i, b[i]);
      }
    }

    void restore(byte[] original) {
      if (bytes == original) {
        saved.forEach((pos, v) -> original[pos] = v);
      }
    }
  }

  private static final long[] INTERESTING = {0, 1, -1, 2, 7, 24, 255, 65535, 1 << 21, 1L << 31, 1L << 32,
      Long.MAX_VALUE, Long.MIN_VALUE, 0x7fffffffL};

  private static Mutation mutate(byte[] original, Random rnd) {
    Mutation m = new Mutation();
    m.bytes = original;
    ByteBuffer le = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN);
    int numFields = Short.toUnsignedInt(le.getShort(2));
    long table = le.getLong(16);
    int structureEnd = (int) Math.min(original.length, 24 + 1041L * numFields + 40_000);
    switch (rnd.nextInt(7)) {
      case 0 -> { // bit flips in the header, descriptors and metadata
        int flips = 1 + rnd.nextInt(4);
        for (int i = 0; i < flips; i++) {
          int pos = rnd.nextInt(structureEnd);
          m.set(pos, (byte) (original[pos] ^ (1 << rnd.nextInt(8))));
        }
        m.description = flips + " bit flip(s) in the first " + structureEnd + " bytes";
      }
      case 1 -> { // truncation
        int len = rnd.nextBoolean() ? rnd.nextInt(Math.min(original.length, structureEnd + 1))
            : rnd.nextInt(original.length);
        m.bytes = Arrays.copyOf(original, len);
        m.description = "truncated to " + len;
      }
      case 2 -> { // header field edit
        int[] offsets = {0, 2, 4, 8, 16};
        int at = offsets[rnd.nextInt(offsets.length)];
        long v = INTERESTING[rnd.nextInt(INTERESTING.length)];
        int width = at == 0 || at == 2 ? 2 : at == 4 ? 4 : 8;
        byte[] b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
        for (int i = 0; i < width; i++) {
          m.set(at + i, b[i]);
        }
        m.description = "header field at " + at + " set to " + v;
      }
      case 3 -> { // descriptor: type id or argument bytes
        int field = rnd.nextInt(Math.max(1, numFields));
        int base = 24 + 1041 * field;
        if (rnd.nextBoolean()) {
          m.set(base, (byte) rnd.nextInt(256));
          m.description = "type id of field " + field;
        } else {
          int pos = base + 17 + rnd.nextInt(300);
          m.set(pos, (byte) rnd.nextInt(256));
          m.description = "argument byte " + (pos - base - 17) + " of field " + field;
        }
      }
      case 4 -> { // allocation table entry edit
        int entries = (int) Math.max(0, (original.length - table) / 24);
        if (entries == 0 || table < 0 || table > original.length) {
          m.set(16, (byte) rnd.nextInt(256));
          m.description = "alloc pointer byte";
        } else {
          int entry = rnd.nextInt(entries);
          int field = rnd.nextInt(3);
          long v = rnd.nextBoolean() ? INTERESTING[rnd.nextInt(INTERESTING.length)]
              : le.getLong((int) table + entry * 24 + field * 8) + rnd.nextInt(64) - 32;
          m.setLong((int) table + entry * 24 + field * 8, v);
          m.description = "alloc entry " + entry + " column " + field + " set to " + v;
        }
      }
      case 5 -> { // metadata record word edit
        int pos = (int) Math.min(original.length - 8, 24 + 1041L * numFields + rnd.nextInt(2000));
        m.setLong(Math.max(0, pos), INTERESTING[rnd.nextInt(INTERESTING.length)]);
        m.description = "metadata word at " + pos;
      }
      default -> { // random bytes anywhere
        int n = 1 + rnd.nextInt(16);
        for (int i = 0; i < n; i++) {
          int pos = rnd.nextInt(original.length);
          m.set(pos, (byte) rnd.nextInt(256));
        }
        m.description = n + " random bytes anywhere";
      }
    }
    return m;
  }
}
