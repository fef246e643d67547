package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.resize.Resizer;

/**
 * The native library gives the same bytes on every platform: a dataset written by Graviton executors equals one
 * written on x86-64. Each run records the SHA-256 of everything the codec makes from the test photos (decodes with
 * both IDCTs, an area and a bilinear resize, 4:2:0 and 4:4:4 encodes) under
 * {@code target/cross-platform/<platform>.sha256}; the linux-aarch64 run, after the host's in the same build,
 * compares its digest with linux-x86_64's. (Byte-identical is libjpeg-turbo's design: its NEON and x86 SIMD code
 * compute what its C code does; the resize is the same integers on every path, checked against its Java twin.)
 */
class CrossPlatformPixelsTest {
  private static final Path RECORDS = Path.of("target", "cross-platform");

  @Test
  void everyPlatformMakesTheSameBytes() throws IOException {
    assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    String platform = BundledLibrary.currentPlatform();
    String digest = digestOfEverything(Path.of("src/test/resources/photos"));
    Files.createDirectories(RECORDS);
    Files.writeString(RECORDS.resolve(platform + ".sha256"), digest + "\n");
    if (platform.equals("linux-x86_64")) {
      return; // the reference; recorded for the other platforms' runs
    }
    Path host = RECORDS.resolve("linux-x86_64.sha256");
    assumeTrue(Files.exists(host), "no linux-x86_64 run recorded its digest in this build");
    assertThat(digest).as(platform + " against linux-x86_64").isEqualTo(Files.readString(host).trim());
  }

  private static String digestOfEverything(Path photos) throws IOException {
    MessageDigest all;
    try {
      all = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    List<Path> files;
    try (Stream<Path> list = Files.list(photos)) {
      files = list.filter(f -> f.toString().endsWith(".jpg")).sorted().toList();
    }
    assertThat(files).hasSizeGreaterThanOrEqualTo(5);
    Resizer resizer = new Resizer();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      assertThat(codec.isNative()).isTrue();
      for (Path file : files) {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer src = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        JpegHeader header = new JpegHeader();
        codec.probe(src, header);
        int w = header.width();
        int h = header.height();
        for (Idct idct : Idct.values()) {
          ByteBuffer rgb = ByteBuffer.allocateDirect(w * h * 3);
          codec.decode(src, 8, idct, rgb, 0);
          ByteBuffer shrunk = ByteBuffer.allocateDirect(256 * 200 * 3);
          resizer.resize(rgb, 0, w * 3, 0, 0, w, h, shrunk, 0, 256, 200); // area
          ByteBuffer enlarged = ByteBuffer.allocateDirect(900 * 700 * 3);
          resizer.resize(rgb, 0, w * 3, 10, 10, 150, 120, enlarged, 0, 900, 700); // bilinear
          all.update(rgb.duplicate().clear());
          all.update(shrunk.duplicate().clear());
          all.update(enlarged.duplicate().clear());
          all.update(codec.encode(shrunk, 0, 256, 200, 90, ChromaSubsampling.S420));
          all.update(codec.encode(shrunk, 0, 256, 200, 90, ChromaSubsampling.S444));
        }
      }
    }
    return HexFormat.of().formatHex(all.digest());
  }
}
