package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.testing.ShardMutations;
import org.sparkbeton.format.testing.ShardMutations.Mutation;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;

/**
 * Issue 25's shard-mutation corpus on the training loader: 1,200 mutations of one shard of real photos (fixed
 * seed), each loaded for one epoch, alternately in cache mode OS and PROCESS. Goal, asserted: with page checks on
 * (the default), no mutation gives silently different batches: every epoch returns exactly the clean batches or
 * fails. Under SKIP a different epoch always comes with bad samples in the statistics. With checks off the same
 * corpus gives wrong labels and crops (the corpus bites).
 */
class ShardMutationCorpusTest {
  static final int MUTATIONS = 1_200;

  @TempDir static Path tmp;
  static Path dir;
  static Path shard;
  static byte[] clean;
  static PageChecksums pages;

  @BeforeAll
  static void writeDataset() throws Exception {
    dir = PhotoDatasets.write(tmp.resolve("photos"), List.of(PhotoDatasets.samples(25, 16),
        PhotoDatasets.samples(26, 4)));
    shard = dir.resolve("part-00000.beton");
    clean = Files.readAllBytes(shard);
    pages = DatasetVerifier.manifest(dir).shards().get(0).pageChecksums();
  }

  /** One epoch: per row the sample, its label and a hash of its 16x16 centre crop. */
  static List<String> epoch(boolean processCache, boolean verify, BadSamplePolicy policy, long[] bad) throws Exception {
    LoaderBuilder b = Loader.builder(dir).batchSize(5).numThreads(2).dropLast(false).verifyChecksums(verify)
        .onBadSample(policy).pipeline("image", new CenterCropRgbDecoder(16, 16, 0.875))
        .pipeline("label", new IntDecoder());
    List<String> rows = new ArrayList<>();
    try (Loader loader = (processCache ? b.processCache(4 << 20) : b).build()) {
      for (Batch batch : loader) {
        ByteBuffer images = batch.data("image");
        byte[] px = new byte[16 * 16 * 3];
        for (int i = 0; i < batch.size(); i++) {
          images.get(i * px.length, px);
          rows.add(batch.sample(i) + " " + batch.data("label").getLong(8 * i) + " " + Arrays.hashCode(px));
        }
      }
      bad[0] = loader.badSamples().count();
    }
    return rows;
  }

  record Outcome(int same, int failed, int reported, List<String> silentlyWrong) {}

  static Outcome run(List<Mutation> corpus, boolean verify, BadSamplePolicy policy) throws Exception {
    Files.write(shard, clean);
    long[] bad = new long[1];
    List<String> expected = epoch(false, verify, policy, bad);
    assertThat(epoch(true, verify, policy, bad)).isEqualTo(expected);
    int same = 0;
    int failed = 0;
    int reported = 0;
    List<String> wrong = new ArrayList<>();
    try {
      for (Mutation m : corpus) {
        Files.write(shard, m.apply(clean));
        List<String> got;
        try {
          got = epoch(m.index() % 2 == 1, verify, policy, bad);
        } catch (RuntimeException | java.io.IOException e) {
          failed++;
          continue;
        }
        if (got.equals(expected)) {
          same++;
        } else if (bad[0] > 0) {
          reported++; // different, and the statistics say why
        } else {
          wrong.add(m + (m.index() % 2 == 1 ? ", PROCESS" : ", OS"));
        }
      }
    } finally {
      Files.write(shard, clean);
    }
    return new Outcome(same, failed, reported, wrong);
  }

  @Test
  void noMutationGivesSilentlyWrongBatches() throws Exception {
    Outcome o = run(ShardMutations.corpus(pages, MUTATIONS, 25), true, BadSamplePolicy.FAIL);
    System.out.printf("shard-mutation corpus, loader, %d mutations (OS and PROCESS alternately): same %d, failed %d,"
        + " silently wrong %d%n", MUTATIONS, o.same(), o.failed(), o.silentlyWrong().size());
    assertThat(o.silentlyWrong()).as("silently wrong epochs over %d mutations", MUTATIONS).isEmpty();
    assertThat(o.same() + o.failed()).isEqualTo(MUTATIONS);
    assertThat(o.failed()).isGreaterThan(MUTATIONS * 9 / 10);
  }

  @Test
  void underSkipADifferentEpochAlwaysReportsItsBadSamples() throws Exception {
    Outcome o = run(ShardMutations.corpus(pages, 200, 26), true, BadSamplePolicy.SKIP);
    assertThat(o.silentlyWrong()).isEmpty();
    assertThat(o.reported()).as("damaged data pages: their samples skipped and counted").isGreaterThan(10);
  }

  @Test
  void withoutPageChecksTheCorpusGivesWrongBatches() throws Exception {
    Outcome o = run(ShardMutations.corpus(pages, 200, 25), false, BadSamplePolicy.FAIL);
    System.out.printf("shard-mutation corpus, loader, page checks off, 200 mutations: same %d, failed %d, silently"
        + " wrong %d%n", o.same(), o.failed(), o.silentlyWrong().size());
    assertThat(o.silentlyWrong()).as("the same kind of damage, read unchecked").hasSizeGreaterThan(20);
  }
}
