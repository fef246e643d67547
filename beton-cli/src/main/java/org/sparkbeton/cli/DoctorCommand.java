package org.sparkbeton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.sparkbeton.loader.doctor.ConsumerDemand;
import org.sparkbeton.loader.doctor.Diagnosis;
import org.sparkbeton.loader.doctor.DiagnosisJson;
import org.sparkbeton.loader.doctor.DiagnosisText;
import org.sparkbeton.loader.doctor.Doctor;
import org.sparkbeton.loader.doctor.DoctorOptions;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "doctor", mixinStandardHelpOptions = true,
    description = {"Measure what bounds training on a dataset, and what to change, with numbers.",
        "Runs the training loader for about --seconds and measures each resource on its own: storage read throughput"
            + " on data not in the page cache (O_DIRECT: the page cache is left alone), decode and augmentation"
            + " throughput per thread and the pipeline at --threads on a sample held in memory, page reads per sample"
            + " for the order and cache, and the loader over the dataset behind the consumer's demand.",
        "A remote dataset (hdfs://, s3a://, ...) is read as the loader reads it: metadata and the sample by ranged"
            + " reads, storage as the store's read throughput with --downloads streams (and twice as many), the"
            + " end-to-end run staging shards into the shard cache (--cache-dir, --cache-bytes).",
        "Then says which resource bounds training (storage, image decode, augmentation, or the consumer) and by how"
            + " much, ranks changes by predicted gain with the exact option or beton prepare flag (each measured on"
            + " the sample re-encoded in memory where it can be), and says what is not worth changing."})
final class DoctorCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DATASET", description = "A .beton file or a dataset directory, local or"
      + " remote (hdfs://, s3a://, any Hadoop FileSystem URI).")
  String dataset;

  @Mixin
  LoaderFlags loader;

  @Mixin
  RemoteFlags remote;

  @ArgGroup(exclusive = true)
  Consumer consumer;

  static final class Consumer {
    @Option(names = "--consumer-ms", paramLabel = "M", required = true,
        description = "Your training step's time per batch in milliseconds (the doctor sleeps that long per batch).")
    Double millis;

    @Option(names = "--consumer-rate", paramLabel = "IMAGES_PER_S", required = true,
        description = "Your training step's rate in images per second.")
    Double rate;
  }

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "20",
      description = "About how long to measure (default ${DEFAULT-VALUE}; re-encoding the sample comes on top).")
  double seconds;

  @Option(names = "--sample", paramLabel = "N", defaultValue = "200",
      description = "Samples re-encoded in memory for the CPU measurements and predictions (default ${DEFAULT-VALUE}).")
  int sample;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ConsumerDemand demand = demand();
    int threads = loader.threads();
    int batchSize = loader.batch();
    try (DatasetArgument.Dataset ds = DatasetArgument.open(dataset, remote)) {
      DoctorOptions options = (ds.remote != null ? new DoctorOptions(ds.remote) : new DoctorOptions(ds.path))
          .pipeline(loader.pipeline).threads(threads).batch(batchSize).order(loader.order).cache(loader.cache)
          .consumer(demand);
      return diagnose(ds, options);
    }
  }

  private int diagnose(DatasetArgument.Dataset ds, DoctorOptions options) throws IOException {
    if (!(seconds > 0 && seconds <= 3600)) {
      throw new CliException("--seconds must be in (0, 3600], got " + seconds);
    }
    if (sample < 1) {
      throw new CliException("--sample must be >= 1, got " + sample);
    }
    options.seconds(seconds).sample(sample);
    if (System.console() != null) {
      spec.commandLine().getErr().printf("beton doctor: measuring for about %.0f s...%n", seconds);
    }
    Diagnosis d = ds.measure(() -> Doctor.diagnose(options));
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? DiagnosisJson.of(d) : DiagnosisText.of(d));
    out.flush();
    return BetonCli.OK;
  }

  private ConsumerDemand demand() {
    if (consumer == null) {
      return null;
    }
    if (consumer.millis != null) {
      if (!(consumer.millis > 0) || consumer.millis.isInfinite()) {
        throw new CliException("--consumer-ms must be a positive number of milliseconds per batch, got "
            + consumer.millis);
      }
      return ConsumerDemand.millisPerBatch(consumer.millis);
    }
    if (!(consumer.rate > 0) || consumer.rate.isInfinite()) {
      throw new CliException("--consumer-rate must be a positive number of images per second, got " + consumer.rate);
    }
    return ConsumerDemand.imagesPerSecond(consumer.rate);
  }
}
