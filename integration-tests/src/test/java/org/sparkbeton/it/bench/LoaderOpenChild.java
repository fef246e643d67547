package org.sparkbeton.it.bench;

import static org.sparkbeton.it.bench.ChildResults.cpu;
import static org.sparkbeton.it.bench.ChildResults.ms;
import static org.sparkbeton.it.bench.ChildResults.result;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * {@link ScaleBenchmark}'s loader open, in a child JVM of its own: {@code build()} plus the first batch of the
 * dataset at {@code args[0]}, timed from {@code main}, then the same again in the same JVM, then the manifest's
 * parse alone. Prints {@code RESULT name<TAB>ms} lines. It refers to no Spark class, so that the benchmark can run
 * it on the loader's own class path ({@code -Dscale.loaderClasspath}), as a training process would.
 */
public final class LoaderOpenChild {
  private LoaderOpenChild() {}

  public static void main(String[] args) throws Exception {
    long mainStart = System.nanoTime();
    long mainCpu = cpu(); // nothing that loads classes the loader does not use before the first batch
    Path dataset = Path.of(args[0]);
    long t0 = System.nanoTime();
    try (Loader loader = open(dataset, 1)) {
      long built = System.nanoTime();
      var it = loader.iterator();
      Batch b = it.next();
      long first = System.nanoTime();
      result("loader: process CPU from main to first batch (all threads)", ms(cpu() - mainCpu));
      long sinceMain = System.nanoTime() - mainStart;
      result("loader: JVM start to main", ManagementFactory.getRuntimeMXBean().getUptime() - ms(sinceMain));
      if (b.size() != 256) {
        throw new IllegalStateException("unexpected batch of " + b.size());
      }
      result("loader: build()", ms(built - t0));
      result("loader: first batch after build()", ms(first - built));
      result("**loader: main to first batch (build() + first batch)**", ms(first - mainStart));
    }
    // the same again in this JVM: the work itself, without class loading and with warmer code
    long w0 = System.nanoTime();
    try (Loader loader = open(dataset, 2)) {
      long built = System.nanoTime();
      loader.iterator().next();
      result("loader, second in the JVM: build()", ms(built - w0));
      result("loader, second in the JVM: build() + first batch", ms(System.nanoTime() - w0));
    }
    long m0 = System.nanoTime();
    DatasetManifest manifest = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME)));
    long m1 = System.nanoTime();
    manifest.toJson();
    long m2 = System.nanoTime();
    result("manifest: read + parse, after the loader's", ms(m1 - m0));
    result("manifest: toJson (what the driver's commit writes)", ms(m2 - m1));
  }

  private static Loader open(Path dataset, long seed) throws java.io.IOException {
    return Loader.builder(dataset).batchSize(256).numThreads(2).seed(seed).order(OrderOption.RANDOM)
        .pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip(0.5))
        .pipeline("label", new IntDecoder()).build();
  }
}
