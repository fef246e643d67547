package org.sparkbeton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.sparkbeton.loader.doctor.Bench;
import org.sparkbeton.loader.doctor.BenchJson;
import org.sparkbeton.loader.doctor.BenchOptions;
import org.sparkbeton.loader.doctor.BenchReport;
import org.sparkbeton.loader.doctor.BenchText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"The training loader's throughput on a dataset: a table to compare machines and settings.",
        "Runs the loader with a pipeline for --epochs epochs over --samples samples and prints epoch 1 (building"
            + " the loader included), epochs 2+ (median and range), images per CPU-second, the workers' time per"
            + " image (decode, augment, other, waiting) and the codec in use. --decode-limit also decodes the same"
            + " crops with the bare codec after each epoch, so the table shows the fraction of the decode limit the"
            + " loader reaches."})
final class BenchCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DATASET", description = "A .beton file or a dataset directory, local or"
      + " remote (hdfs://, s3a://, any Hadoop FileSystem URI; shards are staged into the shard cache).")
  String dataset;

  @Mixin
  LoaderFlags loader;

  @Mixin
  RemoteFlags remote;

  @Option(names = "--epochs", paramLabel = "E", defaultValue = "5",
      description = "Epochs to run, at least 2 (default ${DEFAULT-VALUE}).")
  int epochs;

  @Option(names = "--samples", paramLabel = "N", defaultValue = "4096",
      description = "Samples per epoch, a random subset of the dataset; 0 for all (default ${DEFAULT-VALUE}).")
  int samples;

  @Option(names = "--decode-limit",
      description = "Also decode the same crops with the bare codec (libjpeg-turbo when it loads) after each epoch.")
  boolean decodeLimit;

  @Option(names = "--json", description = "Print one JSON document instead of the table.")
  boolean json;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    int threads = loader.threads();
    int batchSize = loader.batch();
    try (DatasetArgument.Dataset ds = DatasetArgument.open(dataset, remote)) {
      BenchOptions options;
      try {
        options = (ds.remote != null ? new BenchOptions(ds.remote) : new BenchOptions(ds.path))
            .pipeline(loader.pipeline).threads(threads).batch(batchSize).order(loader.order).cache(loader.cache)
            .epochs(epochs).samples(samples).decodeLimit(decodeLimit);
      } catch (IllegalArgumentException e) {
        throw new CliException(e.getMessage());
      }
      return bench(ds, options);
    }
  }

  private int bench(DatasetArgument.Dataset ds, BenchOptions options) throws IOException {
    BenchReport r = ds.measure(() -> Bench.run(options));
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? BenchJson.of(r) : BenchText.of(r));
    out.flush();
    return BetonCli.OK;
  }
}
