package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.PixelLimit;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.CorruptionCorpus.Mutant;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

/**
 * The corruption corpus (600 random mutants of real photos, 5 lying frame headers; beton-codec's
 * {@code CorruptionCorpus}, seed 25), 100 clean photos and four decompression bombs (PNGs declaring 20000x20000 and
 * 30000x30000), written with {@code badImagePolicy=quarantine} by the real Spark writer on {@code local[2]} in a JVM
 * of 2 GB (its own surefire execution), re-encoded at 256 px and passed through. The oracle is libjpeg-turbo's
 * strict decode of each input (with the pixel limit): every input it flags is quarantined with a reason, every
 * other one is stored, and every stored image decodes to the size its metadata gives. The counts are asserted.
 */
class CorruptionCorpusWriteTest {
  static final long SEED = 25;
  static final long MAX_HEAP = 2L << 30;

  @TempDir static Path tmp;
  static SparkSession spark;
  /** Every input, by id: name and bytes. */
  static final List<Mutant> inputs = new ArrayList<>();
  /** By id: the oracle's reason to refuse it, or null; and the size its strict decode gave (0 when refused). */
  static final List<String> flagged = new ArrayList<>();
  static final List<Long> sizes = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    assumeTrue(Runtime.getRuntime().maxMemory() <= MAX_HEAP + (64L << 20),
        "runs in the 2 GB surefire execution corruption-corpus of spark-beton's pom");
    assumeTrue(JpegCodecs.nativeAvailable(), "the oracle is libjpeg-turbo's strict decode");
    inputs.addAll(CorruptionCorpus.mutants(SEED, 600));
    inputs.addAll(CorruptionCorpus.lyingHeaders(SEED));
    for (int i = 0; i < 100; i++) {
      inputs.add(new Mutant(String.format("clean%03d.jpg", i), null, -1, TestPhotos.photo(SEED + 1, i)));
    }
    for (int[] wh : new int[][] {{20000, 20000}, {30000, 30000}, {20000, 20000}, {30000, 30000}}) {
      inputs.add(new Mutant(String.format("bomb%d-%dx%d.png", inputs.size(), wh[0], wh[1]),
          CorruptionCorpus.Kind.PNG_BOMB, -1, CorruptionCorpus.pngBomb(wh[0], wh[1])));
    }
    oracle();
    spark = SparkSession.builder().master("local[2]").appName("CorruptionCorpusWriteTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    if (spark != null) {
      spark.stop();
    }
  }

  /** libjpeg-turbo's strict decode of every JPEG, after the default pixel limit; PNGs here are all bombs. */
  private static void oracle() {
    PixelLimit limit = new PixelLimit(PixelLimit.PIL_DEFAULT, "maxImagePixels");
    JpegHeader header = new JpegHeader();
    ByteBuffer dst = ByteBuffer.allocateDirect(4 << 20);
    try (JpegCodec strict = JpegCodecs.fastest(Strictness.STRICT)) {
      for (Mutant m : inputs) {
        String reason = null;
        long size = 0;
        try {
          if (m.kind() == CorruptionCorpus.Kind.PNG_BOMB) {
            int w = ByteBuffer.wrap(m.bytes(), 16, 8).getInt();
            int h = ByteBuffer.wrap(m.bytes(), 20, 4).getInt();
            limit.check(w, h);
          }
          strict.probe(ByteBuffer.wrap(m.bytes()), header);
          limit.check(header.width(), header.height());
          long need = 3L * header.width() * header.height();
          if (dst.capacity() < need) {
            dst = ByteBuffer.allocateDirect((int) need);
          }
          size = strict.decode(ByteBuffer.wrap(m.bytes()), 8, Idct.FAST, dst, 0);
        } catch (RuntimeException e) {
          reason = e.getMessage();
        }
        flagged.add(reason);
        sizes.add(size);
      }
    }
  }

  /** What one write did with every input: quarantined (id to reason) and stored (id to the stored image). */
  record Outcome(Map<Integer, String> quarantined, Map<Integer, RgbImage> stored, long manifestSamples) {
  }

  private static Outcome write(String name, Map<String, String> options) throws Exception {
    StructType schema = new StructType().add("name", DataTypes.StringType).add("id", DataTypes.IntegerType)
        .add("image", DataTypes.BinaryType);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      rows.add(RowFactory.create(inputs.get(i).name(), i, inputs.get(i).bytes()));
    }
    Path out = tmp.resolve(name);
    spark.createDataFrame(rows, schema).repartition(2).write().format("beton").option("imageColumns", "image")
        .option("sourceIdColumn", "name").option("badImagePolicy", "quarantine").options(options)
        .save(out.toString());

    Map<String, Integer> ids = new HashMap<>();
    for (int i = 0; i < inputs.size(); i++) {
      ids.put(inputs.get(i).name(), i);
    }
    Map<Integer, String> quarantined = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    try (var files = Files.list(out.resolve("_quarantine"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          JsonNode r = json.readTree(line);
          quarantined.put(ids.get(r.get("source").asText()), r.get("reason").asText());
        }
      }
    }
    DatasetManifest manifest = DatasetManifest.parse(Files.readString(out.resolve(DatasetManifest.FILE_NAME)));
    Map<Integer, RgbImage> stored = new TreeMap<>();
    for (ShardEntry s : manifest.shards()) {
      try (BetonReader r = BetonReader.open(out.resolve(s.path()))) {
        int image = r.fieldIndex("image");
        int id = r.fieldIndex("id");
        for (long k = 0; k < r.numSamples(); k++) {
          RgbImage img = (RgbImage) r.value(k, image);
          stored.put((int) r.intValue(k, id), RgbImage.jpeg(img.width(), img.height(), img.payloadBytes()));
        }
      }
    }
    return new Outcome(quarantined, stored, manifest.totalSamples());
  }

  /** Every flagged input quarantined, every other stored, each stored image decoding to its metadata's size. */
  private static void assertOutcome(Outcome o, int maxResolution) {
    assertThat(o.quarantined().size() + o.stored().size()).isEqualTo(inputs.size());
    assertThat(o.manifestSamples()).isEqualTo(o.stored().size());
    List<String> wronglyStored = new ArrayList<>();
    List<String> wronglyQuarantined = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      if (flagged.get(i) != null && !o.quarantined().containsKey(i)) {
        wronglyStored.add(inputs.get(i).name() + " (" + flagged.get(i) + ")");
      }
      if (flagged.get(i) == null && o.quarantined().containsKey(i)) {
        wronglyQuarantined.add(inputs.get(i).name() + " (" + o.quarantined().get(i) + ")");
      }
    }
    assertThat(wronglyStored).as("flagged by libjpeg but stored").isEmpty();
    assertThat(wronglyQuarantined).as("quarantined though libjpeg decodes them").isEmpty();
    assertThat(o.quarantined().values()).allSatisfy(reason -> assertThat(reason).isNotBlank());

    ByteBuffer pixels = ByteBuffer.allocateDirect(4 << 20);
    try (JpegCodec codec = JpegCodecs.fastest(Strictness.STRICT)) {
      o.stored().forEach((id, img) -> {
        long decodedSize = sizes.get(id);
        int w = ImageSize.width(decodedSize);
        int h = ImageSize.height(decodedSize);
        double ratio = Math.min(1, (double) maxResolution / Math.max(w, h));
        int tw = ratio < 1 ? Math.max(1, (int) (ratio * w)) : w;
        int th = ratio < 1 ? Math.max(1, (int) (ratio * h)) : h;
        String what = inputs.get(id).name();
        assertThat(new int[] {img.width(), img.height()}).as(what).containsExactly(tw, th);
        try {
          assertThat(codec.decode(img.payload(), 8, Idct.FAST, pixels, 0)).as(what).isEqualTo(ImageSize.pack(tw, th));
        } catch (JpegException e) {
          throw new AssertionError(what + " was stored but does not decode: " + e.getMessage(), e);
        }
      });
    }
  }

  @Test
  void reencodedAt256EveryFlaggedInputIsQuarantinedAndNoSizeIsWrong() throws Exception {
    Outcome o = write("resized", Map.of("writeMode", "jpg", "maxResolution", "256"));
    assertOutcome(o, 256);
    assertThat(o.stored().values()).allSatisfy(img -> assertThat(img.mode()).isEqualTo(ImageMode.JPG));
    // 485 of the 605 mutants and lies are flagged by libjpeg (CorruptionCorpusTest's counts), and the four bombs
    assertThat(o.quarantined()).hasSize(489);
    assertThat(o.stored()).hasSize(220);
    Map<String, Integer> reasons = reasons(o);
    assertThat(reasons).containsEntry("Corrupt JPEG data: premature end of data segment", 213)
        .containsEntry("Corrupt JPEG data: N extraneous bytes before marker 0xd9", 134)
        // every mutant cut short (100), found by the completeness check (passed through) or the decode
        .containsEntry("Premature end of JPEG file", 78)
        .containsEntry("Truncated JPEG: no end-of-image marker after the scan data (the file is cut short)", 22)
        .containsEntry("image is too large to decode: 20000x20000 = 400 megapixels, over the limit of 89.5"
            + " megapixels (option maxImagePixels)", 2)
        .containsEntry("image is too large to decode: 30000x30000 = 900 megapixels, over the limit of 89.5"
            + " megapixels (option maxImagePixels)", 2)
        .containsEntry("image is too large to decode: 65500x65500 = 4.3 gigapixels, over the limit of 89.5"
            + " megapixels (option maxImagePixels)", 1)
        .containsEntry("image is too large to decode: 16000x16000 = 256 megapixels, over the limit of 89.5"
            + " megapixels (option maxImagePixels)", 1);
  }

  @Test
  void passedThroughEveryFlaggedInputIsQuarantinedAndNoSizeIsWrong() throws Exception {
    Outcome o = write("passed-through", Map.of("writeMode", "jpg"));
    assertOutcome(o, Integer.MAX_VALUE);
    o.stored().forEach((id, img) -> assertThat(img.payloadBytes()).as(inputs.get(id).name())
        .isEqualTo(inputs.get(id).bytes()));
    assertThat(o.quarantined()).hasSize(489);
    assertThat(o.stored()).hasSize(220);
  }

  /**
   * Today's behaviour before strict decoding, with both checks off ({@code jpegStrict=false},
   * {@code jpegPassThroughCheck=markers}): most of what libjpeg flags is stored. What the checks are for.
   */
  @Test
  void withTheChecksOffMostFlaggedInputsAreStored() throws Exception {
    Outcome o = write("unchecked", Map.of("writeMode", "jpg", "jpegStrict", "false", "jpegPassThroughCheck", "markers"));
    int flaggedButStored = 0;
    for (int i = 0; i < inputs.size(); i++) {
      flaggedButStored += flagged.get(i) != null && o.stored().containsKey(i) ? 1 : 0;
    }
    assertThat(o.quarantined().size() + o.stored().size()).isEqualTo(inputs.size());
    assertThat(flaggedButStored).isEqualTo(353);
    assertThat(o.quarantined()).hasSize(136);
  }

  /** The reasons given, without the codec's prefix and byte counts, counted. */
  private static Map<String, Integer> reasons(Outcome o) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String r : o.quarantined().values()) {
      String reason = r.replaceFirst("^(Native|Java) JPEG (plane )?(decode|probe) failed: ", "")
          .replaceAll("\\d+ extraneous", "N extraneous");
      counts.merge(reason, 1, Integer::sum);
    }
    System.out.println("quarantine reasons: " + counts);
    return counts;
  }
}
