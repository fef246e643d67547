package org.sparkbeton.loader.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.loader.BadSamplePolicy;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.PhotoDatasets;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;

/** The loader checks what it reads against the manifest's page checksums, in both cache modes. */
class PageCheckTest {
  @TempDir Path tmp;

  /** 2 MiB pages: about 55 photos of ~37 KB per page, so 100 photos fill 2 data pages. */
  private Path dataset(String name) throws Exception {
    return PhotoDatasets.write(tmp.resolve(name), List.of(PhotoDatasets.samples(6, 100)));
  }

  private static LoaderBuilder builder(Path dir, boolean processCache) {
    LoaderBuilder b = Loader.builder(dir).batchSize(10).numThreads(2)
        .pipeline("image", new CenterCropRgbDecoder(16, 16, 1.0)).pipeline("label", new IntDecoder());
    return processCache ? b.processCache(4 << 20) : b;
  }

  private static List<Long> labels(Loader loader) {
    List<Long> out = new ArrayList<>();
    for (Batch b : loader) {
      for (int i = 0; i < b.size(); i++) {
        out.add(b.data("label").getLong(8 * i));
      }
    }
    return out;
  }

  private static void flip(Path file, long at) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x20);
    }
  }

  private static PageChecksums pages(Path dir) throws Exception {
    return DatasetVerifier.manifest(dir).shards().get(0).pageChecksums();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aDamagedDataPageFailsTheEpochNamingShardPageAndRegion(boolean processCache) throws Exception {
    Path dir = dataset("data-" + processCache);
    PageChecksums sums = pages(dir);
    int unit = sums.dataUnit(1);
    flip(dir.resolve("part-00000.beton"), sums.unitStart(unit) + 5000);
    try (Loader loader = builder(dir, processCache).build()) {
      assertThatThrownBy(() -> labels(loader))
          .hasMessageStartingWith("Loader failed in epoch 0, batch ")
          .hasMessageContaining("part-00000.beton: page 1 (data region, bytes [2097152, " + sums.unitEnd(unit)
              + ")) at offset 2097152: CRC32C is ")
          .hasMessageContaining("but the manifest says " + String.format("%08x", sums.value(unit)));
    }
    // unchecked, the same loader returns every sample, one of them silently damaged
    try (Loader loader = builder(dir, processCache).verifyChecksums(false).build()) {
      assertThat(labels(loader)).hasSize(100);
    }
  }

  @Test
  void underSkipEverySampleOfADamagedPageIsABadSampleAndTheOthersAreRead() throws Exception {
    Path dir = dataset("skip");
    PageChecksums sums = pages(dir);
    flip(dir.resolve("part-00000.beton"), sums.unitStart(sums.dataUnit(1)) + 100);
    for (boolean processCache : new boolean[] {false, true}) {
      try (Loader loader = builder(dir, processCache).onBadSample(BadSamplePolicy.SKIP).dropLast(false).build()) {
        List<Long> labels = labels(loader);
        long bad = loader.badSamples().count(0);
        assertThat(bad).as("the samples of page 1").isBetween(20L, 70L);
        assertThat(labels).hasSize(100 - (int) bad).doesNotHaveDuplicates();
        assertThat(loader.badSamples().events()).allSatisfy(e ->
            assertThat(e.reason()).contains("page 1 (data region"));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {9, 30, 2000, 3200})
  void damagedHeaderDescriptorsOrMetadataFailTheBuild(long at) throws Exception {
    Path dir = dataset("meta-" + at);
    PageChecksums sums = pages(dir);
    // 9: the header's sample count; 30: a field's name; 2000: a field's arguments; 3200: a metadata record
    flip(dir.resolve("part-00000.beton"), at);
    String region = at < sums.metadataStart() ? "header and field descriptors" : "metadata";
    assertThatThrownBy(() -> builder(dir, false).build())
        .isInstanceOf(BetonFormatException.class)
        .hasMessageContaining("part-00000.beton: page 0 (" + region + " region, bytes [")
        .hasMessageContaining("the shard changed after it was written");
    // a loader of labels alone plans nothing over the records, and still checks them when built
    assertThatThrownBy(() -> Loader.builder(dir).batchSize(10).pipeline("label", new IntDecoder()).build())
        .isInstanceOf(BetonFormatException.class)
        .hasMessageContaining("part-00000.beton: page 0 (" + region + " region, bytes [");
  }

  /** Cache mode OS reads a table when the first batch needs its shard: the epoch fails, under every policy. */
  @Test
  void aDamagedAllocationTableFailsTheEpochNeverASample() throws Exception {
    Path dir = dataset("table-os");
    PageChecksums sums = pages(dir);
    flip(dir.resolve("part-00000.beton"), sums.allocationTableStart() + 8);
    for (BadSamplePolicy policy : BadSamplePolicy.values()) {
      try (Loader loader = builder(dir, false).onBadSample(policy).build()) {
        assertThatThrownBy(() -> loader.iterator().next())
            .hasMessageContaining("Loader failed in epoch 0, batch 0")
            .hasMessageContaining("part-00000.beton: page " + sums.allocationTableStart() / sums.pageSize()
                + " (allocation table region, bytes [" + sums.allocationTableStart())
            .hasMessageContaining("the shard changed after it was written");
        assertThat(loader.badSamples().events()).isEmpty();
      }
    }
  }

  /** The PROCESS cache maps every sample to its page when it is built, from the tables: the build fails. */
  @Test
  void aDamagedAllocationTableFailsTheBuildOfAProcessCache() throws Exception {
    Path dir = dataset("table-process");
    PageChecksums sums = pages(dir);
    flip(dir.resolve("part-00000.beton"), sums.allocationTableStart() + 8);
    assertThatThrownBy(() -> builder(dir, true).build())
        .hasMessageContaining("(allocation table region, bytes [" + sums.allocationTableStart());
  }

  @Test
  void aVersion1ManifestIsReadUnchecked() throws Exception {
    Path dir = dataset("v1");
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    String json = Files.readString(manifest);
    // what an older writer wrote: no page checksums, no checksum of the content
    String v1 = json.substring(0, json.lastIndexOf(",\n  \"manifest_checksum\"")).replace("\"format_version\": 2",
        "\"format_version\": 1").replaceAll(",\\s*\"page_checksums\": \\{[^}]*\\}", "") + "\n}\n";
    Files.writeString(manifest, v1);
    PageChecksums sums = DatasetManifest.parse(json).shards().get(0).pageChecksums();
    flip(dir.resolve("part-00000.beton"), sums.unitStart(sums.dataUnit(1)) + 5000);
    try (Loader loader = builder(dir, false).build()) {
      assertThat(labels(loader)).hasSize(100);
    }
  }

  @Test
  void anEditedManifestIsRefused() throws Exception {
    Path dir = dataset("edited");
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    Files.writeString(manifest, Files.readString(manifest).replace("\"samples\": 100", "\"samples\": 99")
        .replace("\"total_samples\": 100", "\"total_samples\": 99"));
    assertThatThrownBy(() -> Loader.builder(dir))
        .hasMessageContaining("Invalid manifest at $.manifest_checksum")
        .hasMessageContaining("edited or damaged after it was written");
  }

  @Test
  void aShardThatResolvesOutsideTheDirectoryIsRefused() throws Exception {
    Path dir = dataset("links");
    Path elsewhere = PhotoDatasets.write(tmp.resolve("elsewhere"), List.of(PhotoDatasets.samples(7, 100)));
    Path shard = dir.resolve("part-00000.beton");
    Files.move(shard, tmp.resolve("moved.beton"));
    // a link inside the directory to a file inside it is fine
    Files.move(tmp.resolve("moved.beton"), dir.resolve("real.beton"));
    Files.createSymbolicLink(shard, dir.resolve("real.beton"));
    try (Loader loader = builder(dir, false).build()) {
      assertThat(labels(loader)).hasSize(100);
    }
    // a link to another dataset's shard (same size, a valid .beton) is refused before anything is read
    Files.delete(shard);
    Files.createSymbolicLink(shard, elsewhere.resolve("part-00000.beton"));
    assertThatThrownBy(() -> Loader.builder(dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard part-00000.beton resolves to " + elsewhere.resolve("part-00000.beton").toRealPath())
        .hasMessageContaining("outside the dataset directory");
  }
}
