package org.sparkbeton.codec.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A corruption corpus generated from real photos ({@link TestPhotos}) with fixed seeds: the damage real image
 * collections hold (bit rot, overwritten runs, files cut short, cut files "repaired" with an end-of-image marker,
 * runs of 0xFF from failing storage, frame headers that lie about the size) and decompression bombs (PNGs that
 * declare 20000x20000 or more in about a megabyte). The same seed gives the same bytes wherever the photos are the
 * same (they depend on the codec that encoded them: run with the native library for the counts the tests assert).
 */
public final class CorruptionCorpus {
  /** How a mutant was made. */
  public enum Kind {
    /** 1 to 8 random bits flipped anywhere after the start-of-image marker. */
    BIT_FLIPS,
    /** 1 to 3 random bits flipped in the header (markers, tables, frame), before the scan. */
    HEADER_FLIPS,
    /** 4 to 64 bytes of the scan overwritten with random bytes. */
    BYTE_RUN,
    /** 8 to 256 bytes of the scan overwritten with 0xFF, as failing storage returns. */
    FF_RUN,
    /** Cut somewhere in the scan. */
    TRUNCATED,
    /** Cut somewhere in the scan, then an end-of-image marker appended (what "repair" tools do). */
    TRUNCATED_EOI,
    /** A whole photo whose frame header (SOF) claims another size. */
    SOF_LIE,
    /** A small PNG that declares a huge grey image. */
    PNG_BOMB
  }

  /** One corrupt input: a file name for it, how it was made, which photo it came from (-1: none), its bytes. */
  public record Mutant(String name, Kind kind, int photo, byte[] bytes) {
    @Override
    public String toString() {
      return name + " (" + bytes.length + " bytes)";
    }
  }

  /** The random mutation kinds, in the order {@link #mutants} cycles through them. */
  private static final Kind[] RANDOM_KINDS = {Kind.BIT_FLIPS, Kind.HEADER_FLIPS, Kind.BYTE_RUN, Kind.FF_RUN,
      Kind.TRUNCATED, Kind.TRUNCATED_EOI};

  private CorruptionCorpus() {}

  /**
   * {@code n} random mutants of photos {@code 0..} of set {@code seed}: mutant {@code i} applies kind
   * {@code i % 6} ({@link #RANDOM_KINDS}) to photo {@code i / 6}, with a random stream seeded by (seed, i).
   */
  public static List<Mutant> mutants(long seed, int n) {
    List<Mutant> out = new ArrayList<>(n);
    byte[] photo = null;
    for (int i = 0; i < n; i++) {
      int index = i / RANDOM_KINDS.length;
      if (i % RANDOM_KINDS.length == 0) {
        photo = TestPhotos.photo(seed, index);
      }
      Kind kind = RANDOM_KINDS[i % RANDOM_KINDS.length];
      SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ (i + 1) * 0xD1B54A32D192ED03L);
      out.add(new Mutant(String.format("m%04d-%s.jpg", i, kind.name().toLowerCase().replace('_', '-')), kind, index,
          mutate(photo, kind, r)));
    }
    return out;
  }

  /**
   * Photos {@code 0..4} of set {@code seed}, each with a frame header that lies: 65500x65500, 16000x16000, half
   * its size, twice its size, and 8 rows more than it has.
   */
  public static List<Mutant> lyingHeaders(long seed) {
    List<Mutant> out = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      byte[] photo = TestPhotos.photo(seed, i);
      int[] wh = sofSize(photo);
      int[][] sizes = {{65500, 65500}, {16000, 16000}, {wh[0] / 2, wh[1] / 2}, {wh[0] * 2, wh[1] * 2},
          {wh[0], wh[1] + 8}};
      int[] lie = sizes[i];
      out.add(new Mutant(String.format("hdr%dx%d.jpg", lie[0], lie[1]), Kind.SOF_LIE, i,
          withSofSize(photo, lie[0], lie[1])));
    }
    return out;
  }

  /**
   * A grey 8-bit PNG of {@code width x height} zeros, every row filter 0: about a thousandth of its pixel count in
   * bytes (20000x20000 is 0.4 MB, 30000x30000 0.9 MB). Its zlib stream is assembled from one compressed chunk of
   * rows repeated: each chunk ends with a full flush (byte-aligned, the compressor's state reset), so equal chunks
   * compress to equal bytes, and the image is never held or compressed whole.
   */
  public static byte[] pngBomb(int width, int height) {
    return pngBomb(width, height, 8 << 20);
  }

  /** {@link #pngBomb(int, int)} compressing about {@code chunkBytes} of rows at a time. */
  public static byte[] pngBomb(int width, int height, long chunkBytes) {
    try {
      ByteArrayOutputStream png = new ByteArrayOutputStream();
      png.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
      ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
      DataOutputStream h = new DataOutputStream(ihdr);
      h.writeInt(width);
      h.writeInt(height);
      h.write(new byte[] {8, 0, 0, 0, 0}); // 8-bit grey, deflate, adaptive filtering, no interlace
      chunk(png, "IHDR", ihdr.toByteArray());
      long rowBytes = width + 1L; // filter byte 0, then the row's zeros
      int chunkRows = (int) Math.max(1, Math.min(height, chunkBytes / rowBytes));
      ByteArrayOutputStream idat = new ByteArrayOutputStream();
      idat.write(new byte[] {0x78, (byte) 0xDA}); // zlib header: deflate, 32K window, best compression
      byte[] full = deflateZeros(rowBytes * chunkRows);
      for (int y = 0; y + chunkRows <= height; y += chunkRows) {
        idat.write(full);
      }
      if (height % chunkRows != 0) {
        idat.write(deflateZeros(rowBytes * (height % chunkRows)));
      }
      idat.write(new byte[] {0x03, 0x00}); // a final, empty block of fixed codes
      // Adler-32 of n zeros: a stays 1, b adds 1 per byte
      long b = rowBytes * height % 65521;
      new DataOutputStream(idat).writeInt((int) (b << 16 | 1));
      chunk(png, "IDAT", idat.toByteArray());
      chunk(png, "IEND", new byte[0]);
      return png.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code n} zeros as raw deflate blocks ending in a full flush (byte-aligned, nothing final). */
  private static byte[] deflateZeros(long n) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    try {
      deflater.setInput(new byte[Math.toIntExact(n)]);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[1 << 16];
      int got;
      do {
        got = deflater.deflate(buf, 0, buf.length, Deflater.FULL_FLUSH);
        out.write(buf, 0, got);
      } while (got == buf.length || !deflater.needsInput());
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  private static void chunk(OutputStream out, String type, byte[] data) throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    byte[] t = type.getBytes(StandardCharsets.US_ASCII);
    d.writeInt(data.length);
    d.write(t);
    d.write(data);
    CRC32 crc = new CRC32();
    crc.update(t);
    crc.update(data);
    d.writeInt((int) crc.getValue());
  }

  /** {@code jpeg} damaged by {@code kind}, positions drawn from {@code r}. */
  static byte[] mutate(byte[] jpeg, Kind kind, SplittableRandom r) {
    int scan = scanStart(jpeg);
    int end = jpeg.length - 2; // the end-of-image marker
    byte[] b = jpeg.clone();
    switch (kind) {
      case BIT_FLIPS -> flip(b, 2, b.length, 1 + r.nextInt(8), r);
      case HEADER_FLIPS -> flip(b, 2, scan, 1 + r.nextInt(3), r);
      case BYTE_RUN -> {
        int run = 4 + r.nextInt(61);
        int at = scan + r.nextInt(end - scan - run);
        for (int k = 0; k < run; k++) {
          b[at + k] = (byte) r.nextInt(256);
        }
      }
      case FF_RUN -> {
        int run = 8 + r.nextInt(249);
        int at = scan + r.nextInt(end - scan - run);
        Arrays.fill(b, at, at + run, (byte) 0xFF);
      }
      case TRUNCATED -> b = Arrays.copyOf(jpeg, scan + r.nextInt(end - scan));
      case TRUNCATED_EOI -> {
        int cut = scan + r.nextInt(end - scan);
        b = Arrays.copyOf(jpeg, cut + 2);
        b[cut] = (byte) 0xFF;
        b[cut + 1] = (byte) 0xD9;
      }
      default -> throw new IllegalArgumentException("not a random mutation: " + kind);
    }
    return b;
  }

  private static void flip(byte[] b, int from, int to, int flips, SplittableRandom r) {
    for (int f = 0; f < flips; f++) {
      b[from + r.nextInt(to - from)] ^= (byte) (1 << r.nextInt(8));
    }
  }

  /** Offset of the first byte of entropy-coded data: just past the first SOS segment. */
  public static int scanStart(byte[] jpeg) {
    int p = 2;
    while (p + 4 <= jpeg.length) {
      int marker = jpeg[p + 1] & 0xFF;
      int len = ((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF);
      if (marker == 0xDA) {
        return p + 2 + len;
      }
      p += 2 + len;
    }
    throw new IllegalArgumentException("no SOS segment");
  }

  /** {@code {width, height}} from the first SOF0/SOF2 segment. */
  public static int[] sofSize(byte[] jpeg) {
    int p = sofOffset(jpeg);
    return new int[] {((jpeg[p + 7] & 0xFF) << 8) | (jpeg[p + 8] & 0xFF), ((jpeg[p + 5] & 0xFF) << 8)
        | (jpeg[p + 6] & 0xFF)};
  }

  /** {@code jpeg} with its SOF0/SOF2 segment saying {@code w x h}. */
  public static byte[] withSofSize(byte[] jpeg, int w, int h) {
    byte[] b = jpeg.clone();
    int p = sofOffset(b);
    b[p + 5] = (byte) (h >> 8);
    b[p + 6] = (byte) h;
    b[p + 7] = (byte) (w >> 8);
    b[p + 8] = (byte) w;
    return b;
  }

  /**
   * {@code jpeg} with {@code n} zero bytes before its end-of-image marker: every pixel decodes, and libjpeg warns
   * {@code Corrupt JPEG data: ... extraneous bytes before marker 0xd9}, which only a strict decode refuses.
   */
  public static byte[] withPaddingBeforeEoi(byte[] jpeg, int n) {
    byte[] b = Arrays.copyOf(jpeg, jpeg.length + n); // the zeros where the marker was, the marker after them
    System.arraycopy(jpeg, jpeg.length - 2, b, b.length - 2, 2);
    Arrays.fill(b, jpeg.length - 2, b.length - 2, (byte) 0);
    return b;
  }

  /** {@code jpeg} with an APP1 EXIF segment holding only the orientation tag, right after its SOI. */
  public static byte[] withExifOrientation(byte[] jpeg, int orientation) {
    byte[] tiff = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (byte) orientation, 0, 0, 0, 0,
        0, 0};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(jpeg, 0, 2);
    int len = 2 + 6 + tiff.length;
    out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xE1, (byte) (len >> 8), (byte) len, 'E', 'x', 'i', 'f', 0, 0});
    out.writeBytes(tiff);
    out.write(jpeg, 2, jpeg.length - 2);
    return out.toByteArray();
  }

  private static int sofOffset(byte[] jpeg) {
    int p = 2;
    while (p + 4 <= jpeg.length) {
      int m = jpeg[p + 1] & 0xFF;
      if (m == 0xC0 || m == 0xC2) {
        return p;
      }
      p += 2 + (((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF));
    }
    throw new IllegalArgumentException("no SOF0/SOF2 segment");
  }
}
