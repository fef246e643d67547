package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * {@link Strictness#STRICT}: libjpeg's corrupt-data warnings are errors on every decode, and a whole decode reads the
 * stream to its end; {@link Strictness#LENIENT} decodes what libjpeg recovers. Run on each codec with the same
 * damaged photos; {@code CorruptionCorpusTest} compares the two paths over the whole corpus.
 */
abstract class StrictDecodeContractTest {
  static final long SEED = 31;

  JpegCodec strict;
  JpegCodec lenient;
  final ByteBuffer dst = ByteBuffer.allocateDirect(4 << 20);

  abstract JpegCodec newCodec(Strictness strictness);

  @BeforeEach
  void open() {
    strict = newCodec(Strictness.STRICT);
    lenient = newCodec(Strictness.LENIENT);
  }

  @AfterEach
  void closeCodecs() {
    strict.close();
    lenient.close();
  }

  /** A photo cut in the middle of its scan, then given an end-of-image marker (what "repair" tools do). */
  static byte[] cutWithEoi() {
    byte[] photo = TestPhotos.photo(SEED, 1);
    int cut = (CorruptionCorpus.scanStart(photo) + photo.length) / 2;
    byte[] b = Arrays.copyOf(photo, cut + 2);
    b[cut] = (byte) 0xFF;
    b[cut + 1] = (byte) 0xD9;
    return b;
  }

  @Test
  void reportsItsStrictness() {
    assertThat(strict.strictness()).isEqualTo(Strictness.STRICT);
    assertThat(lenient.strictness()).isEqualTo(Strictness.LENIENT);
  }

  @Test
  void aCutStreamWithAnEndMarkerIsAnErrorOnlyWhenStrict() {
    byte[] bad = cutWithEoi();
    assertThat(lenient.decode(ByteBuffer.wrap(bad), 8, Idct.FAST, dst, 0)).isPositive();
    assertThatThrownBy(() -> strict.decode(ByteBuffer.wrap(bad), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessageEndingWith("JPEG decode failed: Corrupt JPEG data: premature end of data segment");
  }

  @Test
  void everyDecodeIsStrict() {
    byte[] bad = cutWithEoi();
    int[] wh = CorruptionCorpus.sofSize(bad);
    List<Runnable> decodes = List.of(
        () -> strict.decode(ByteBuffer.wrap(bad), 8, Idct.FAST, dst, 0),
        () -> strict.decode(direct(bad), 1, Idct.FAST, dst, 0),
        () -> strict.decode(ByteBuffer.wrap(bad), 4, Idct.ACCURATE, dst, 0),
        () -> strict.decodeRegion(direct(bad), 8, 0, wh[0] - 8, wh[1], 8, Idct.FAST, dst, 0),
        () -> strict.decodePlanes(ByteBuffer.wrap(bad), 8, Idct.ACCURATE, dst, 0, new YccPlanes()),
        () -> strict.decodePlanes(direct(bad), 2, Idct.ACCURATE, dst, 0, new YccPlanes()));
    for (int i = 0; i < decodes.size(); i++) {
      assertThatThrownBy(decodes.get(i)::run).as("decode %d", i).isInstanceOf(JpegException.class)
          .hasMessageContaining("Corrupt JPEG data: premature end of data segment");
    }
  }

  @Test
  void aProbeReadsTheHeaderAloneInBothModes() {
    JpegHeader h = new JpegHeader();
    strict.probe(ByteBuffer.wrap(cutWithEoi()), h);
    assertThat(new int[] {h.width(), h.height()}).containsExactly(CorruptionCorpus.sofSize(cutWithEoi()));
  }

  /** A frame header claiming half the photo's size: the scan runs on past the frame's last row. */
  @Test
  void aFrameSmallerThanItsScanIsAnErrorWhenStrict() {
    byte[] photo = TestPhotos.photo(SEED, 2);
    int[] wh = CorruptionCorpus.sofSize(photo);
    byte[] lie = CorruptionCorpus.withSofSize(photo, wh[0] / 2, wh[1] / 2);
    assertThat(lenient.decode(ByteBuffer.wrap(lie), 8, Idct.FAST, dst, 0))
        .isEqualTo(ImageSize.pack(wh[0] / 2, wh[1] / 2));
    assertThatThrownBy(() -> strict.decode(ByteBuffer.wrap(lie), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class).hasMessageMatching(".*Corrupt JPEG data: \\d+ extraneous bytes before marker"
            + " 0xd9");
  }

  /** A frame header claiming twice the photo's size: the scan ends before the frame's last row. */
  @Test
  void aFrameLargerThanItsScanIsAnErrorWhenStrict() {
    byte[] photo = TestPhotos.photo(SEED, 2);
    int[] wh = CorruptionCorpus.sofSize(photo);
    byte[] lie = CorruptionCorpus.withSofSize(photo, wh[0] * 2, wh[1] * 2);
    ByteBuffer big = ByteBuffer.allocateDirect(wh[0] * wh[1] * 12);
    assertThat(lenient.decode(ByteBuffer.wrap(lie), 8, Idct.FAST, big, 0)).isEqualTo(ImageSize.pack(wh[0] * 2,
        wh[1] * 2));
    assertThatThrownBy(() -> strict.decode(ByteBuffer.wrap(lie), 8, Idct.FAST, big, 0))
        .isInstanceOf(JpegException.class).hasMessageEndingWith("Corrupt JPEG data: premature end of data segment");
  }

  @Test
  void cleanPhotosDecodeStrictlyToTheSamePixels() {
    ByteBuffer other = ByteBuffer.allocateDirect(dst.capacity());
    for (int i = 0; i < 20; i++) {
      byte[] photo = TestPhotos.photo(SEED, i);
      long a = strict.decode(ByteBuffer.wrap(photo), 8, Idct.FAST, dst, 0);
      long b = lenient.decode(ByteBuffer.wrap(photo), 8, Idct.FAST, other, 0);
      assertThat(a).isEqualTo(b);
      int n = ImageSize.width(a) * ImageSize.height(a) * 3;
      assertThat(dst.slice(0, n)).as("photo %d", i).isEqualTo(other.slice(0, n));
      strict.decodePlanes(direct(photo), 8, Idct.ACCURATE, dst, 0, new YccPlanes());
    }
  }

  static ByteBuffer direct(byte[] b) {
    ByteBuffer d = ByteBuffer.allocateDirect(b.length);
    d.put(b).flip();
    return d;
  }
}
