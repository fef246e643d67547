package org.sparkbeton.loader.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.Resource;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.testing.PhotoFiles;

/**
 * Known answers through the API: full-resolution photos read through a throttled source are storage bound, and the
 * doctor prescribes a PROCESS cache with QUASI_RANDOM and a local copy. (The CPU- and consumer-bound cases run
 * through the command line in beton-cli's DoctorCommandTest.)
 */
class DoctorTest {
  /** 1 MB/s: about 25 photos/s, several times fewer than one thread decodes even on a busy machine. */
  static final long LINK = 1_000_000;

  @TempDir
  static Path tmp;
  static Path photos;

  @BeforeAll
  static void write() throws IOException {
    photos = PhotoFiles.write(tmp, "photos", 96, 3);
  }

  @Test
  void aThrottledSourceIsStorageBoundAndGetsAProcessCacheWithQuasiRandomAndALocalCopy() throws IOException {
    Diagnosis d = Doctor.diagnose(new DoctorOptions(photos).threads(1).batch(16).seconds(4).sample(48)
        .readThrough(ThrottledSource.opener(LINK)).workDir(tmp.resolve("work")));

    assertThat(d.bound().resource()).isEqualTo(Resource.STORAGE);
    assertThat(d.bound().summary()).startsWith("storage bounds training: it feeds ");
    assertThat(d.measured().storage().method()).isEqualTo("through the loader's source");
    assertThat(d.measured().storage().pageBytesPerSecond()).as("the link's 1 MB/s at most").isPositive()
        .isLessThanOrEqualTo(LINK * 1.05);
    assertThat(d.measured().storage().payloadBytesPerSecond()).isPositive().isLessThanOrEqualTo(LINK * 1.05);
    assertThat(d.measured().reads().missFraction()).as("no page cache behind a source").isEqualTo(1);
    assertThat(d.changes()).extracting(Change::id).contains("quasi_random_process", "local_copy");
    Change quasi = d.changes().stream().filter(c -> c.id().equals("quasi_random_process")).findFirst().orElseThrow();
    assertThat(quasi.how()).isEqualTo(".order(OrderOption.QUASI_RANDOM).processCache(4L << 20) (beton doctor"
        + " --order quasi_random --cache process:4M)");
    assertThat(quasi.evidence()).startsWith("0 page reads per sample after the first epoch (the cache holds the whole"
        + " dataset) instead of a payload read for every image");
    assertThat(quasi.gain()).isGreaterThan(Prescriber.WORTH);
    assertThat(d.measured().endToEnd().perSecond()).as("the run on the dataset goes through the link too")
        .isLessThanOrEqualTo(d.measured().pipelinePerSecond());
    assertThat(DiagnosisText.of(d)).contains("\ndiagnosis\n  storage bounds training: it feeds ");
  }

  /**
   * The OS page cache and a local copy hold the files, not whole pages: a file ends at its last sample, so a small
   * dataset takes much less than its pages (a PROCESS cache still needs them whole).
   */
  @Test
  void theDatasetsSizeIsItsFilesBytesAndItsPagesAreCountedApart() throws IOException {
    DatasetFacts facts;
    try (Shards shards = Shards.open(List.of(photos))) {
      facts = DatasetFacts.of("photos", List.of(photos), shards);
    }

    assertThat(facts.fileBytes()).isEqualTo(Files.size(photos));
    assertThat(facts.pageBytes()).isEqualTo(facts.pages() * facts.pageSize())
        .as("the last page is partly used").isGreaterThan(facts.fileBytes());
    assertThat(withMemory(facts, facts.fileBytes()).fitsInMemory()).as("memory for the file, less than its pages")
        .isTrue();
    assertThat(withMemory(facts, facts.fileBytes() - 1).fitsInMemory()).isFalse();
  }

  private static DatasetFacts withMemory(DatasetFacts f, long memoryAvailable) {
    return new DatasetFacts(f.name(), f.files(), f.samples(), f.imageField(), f.jpegs(), f.raws(), f.payloadBytes(),
        f.medianSide(), f.maxSide(), f.sameSize(), f.pageSize(), f.pages(), f.pageBytes(), f.fileBytes(),
        f.fileSystem(), memoryAvailable);
  }

  @Test
  void aProcessBudgetTooSmallForOneBatchIsRefusedInTheCommandsTerms() {
    assertThatThrownBy(() -> Doctor.diagnose(new DoctorOptions(photos).batch(96).cache(CacheChoice.parse("process:2M"))
        .seconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--cache process:2 MiB with --order random and batch 96: PROCESS cache holds 1 page, but batch 0"
            + " needs 2 pages at once; raise the budget or use --order quasi_random");
  }
}
