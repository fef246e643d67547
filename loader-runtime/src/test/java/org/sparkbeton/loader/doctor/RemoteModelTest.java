package org.sparkbeton.loader.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.EndToEnd;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.PerThread;
import org.sparkbeton.loader.doctor.Diagnosis.Reads;
import org.sparkbeton.loader.doctor.Diagnosis.Remote;
import org.sparkbeton.loader.doctor.Diagnosis.Resource;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;
import org.sparkbeton.loader.doctor.Diagnosis.Storage;

/**
 * Storage of a remote dataset from given figures: what staging feeds, the share downloaded again each epoch, the
 * remedies with their options and gains. Measured on a real HDFS: beton-cli's HdfsDoctorTest.
 */
class RemoteModelTest {
  /** 10,000 samples in 1,000 MB of shards: 100 kB of shard per sample. */
  static DatasetFacts facts() {
    return new DatasetFacts("hdfs://nn:8020/train", List.of("hdfs://nn:8020/train/part-00000.beton"), 10_000, "image",
        10_000, 0, 990_000_000L, 400, 500, false, 8 << 20, 125, 125L * (8 << 20), 1_000_000_000L, "hdfs://nn:8020",
        20L << 30);
  }

  static Remote remote(long budget, double bytesPerSecond, double moreBytesPerSecond) {
    return new Remote("hdfs://nn:8020/train", "/nvme/cache", budget, 1_000_000_000L, 500L << 30, 4, bytesPerSecond, 8,
        moreBytesPerSecond, bytesPerSecond / 100_000, null);
  }

  @Test
  void aCacheOfAQuarterOfTheDatasetOnASlowStoreIsStorageBoundAndTheRemediesAreRanked() {
    // 50 MB/s with 4 downloads, 80 MB/s with 8; the CPUs deliver 3,000 img/s
    Remote r = remote(250_000_000L, 50e6, 80e6);
    DatasetFacts f = facts();
    Reads reads = RemoteModel.reads(f, r);

    assertThat(r.stagingPerSecond()).isEqualTo(500);
    assertThat(reads.missFraction()).isEqualTo(0.75);
    assertThat(reads.steadyLimit()).isCloseTo(500 / 0.75, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(reads.firstEpochLimit()).isEqualTo(500);
    assertThat(reads.description()).isEqualTo("75% of the shards downloaded again each epoch: the dataset (953.7"
        + " MiB) does not fit the shard cache budget of 238.4 MiB (random orders read it through a shard window);"
        + " staging feeds 500 img/s (50 MB/s from the store with 4 downloads)");

    Setup setup = new Setup(f, DoctorPipeline.RRC224, 8, 256, "RANDOM", CacheChoice.OS, null, false, "codec", 8, 0.5);
    Storage storage = new Storage("streamed", true, 50e6 / (8 << 20), 50e6, 500, 50e6);
    Measured m = new Measured(storage, reads, new PerThread(200, 450, 3000, 400, 0.86, 0.12), 3000,
        Double.POSITIVE_INFINITY, new EndToEnd(5, 3000, 600, 0, -1), reads.steadyLimit(), 20, r);
    Diagnosis d = Prescriber.prescribe(setup, m, RemoteModel.candidates(r, reads));

    assertThat(d.bound().resource()).isEqualTo(Resource.STORAGE);
    assertThat(d.changes()).extracting(Change::id).containsExactly("cache_bytes", "local_copy", "more_downloads");
    Change cache = d.changes().get(0);
    assertThat(cache.what()).isEqualTo("a shard cache that holds the dataset (954 MiB)");
    assertThat(cache.how()).isEqualTo(".cacheBytes(954L << 20) (beton doctor --cache-bytes 954M)");
    assertThat(cache.predictedPerSecond()).as("the CPUs' limit: nothing downloaded after the first epoch")
        .isEqualTo(3000);
    assertThat(cache.evidence()).isEqualTo("shards downloaded in the first epoch only instead of 75% of them each"
        + " epoch; /nvme/cache has 500 GiB usable");
    Change more = d.changes().get(2);
    assertThat(more.how()).isEqualTo(".downloads(8) (beton doctor --downloads 8)");
    assertThat(more.gain()).as("80 / 50 MB/s").isCloseTo(1.6, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(more.evidence()).isEqualTo("the store read 50 MB/s with 4 downloads and 80 MB/s with 8, measured");
    assertThat(d.changes().get(1).how()).isEqualTo("hadoop fs -copyToLocal hdfs://nn:8020/train"
        + " /local/disk/dataset, then name the copy");

    assertThat(RemoteModel.firstEpoch(r, 3000)).isEqualTo("the first epoch (a cold cache) waits for downloads:"
        + " staging feeds 500 img/s (50 MB/s with 4 downloads) of the 3,000 img/s the CPUs deliver; 8 downloads read"
        + " 80 MB/s (--downloads 8, .downloads(8)), a local copy needs none");
  }

  @Test
  void aCacheThatHoldsTheDatasetIsReadInTheFirstEpochOnlyAndFastStagingIsNotTheBottleneck() {
    Remote r = remote(1_000_000_000L, 400e6, 420e6);
    Reads reads = RemoteModel.reads(facts(), r);

    assertThat(reads.missFraction()).isZero();
    assertThat(reads.steadyLimit()).isInfinite();
    assertThat(reads.firstEpochLimit()).isEqualTo(4000);
    assertThat(RemoteModel.candidates(r, reads)).as("nothing to gain after the first epoch").isEmpty();
    assertThat(RemoteModel.firstEpoch(r, 3000)).isEqualTo("storage is not your bottleneck: staging feeds 4,000 img/s"
        + " (400 MB/s with 4 downloads), 1.3x the 3,000 img/s the CPUs deliver, so even the first epoch (a cold"
        + " cache) does not wait for downloads");
  }
}
