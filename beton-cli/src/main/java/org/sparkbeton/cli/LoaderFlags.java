package org.sparkbeton.cli;

import java.util.Locale;
import org.sparkbeton.loader.doctor.CacheChoice;
import org.sparkbeton.loader.doctor.DoctorPipeline;
import org.sparkbeton.loader.order.OrderOption;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The loader settings {@code doctor} and {@code bench} share, with their defaults and converters. */
final class LoaderFlags {
  @Option(names = "--pipeline", paramLabel = "rrc224|center224|simple", defaultValue = "rrc224",
      converter = PipelineConverter.class,
      description = "The image pipeline: rrc224 (RandomResizedCrop 224 + flip + normalize float16 NCHW, default),"
          + " center224 (CenterCrop 224 ratio 224/256 + normalize float16 NCHW), simple (SimpleRGB + flip +"
          + " normalize float16 NCHW; every image one size).")
  DoctorPipeline pipeline;

  @Option(names = "--threads", paramLabel = "N", description = "Loader threads (default: the available processors).")
  Integer threads;

  @Option(names = "--batch", paramLabel = "B", description = "Batch size (default 256, or the samples when fewer).")
  Integer batch;

  @Option(names = "--order", paramLabel = "random|quasi_random|sequential", defaultValue = "random",
      converter = OrderConverter.class, description = "Traversal order (default random).")
  OrderOption order;

  @Option(names = "--cache", paramLabel = "os|process:BYTES", defaultValue = "os", converter = CacheConverter.class,
      description = "Cache mode: os (memory-mapped, the OS page cache; default) or process:SIZE, the loader's own"
          + " page cache of at most SIZE (e.g. process:4G).")
  CacheChoice cache;

  int threads() {
    int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (n < 1) {
      throw new CliException("--threads must be >= 1, got " + n);
    }
    int processors = Runtime.getRuntime().availableProcessors();
    int most = maxThreads(processors);
    if (n > most) {
      // each thread takes its scratch and a share of the ring before the first batch: 100,000 reserved 6 GB of
      // direct memory, then failed with advice to give the JVM more
      throw new CliException("--threads " + n + " is more than " + most + ", 8 per processor of this machine ("
          + processors + "): threads beyond the processors only wait for them; the default is one per processor");
    }
    return n;
  }

  /** The most loader threads {@code --threads} takes on a machine of {@code processors}: 8 each, at least 16. */
  static int maxThreads(int processors) {
    return Math.max(16, 8 * processors);
  }

  int batch() {
    if (batch != null && batch < 1) {
      throw new CliException("--batch must be >= 1, got " + batch);
    }
    return batch == null ? 0 : batch;
  }

  static final class PipelineConverter implements CommandLine.ITypeConverter<DoctorPipeline> {
    @Override
    public DoctorPipeline convert(String value) {
      try {
        return DoctorPipeline.of(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException("expected rrc224, center224 or simple, got '" + value + "'");
      }
    }
  }

  static final class OrderConverter implements CommandLine.ITypeConverter<OrderOption> {
    @Override
    public OrderOption convert(String value) {
      for (OrderOption o : OrderOption.values()) {
        if (o.name().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT))) {
          return o;
        }
      }
      throw new CommandLine.TypeConversionException("expected random, quasi_random or sequential, got '" + value + "'");
    }
  }

  static final class CacheConverter implements CommandLine.ITypeConverter<CacheChoice> {
    @Override
    public CacheChoice convert(String value) {
      try {
        return CacheChoice.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
