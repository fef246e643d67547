package org.sparkbeton.spark.write;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark's strings as Java text for a JSON field. A Spark string is bytes and need not be valid UTF-8
 * ({@code cast(unhex('C328FF41') as string)}); decoding it replaces each bad byte with U+FFFD, which would store
 * other bytes than the row held without a word, so such a string is refused, saying how to keep it.
 */
final class Utf8Text {
  private Utf8Text() {}

  static String of(UTF8String s) {
    String text = s.toString();
    // U+FFFD is rare in real text: only then are the bytes compared (a real U+FFFD encodes back as it was)
    if (text.indexOf('\uFFFD') >= 0 && !Arrays.equals(text.getBytes(StandardCharsets.UTF_8), s.getBytes())) {
      throw new IllegalArgumentException("a string that is not valid UTF-8 (bytes " + hexStart(s.getBytes())
          + "): a JSON field holds text only, so its bytes would change. Keep them with stringEncoding=bytes (a"
          + " string column's bytes stored as they are) or as a binary column (cast(... as binary))");
    }
    return text;
  }

  private static String hexStart(byte[] bytes) {
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < Math.min(bytes.length, 16); i++) {
      hex.append(String.format("%02X", bytes[i] & 0xff));
    }
    return bytes.length > 16 ? hex + "..." : hex.toString();
  }
}
