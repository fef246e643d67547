package org.sparkbeton.loader.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.EndToEnd;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.PerThread;
import org.sparkbeton.loader.doctor.Diagnosis.Reads;
import org.sparkbeton.loader.doctor.Diagnosis.Resource;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;
import org.sparkbeton.loader.doctor.Diagnosis.Storage;

/** The diagnosis and the ranking from given limits: which resource bounds, the gains, the sentences. */
class PrescriberTest {
  static final double INF = Double.POSITIVE_INFINITY;

  static DatasetFacts facts() {
    return new DatasetFacts("train", List.of("train.beton"), 10_000, "image", 10_000, 0, 1_100_000_000L, 500,
        640, false, 8 << 20, 140, 140L * (8 << 20), 1_102_000_000L, "ext4", 20L << 30);
  }

  static Setup setup(int threads, ConsumerDemand consumer) {
    return new Setup(facts(), DoctorPipeline.RRC224, threads, 256, "RANDOM", CacheChoice.OS, consumer, false, "codec",
        8, 0.5);
  }

  /** Limits in images/s: the CPUs' (decode 86% of the worker time), storage's, the consumer's. */
  static Measured measured(double cpu, double storage, double consumer) {
    return new Measured(new Storage("O_DIRECT", true, 60, 480e6, 8000, 900e6),
        new Reads("storage words", -1, storage == INF ? 0 : 1, storage, 8000),
        new PerThread(200, 450, 3000, 400, 0.86, 0.12), cpu, consumer,
        new EndToEnd(5, 1000, 200, 0.1, -1), Math.min(cpu, Math.min(storage, consumer)), 20);
  }

  @Test
  void theConsumerBoundsWhenItTakesLessThanTheLoaderDelivers() {
    Diagnosis d = Prescriber.prescribe(setup(8, ConsumerDemand.imagesPerSecond(600)), measured(3900, INF, 600),
        List.of(new Prescriber.Candidate("resized", "store at maxResolution 256", "flag", 3900 * 3.1, Double.NaN,
            "decode 3.1x faster")));

    assertThat(d.bound().resource()).isEqualTo(Resource.CONSUMER);
    assertThat(d.bound().summary()).isEqualTo("the consumer (your training step) bounds training: it takes 600 img/s"
        + " and the loader could deliver 3,900 img/s (6.5x)");
    assertThat(d.changes()).isEmpty();
    assertThat(d.notWorthChanging()).containsExactly(
        "the loader is not your bottleneck: it delivers 3,900 img/s and your step consumes 600",
        "store at maxResolution 256: the loader would deliver 12,090 img/s (3.1x), but training stays at 600 img/s"
            + " because the consumer (your training step) bounds it (decode 3.1x faster)",
        "storage: storage words",
        "decode and augmentation: 8 threads deliver 3,900 img/s, 6.5x what training takes");
  }

  @Test
  void decodeBoundChangesAreRankedByGainAndCappedByTheNextLimit() {
    Diagnosis d = Prescriber.prescribe(setup(2, ConsumerDemand.imagesPerSecond(3000)), measured(400, 2000, 3000),
        List.of(
            new Prescriber.Candidate("threads", "threads 2 → 8", "numThreads(8)", 1440, Double.NaN, "measured"),
            new Prescriber.Candidate("resized", "store at maxResolution 256", "beton prepare --max-resolution 256",
                400 * 3.1, 2000 * 2.5, "decode 3.1x faster"),
            new Prescriber.Candidate("uint8", "uint8 batches", "no normalize", 420, Double.NaN, "1.05x"),
            new Prescriber.Candidate("quasi", "QUASI_RANDOM", "order", Double.NaN, 9000, "computed")));

    assertThat(d.bound().resource()).isEqualTo(Resource.DECODE);
    assertThat(d.bound().summary()).isEqualTo("JPEG decode bounds training: 2 threads deliver 400 img/s, 86% of the"
        + " workers' time decoding; the next limit is storage at 2,000 img/s (5.0x)");
    assertThat(d.changes()).extracting(Change::id).containsExactly("threads", "resized", "uint8");
    Change threads = d.changes().get(0);
    assertThat(threads.predictedPerSecond()).isEqualTo(1440);
    assertThat(threads.gain()).isEqualTo(3.6);
    assertThat(d.changes().get(1).predictedPerSecond()).as("3.1x the CPUs, storage 2.5x").isEqualTo(1240);
    assertThat(d.changes().get(2).gain()).isEqualTo(1.05);
    assertThat(d.notWorthChanging()).containsExactly("QUASI_RANDOM: no gain (computed)",
        "storage: it feeds 2,000 img/s, 5.0x what training takes");
  }

  @Test
  void storageBoundNamesWhatItFeedsAndTheNextLimit() {
    Diagnosis d = Prescriber.prescribe(setup(4, null), measured(1200, 55, INF),
        List.of(new Prescriber.Candidate("local_copy", "a local copy", "copy it", Double.NaN, INF, "a local disk")));

    assertThat(d.bound().resource()).isEqualTo(Resource.STORAGE);
    assertThat(d.bound().summary()).isEqualTo("storage bounds training: it feeds 55 img/s (storage words); the next"
        + " limit is JPEG decode at 1,200 img/s (22x)");
    assertThat(d.changes()).singleElement().satisfies(c -> {
      assertThat(c.predictedPerSecond()).isEqualTo(1200);
      assertThat(c.gain()).isEqualTo(1200 / 55.0);
    });
    assertThat(d.notWorthChanging()).containsExactly(
        "decode and augmentation: 4 threads deliver 1,200 img/s, 22x what training takes");
  }

  @Test
  void augmentationBoundsWhenItTakesMoreOfTheWorkersTimeThanDecode() {
    Measured m = measured(900, INF, INF);
    m = new Measured(m.storage(), m.reads(), new PerThread(200, 2000, 600, 400, 0.3, 0.65), 900, INF, m.endToEnd(),
        900, 20);
    Diagnosis d = Prescriber.prescribe(setup(1, null), m, List.of());

    assertThat(d.bound().resource()).isEqualTo(Resource.AUGMENT);
    assertThat(d.bound().summary()).isEqualTo("augmentation bounds training: 1 thread delivers 900 img/s, 65% of the"
        + " workers' time in augmentations");
  }

  @Test
  void textAndJsonCarryTheSameDiagnosis() {
    Diagnosis d = Prescriber.prescribe(setup(8, ConsumerDemand.millisPerBatch(426)), measured(3900, INF, 600.9),
        List.of());
    String text = DiagnosisText.of(d);
    assertThat(text).contains("consumer      --consumer-ms 426 at batch 256 = 601 img/s\n")
        .contains("\ndiagnosis\n  the consumer (your training step) bounds training: it takes 601 img/s")
        .contains("\nchanges, by predicted gain\n  none: no change measured or computed here would make training"
            + " faster\n")
        .contains("\nnot worth changing\n  - the loader is not your bottleneck: it delivers 3,900 img/s and your step"
            + " consumes 601\n");
    String json = DiagnosisJson.of(d);
    assertThat(json).contains("\"bound\": {\"resource\": \"consumer\", \"per_second\": 600.9, \"next\": \"decode\","
        + " \"next_per_second\": 3900,").contains("\"steady_limit\": null").contains("\"changes\": []");
  }
}
