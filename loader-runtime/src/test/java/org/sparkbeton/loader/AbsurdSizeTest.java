package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;

/**
 * A sample whose metadata claims an absurd image size is a bad sample when read: {@code build()} succeeds, plans
 * (and allocates) for the sane images only, and the policy decides. Also a JPEG whose frame disagrees with its
 * metadata.
 */
class AbsurdSizeTest {
  @TempDir Path tmp;

  /**
   * 12 photos; sample 3 claims 65500x65500, sample 5 16000x16000, sample 8 a size its frame does not have, sample 10
   * a sane size over a payload with no frame header (SOI, then bytes that are no marker).
   */
  private Path lies() throws Exception {
    List<Object[]> samples = new ArrayList<>(PhotoDatasets.samples(8, 12));
    samples.set(3, PhotoDatasets.lyingSize(8, 3, 3, 65500, 65500));
    samples.set(5, PhotoDatasets.lyingSize(8, 5, 5, 16000, 16000));
    RgbImage real = (RgbImage) samples.get(8)[0];
    samples.set(8, PhotoDatasets.lyingSize(8, 8, 8, real.width() + 1, real.height()));
    byte[] noFrame = new byte[600];
    noFrame[0] = (byte) 0xFF;
    noFrame[1] = (byte) 0xD8;
    samples.set(10, new Object[] {RgbImage.jpeg(real.width(), real.height(), noFrame), 10L});
    return PhotoDatasets.write(tmp.resolve("lies"), List.of(samples));
  }

  private static LoaderBuilder rrc(Path dir, BadSamplePolicy policy) {
    return Loader.builder(dir).batchSize(4).numThreads(2).onBadSample(policy).dropLast(false)
        .pipeline("image", new RandomResizedCropRgbDecoder(32, 32)).pipeline("label", new IntDecoder());
  }

  @Test
  void buildSucceedsAndPlansForTheSaneImagesOnly() throws Exception {
    Path dir = lies();
    try (Loader loader = rrc(dir, BadSamplePolicy.SKIP).build()) {
      // per worker: a crop box of the largest sane photo (at most 500 x 500 x 3 bytes), not 65500^2 x 3
      assertThat(loader.offHeapBytes()).isLessThan(8L << 20);
      List<Long> labels = new ArrayList<>();
      for (Batch b : loader) {
        for (int i = 0; i < b.size(); i++) {
          labels.add(b.data("label").getLong(8 * i));
        }
      }
      assertThat(labels).containsExactly(0L, 1L, 2L, 4L, 6L, 7L, 9L, 11L);
      assertThat(loader.badSamples().events()).extracting(BadSamples.Event::reason).anySatisfy(r ->
          assertThat(r).endsWith("part-00000.beton, sample 3, field 'image': its metadata claims a 65500x65500 image"
              + " (4290250000 pixels), over the loader's maxImagePixels of 89478485"))
          .anySatisfy(r -> assertThat(r).contains("sample 5, field 'image': its metadata claims a 16000x16000 image"))
          .anySatisfy(r -> assertThat(r).contains("sample 8, field 'image': the JPEG's frame is "))
          .anySatisfy(r -> assertThat(r).endsWith("sample 10, field 'image': the JPEG payload has no readable frame"
              + " header (SOF marker)"));
    }
  }

  @Test
  void underFailTheEpochFailsAtTheSampleNotTheBuild() throws Exception {
    Path dir = lies();
    try (Loader loader = rrc(dir, BadSamplePolicy.FAIL).numThreads(1).build()) { // one thread: sample 3 fails first
      assertThatThrownBy(() -> {
        for (Batch b : loader) {
          b.size();
        }
      }).hasMessageStartingWith("Loader failed in epoch 0, batch 0, sample 3, output 'image': ")
          .hasMessageContaining("65500x65500 image");
    }
  }

  @Test
  void maxImagePixelsIsTheLimit() throws Exception {
    Path dir = lies();
    // below every photo: every sample is bad, and the build still succeeds
    try (Loader loader = rrc(dir, BadSamplePolicy.SKIP).maxImagePixels(1000).build()) {
      assertThat(loader.iterator().hasNext()).isFalse();
      assertThat(loader.badSamples().count(0)).isEqualTo(12);
    }
    assertThatThrownBy(() -> rrc(dir, BadSamplePolicy.SKIP).maxImagePixels(0))
        .hasMessage("maxImagePixels must be 1 to 715827861 (3 bytes each must fit one buffer), got 0");
  }

  @Test
  void simpleRgbPlansTheSaneSizeAndRefusesTheLiesWhenRead() throws Exception {
    // every photo the same size: re-encode one photo 6 times, then two lies
    byte[] jpeg = ((RgbImage) PhotoDatasets.sample(8, 0, 0)[0]).payloadBytes();
    RgbImage one = (RgbImage) PhotoDatasets.sample(8, 0, 0)[0];
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      samples.add(new Object[] {RgbImage.jpeg(one.width(), one.height(), jpeg), (long) i});
    }
    samples.add(new Object[] {RgbImage.jpeg(65500, 65500, jpeg), 6L});
    // the planned size in its metadata, another photo in its payload
    samples.add(new Object[] {RgbImage.jpeg(one.width(), one.height(),
        ((RgbImage) PhotoDatasets.sample(8, 1, 7)[0]).payloadBytes()), 7L});
    Path dir = PhotoDatasets.write(tmp.resolve("simple"), List.of(samples));
    try (Loader loader = Loader.builder(dir).batchSize(8).numThreads(1).dropLast(false)
        .onBadSample(BadSamplePolicy.REPLACE).pipeline("image", new SimpleRgbDecoder())
        .pipeline("label", new IntDecoder()).build()) {
      Batch b = loader.iterator().next();
      assertThat(b.spec("image").shape()).containsExactly(one.height(), one.width(), 3);
      assertThat(b.sample(6)).isEqualTo(0); // 6 and 7 wrap around to sample 0
      assertThat(b.sample(7)).isEqualTo(0);
      assertThat(loader.badSamples().count()).isEqualTo(2);
      assertThat(loader.badSamples().events()).extracting(BadSamples.Event::reason)
          .anySatisfy(r -> assertThat(r).contains("sample 7, field 'image': the JPEG's frame is ")
              .endsWith(" but its metadata says " + one.width() + "x" + one.height()));
    }
    // a field of sane images of several sizes is still refused when planned, naming the sizes
    samples.set(7, PhotoDatasets.sample(8, 1, 7));
    Path mixed = PhotoDatasets.write(tmp.resolve("mixed"), List.of(samples));
    assertThatThrownBy(() -> Loader.builder(mixed).batchSize(8).pipeline("image", new SimpleRgbDecoder()).build())
        .hasMessageContaining("SimpleRGB needs every image of field 'image' to have the same size");
  }

  /** A file without a manifest (nothing checks it) whose sample 2 claims a 1 TiB bytes value. */
  @Test
  void aBytesValueClaimingMoreThanItsAllocationIsABadSampleNotAWideRow() throws Exception {
    Path file = tmp.resolve("bytes.beton");
    List<org.sparkbeton.format.BetonField> fields =
        List.of(new org.sparkbeton.format.BetonField("data", org.sparkbeton.format.fields.BytesField.INSTANCE));
    try (org.sparkbeton.format.write.BetonWriter w = org.sparkbeton.format.write.BetonWriter.builder(fields).open(file)) {
      for (int i = 0; i < 6; i++) {
        w.append((Object) new byte[10 + i]);
      }
      w.finish();
    }
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.seek(24 + 1041 + 2 * 16 + 8); // sample 2's size
      f.write(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).array());
    }
    try (Loader loader = Loader.builder(file).batchSize(3).numThreads(1).dropLast(false).onBadSample(BadSamplePolicy.SKIP)
        .pipeline("data", new org.sparkbeton.loader.decoders.BytesDecoder()).build()) {
      List<Integer> lengths = new ArrayList<>();
      for (Batch b : loader) {
        assertThat(b.spec("data").bytes()).isEqualTo(15); // the widest plausible value, not 1 TiB
        for (int i = 0; i < b.size(); i++) {
          lengths.add(b.length("data", i));
        }
      }
      assertThat(lengths).containsExactly(10, 11, 13, 14, 15);
      assertThat(loader.badSamples().events()).singleElement().satisfies(e -> assertThat(e.reason())
          .endsWith("bytes.beton, sample 2, field 'data': its metadata claims 1099511627776 bytes, more than the 15"
              + " planned (the largest plausible value among the samples scanned: within its allocation, at most"
              + " 1073741823)"));
    }
  }
}
