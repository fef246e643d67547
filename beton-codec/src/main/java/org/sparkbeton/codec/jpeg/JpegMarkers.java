package org.sparkbeton.codec.jpeg;

import java.nio.ByteBuffer;

/**
 * A bounds-checked walk over JPEG markers up to the first SOF (header probe for the Java path) and the EXIF
 * orientation tag. Never reads outside {@code [position, limit)}; malformed input gives {@link JpegException}.
 */
public final class JpegMarkers {
  private JpegMarkers() {}

  public static void probe(ByteBuffer src, JpegHeader into) {
    int p = src.position();
    int end = src.limit();
    if (end - p == 0) {
      throw new JpegException("Not a JPEG: empty input (0 bytes)");
    }
    if (end - p < 4 || u8(src, p) != 0xFF || u8(src, p + 1) != 0xD8) {
      throw new JpegException("Not a JPEG: missing SOI marker (starts with " + hexStart(src) + ")");
    }
    p += 2;
    boolean jfif = false;
    int adobeTransform = -1;
    while (true) {
      while (p < end && u8(src, p) != 0xFF) { // tolerate garbage between segments as libjpeg does
        p++;
      }
      while (p < end && u8(src, p) == 0xFF) {
        p++;
      }
      if (p >= end) {
        throw new JpegException("Corrupt JPEG: no SOF marker before the end of data");
      }
      int marker = u8(src, p++);
      if (marker == 0xD9 || marker == 0xDA) {
        throw new JpegException(String.format("Corrupt JPEG: marker 0x%02X before any SOF marker", marker));
      }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
        continue;
      }
      if (p + 2 > end) {
        throw new JpegException("Corrupt JPEG: truncated segment length");
      }
      int len = u16(src, p);
      if (len < 2 || p + len > end) {
        throw new JpegException(String.format("Corrupt JPEG: segment 0x%02X length %d runs past the data", marker,
            len));
      }
      int body = p + 2;
      if (marker == 0xE0 && len >= 7 && src.get(body) == 'J' && src.get(body + 1) == 'F' && src.get(body + 2) == 'I'
          && src.get(body + 3) == 'F') {
        jfif = true;
      } else if (marker == 0xEE && len >= 14 && src.get(body) == 'A' && src.get(body + 1) == 'd'
          && src.get(body + 2) == 'o' && src.get(body + 3) == 'b' && src.get(body + 4) == 'e') {
        adobeTransform = u8(src, body + 11);
      } else if (isSof(marker)) {
        if (len < 8) {
          throw new JpegException("Corrupt JPEG: SOF segment too short");
        }
        int height = u16(src, body + 1);
        int width = u16(src, body + 3);
        int n = u8(src, body + 5);
        if (width == 0 || height == 0 || n == 0 || len < 8 + 3 * n) {
          throw new JpegException(String.format("Corrupt JPEG: bad SOF (%dx%d, %d components, length %d)", width,
              height, n, len));
        }
        int[] ids = new int[n];
        int[] hs = new int[n];
        int[] vs = new int[n];
        for (int i = 0; i < n; i++) {
          ids[i] = u8(src, body + 6 + 3 * i);
          int hv = u8(src, body + 7 + 3 * i);
          hs[i] = hv >> 4;
          vs[i] = hv & 15;
        }
        boolean progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
        into.set(width, height, n, colorSpace(n, ids, jfif, adobeTransform), subsampling(n, hs, vs), progressive);
        return;
      }
      p += len;
    }
  }

  /**
   * Checks that a JPEG is complete as a structure: its segments up to the first scan (SOS) are whole, and
   * an end-of-image marker (FF D9) follows the scan. FF D9 cannot occur inside entropy-coded data (an FF
   * there is followed by 00 or a restart marker), so a stream cut anywhere after its header fails this
   * check; a thumbnail's EOI inside an APP segment does not count. What it does not see: corrupt bytes
   * inside a complete scan (only a decode finds those). Used before storing a JPEG's bytes as they are.
   *
   * @throws JpegException naming what is missing
   */
  public static void requireComplete(ByteBuffer src) {
    int p = src.position();
    int end = src.limit();
    if (end - p < 4 || u8(src, p) != 0xFF || u8(src, p + 1) != 0xD8) {
      throw new JpegException("Not a JPEG: missing SOI marker (starts with " + hexStart(src) + ")");
    }
    p += 2;
    while (true) {
      while (p < end && u8(src, p) != 0xFF) {
        p++;
      }
      while (p < end && u8(src, p) == 0xFF) {
        p++;
      }
      if (p >= end) {
        throw new JpegException("Truncated JPEG: the data ends before its first scan (no SOS marker)");
      }
      int marker = u8(src, p++);
      if (marker == 0xD9) {
        throw new JpegException("Corrupt JPEG: end-of-image marker before any scan");
      }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
        continue;
      }
      if (p + 2 > end) {
        throw new JpegException("Truncated JPEG: the data ends inside a segment header");
      }
      int len = u16(src, p);
      if (len < 2 || p + len > end) {
        throw new JpegException(String.format("Truncated JPEG: segment 0x%02X of %d bytes runs past the data", marker,
            len));
      }
      p += len;
      if (marker == 0xDA) {
        break;
      }
    }
    // from the end back: a whole file's EOI is its last two bytes or close to them (trailing bytes after it are
    // allowed), where a search forward would read the whole scan first
    for (int i = end - 2; i >= p; i--) {
      if (u8(src, i) == 0xFF && u8(src, i + 1) == 0xD9) {
        return;
      }
    }
    throw new JpegException("Truncated JPEG: no end-of-image marker after the scan data (the file is cut short)");
  }

  /** EXIF orientation 1..8 from an APP1 segment, 1 when absent or unreadable. */
  public static int exifOrientation(ByteBuffer src) {
    int p = src.position();
    int end = src.limit();
    if (end - p < 4 || u8(src, p) != 0xFF || u8(src, p + 1) != 0xD8) {
      return 1;
    }
    p += 2;
    while (p + 4 <= end && u8(src, p) == 0xFF) {
      int marker = u8(src, p + 1);
      int len = u16(src, p + 2);
      if (marker == 0xDA || len < 2 || p + 2 + len > end) {
        return 1;
      }
      int body = p + 4;
      if (marker == 0xE1 && len >= 16 && src.get(body) == 'E' && src.get(body + 1) == 'x' && src.get(body + 2) == 'i'
          && src.get(body + 3) == 'f') {
        return tiffOrientation(src, body + 6, p + 2 + len);
      }
      p += 2 + len;
    }
    return 1;
  }

  private static int tiffOrientation(ByteBuffer src, int tiff, int end) {
    if (tiff + 8 > end) {
      return 1;
    }
    boolean le = src.get(tiff) == 'I';
    long ifd = read32(src, tiff + 4, le);
    if (ifd < 8 || tiff + ifd + 2 > end) {
      return 1;
    }
    int q = (int) (tiff + ifd);
    int count = read16(src, q, le);
    for (int i = 0; i < count; i++) {
      int e = q + 2 + 12 * i;
      if (e + 12 > end) {
        return 1;
      }
      if (read16(src, e, le) == 0x0112) {
        int v = read16(src, e + 8, le);
        return v >= 1 && v <= 8 ? v : 1;
      }
    }
    return 1;
  }

  private static boolean isSof(int m) {
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
  }

  /** libjpeg's guess (jdapimin.c default_decompress_parms). */
  private static JpegColorSpace colorSpace(int n, int[] ids, boolean jfif, int adobe) {
    switch (n) {
      case 1:
        return JpegColorSpace.GRAYSCALE;
      case 3:
        if (jfif) {
          return JpegColorSpace.YCBCR;
        }
        if (adobe >= 0) {
          return adobe == 0 ? JpegColorSpace.RGB : JpegColorSpace.YCBCR;
        }
        if (ids[0] == 'R' && ids[1] == 'G' && ids[2] == 'B') {
          return JpegColorSpace.RGB;
        }
        return JpegColorSpace.YCBCR;
      case 4:
        return adobe == 2 ? JpegColorSpace.YCCK : JpegColorSpace.CMYK;
      default:
        return JpegColorSpace.UNKNOWN;
    }
  }

  private static ChromaSubsampling subsampling(int n, int[] hs, int[] vs) {
    if (n == 1) {
      return ChromaSubsampling.GRAY;
    }
    if (n != 3 && n != 4) {
      return ChromaSubsampling.UNKNOWN;
    }
    for (int i = 1; i < 3; i++) {
      if (hs[i] != 1 || vs[i] != 1) {
        return ChromaSubsampling.UNKNOWN;
      }
    }
    if (n == 4 && (hs[3] != hs[0] || vs[3] != vs[0])) {
      return ChromaSubsampling.UNKNOWN;
    }
    int h = hs[0];
    int v = vs[0];
    if (h == 1 && v == 1) {
      return ChromaSubsampling.S444;
    } else if (h == 2 && v == 1) {
      return ChromaSubsampling.S422;
    } else if (h == 2 && v == 2) {
      return ChromaSubsampling.S420;
    } else if (h == 1 && v == 2) {
      return ChromaSubsampling.S440;
    } else if (h == 4 && v == 1) {
      return ChromaSubsampling.S411;
    }
    return ChromaSubsampling.UNKNOWN;
  }

  private static String hexStart(ByteBuffer src) {
    StringBuilder sb = new StringBuilder();
    for (int i = src.position(); i < Math.min(src.limit(), src.position() + 4); i++) {
      sb.append(String.format("%02X", src.get(i)));
    }
    return sb.toString();
  }

  private static int u8(ByteBuffer b, int i) {
    return b.get(i) & 0xFF;
  }

  private static int u16(ByteBuffer b, int i) {
    return (u8(b, i) << 8) | u8(b, i + 1);
  }

  private static int read16(ByteBuffer b, int i, boolean le) {
    return le ? (u8(b, i) | (u8(b, i + 1) << 8)) : u16(b, i);
  }

  private static long read32(ByteBuffer b, int i, boolean le) {
    long v = le ? (read16(b, i, true) | ((long) read16(b, i + 2, true) << 16))
        : (((long) u16(b, i) << 16) | u16(b, i + 2));
    return v & 0xFFFFFFFFL;
  }
}
