package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.io.SourceOpener;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * {@code readThrough}: payloads read through a {@link BetonSource} instead of mapping the file give the same
 * batches; cache mode OS reads each payload once per use, PROCESS whole pages; the loader closes the sources.
 */
class ReadThroughTest {
  @TempDir
  static Path dir;
  static Path raw;
  static Path photos;
  static long rawPayload;

  @BeforeAll
  static void write() throws IOException {
    raw = Datasets.rawImages(dir, 600, 32, 32); // 3 KiB per image, about 680 per 2 MiB page
    rawPayload = 32 * 32 * 3;
    photos = dir.resolve("photos.beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 << 20).open(photos)) {
      for (int i = 0; i < 24; i++) {
        byte[] jpeg = TestPhotos.photo(7, i);
        JpegHeader h = new JpegHeader();
        try (JpegCodec codec = JpegCodecs.fastest()) {
          codec.probe(ByteBuffer.wrap(jpeg), h);
        }
        w.append(RgbImage.jpeg(h.width(), h.height(), jpeg), (long) i);
      }
      w.finish();
    }
  }

  /** What a source runs once its file is closed. */
  @FunctionalInterface
  interface AfterClose {
    void run() throws IOException;
  }

  /** A ChannelSource of {@code file} (positional reads into read-only heap buffers) that runs {@code then} on close. */
  static BetonSource closingThen(Path file, AfterClose then) throws IOException {
    ChannelSource inner = new ChannelSource(file);
    return new BetonSource() {
      @Override public String name() { return inner.name(); }
      @Override public long length() { return inner.length(); }
      @Override public ByteBuffer read(long position, int length) throws IOException {
        return inner.read(position, length);
      }
      @Override public long bytesRead() { return inner.bytesRead(); }
      @Override public void close() throws IOException {
        inner.close();
        then.run();
      }
    };
  }

  /** Opens ChannelSources (positional reads into read-only heap buffers) and counts bytes and closes. */
  static final class Counting implements SourceOpener {
    final List<BetonSource> opened = new ArrayList<>();
    final AtomicLong closed = new AtomicLong();

    @Override
    public BetonSource open(Path file) throws IOException {
      BetonSource s = closingThen(file, closed::incrementAndGet);
      opened.add(s);
      return s;
    }

    long bytesRead() {
      return opened.stream().mapToLong(BetonSource::bytesRead).sum();
    }
  }

  static LoaderBuilder rawBuilder() {
    return Loader.builder(raw).batchSize(20).numThreads(2).order(OrderOption.RANDOM).seed(3)
        .pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip()).pipeline("label", new IntDecoder());
  }

  @Test
  void osModeReadsEveryPayloadThroughTheSourceEachEpochWithTheSameBatches() throws IOException {
    List<byte[]> mapped;
    try (Loader l = rawBuilder().build()) {
      mapped = BatchBytes.epochs(l, 2, "image", "label");
    }
    Counting opener = new Counting();
    try (Loader l = rawBuilder().readThrough(opener).build()) {
      assertThat(BatchBytes.epochs(l, 2, "image", "label")).containsExactlyElementsOf(mapped);
      assertThat(opener.opened).hasSize(1);
      assertThat(opener.bytesRead()).as("2 epochs of 600 payloads, no cache").isEqualTo(2 * 600 * rawPayload);
    }
    assertThat(opener.closed.get()).as("sources closed with the loader").isEqualTo(1);
  }

  @Test
  void processModeReadsWholePagesThroughTheSource() throws IOException {
    int pages;
    try (BetonReader r = BetonReader.open(raw)) {
      pages = PageMap.of(r).numPages();
    }
    List<byte[]> mapped;
    try (Loader l = rawBuilder().build()) {
      mapped = BatchBytes.epochs(l, 2, "image", "label");
    }
    Counting opener = new Counting();
    try (Loader l = rawBuilder().processCache(8L << 20).readThrough(opener).build()) {
      assertThat(BatchBytes.epochs(l, 2, "image", "label")).containsExactlyElementsOf(mapped);
      assertThat(l.pagesRead()).as("the cache holds all %d pages: each read once", pages).isEqualTo(pages);
      long fileLength = opener.opened.get(0).length();
      assertThat(opener.bytesRead()).as("whole pages, the last one up to the end of the file")
          .isGreaterThan((pages - 1) * (2L << 20)).isLessThanOrEqualTo(fileLength);
    }
    assertThat(opener.closed.get()).isEqualTo(1);
  }

  @Test
  void jpegCropsThroughAHeapSourceEqualTheMappedOnes() throws IOException {
    List<byte[]> mapped;
    try (Loader l = photoLoader(null)) {
      mapped = BatchBytes.epochs(l, 1, "image");
    }
    Counting opener = new Counting();
    try (Loader l = photoLoader(opener)) {
      assertThat(BatchBytes.epochs(l, 1, "image")).containsExactlyElementsOf(mapped);
    }
  }

  private static Loader photoLoader(SourceOpener opener) throws IOException {
    return Loader.builder(photos).batchSize(8).numThreads(2).order(OrderOption.RANDOM).seed(5).readThrough(opener)
        .pipeline("image", new RandomResizedCropRgbDecoder(64, 64), new RandomHorizontalFlip()).build();
  }
}
