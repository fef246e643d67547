package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.tools.Rewrite;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.format.write.WriteResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "rewrite", mixinStandardHelpOptions = true,
    description = {"Rewrite a file with our writer: compact pages, change the page size.",
        "Reads IN with our reader and writes OUT with our writer, payloads passed through unchanged"
        + " (nothing is re-encoded). Packs the half-empty pages of multi-worker files, drops bytes no allocation"
        + " references, and changes the page size.",
        "With --threads 1 and the same page size, a single-worker FFCV file is reproduced byte for byte"
        + " (including FFCV's orphans of samples moved to a new page, which our writer leaves the same way).",
        "The output keeps the input's page layout unless --layout says otherwise: FFCV's (whole pages, the data"
        + " from the first page boundary after the metadata) or the compact one Spark's shards use (samples packed"
        + " behind the metadata, the file ending with its last sample). FFCV reads both."})
final class RewriteCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "IN", description = "The .beton file to read.")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "The .beton file to write.")
  Path out;

  @Option(names = "--page-size", paramLabel = "S", converter = SizeArgs.PageSizeConverter.class,
      description = "Page size: bytes or 2M, 8MiB, 1G; a power of two from 2M to 1G (default: IN's page size).")
  Long pageSize;

  @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
      description = "Writer threads (default 1; more threads write pages in a different order).")
  int threads;

  @Option(names = {"-f", "--force"}, description = "Replace OUT if it exists.")
  boolean force;

  /** The page layout to write: the input's, or one named. */
  enum Layout { INPUT, FFCV, COMPACT }

  @Option(names = "--layout", paramLabel = "L", defaultValue = "input",
      description = "Page layout of OUT: input (the default: IN's), ffcv (whole pages, as FFCV's writer) or compact"
          + " (samples packed behind the metadata, as Spark's shards; a small file stays small).")
  Layout layout;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (threads < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 1, got " + threads);
    }
    Inputs.requireReadableFile(in);
    Outputs.checkWritable(out, force, List.of(in));
    try (BetonReader reader = Inputs.open(in)) {
      long size = pageSize == null ? reader.pageSize() : pageSize;
      PageLayout written = switch (layout) {
        case INPUT -> layoutOf(reader);
        case FFCV -> PageLayout.FFCV;
        case COMPACT -> PageLayout.COMPACT;
      };
      WriteResult r;
      try {
        r = Outputs.writeAtomically(out, tmp -> Rewrite.run(reader, tmp, size, threads, written));
      } catch (OutOfMemoryError | IOException e) {
        if (!(e instanceof OutOfMemoryError) && !(e.getCause() instanceof OutOfMemoryError)) {
          throw e;
        }
        // each writer thread fills its own direct page buffer: threads x page size bytes off-heap
        throw new CliException("out of memory for " + threads + " page buffer" + (threads == 1 ? "" : "s") + " of "
            + SizeArgs.human(size) + " (" + (e instanceof OutOfMemoryError ? e : e.getCause()).getMessage()
            + "); lower --threads or --page-size, or give the JVM more memory, e.g. BETON_JAVA_OPTS=-Xmx8g");
      }
      long outBytes = Files.size(out);
      long inBytes = reader.source().length();
      spec.commandLine().getOut().printf("%s -> %s: %s, %s of %s, %s, %d bytes (input %d bytes)%n",
          in, out, Words.plural(r.numSamples(), "sample"), Words.plural(r.numPages(), "page"),
          SizeArgs.human(r.pageSize()), Words.plural(r.allocationCount(), "allocation"), outBytes, inBytes);
      spec.commandLine().getOut().flush();
      if (written == PageLayout.FFCV && outBytes > 2 * inBytes) {
        // whole pages of zeros: a surprise on a small file, so say where the bytes went and how to avoid them
        spec.commandLine().getErr().printf("beton: note: %s is %.1fx the size of %s: FFCV's layout writes whole pages"
            + " of %s; --layout compact packs the samples instead (FFCV reads both)%n", out,
            (double) outBytes / inBytes, in, SizeArgs.human(r.pageSize()));
      }
    }
    return BetonCli.OK;
  }

  /**
   * The layout {@code reader}'s file was written in: compact when its data starts inside the page that holds the
   * end of the metadata, or its data does not end on a page boundary (FFCV writes whole pages); else FFCV's.
   */
  static PageLayout layoutOf(BetonReader reader) {
    long pageSize = reader.pageSize();
    long tablePtr = reader.header().allocTablePtr();
    long firstData = BetonFormat.alignUp(reader.metadataEnd(), pageSize);
    AllocationTable table = reader.allocations();
    for (int i = 0; i < table.size(); i++) {
      if (table.size(i) > 0 && table.ptr(i) < firstData) {
        return PageLayout.COMPACT;
      }
    }
    return tablePtr > reader.metadataEnd() && tablePtr % pageSize != 0 ? PageLayout.COMPACT : PageLayout.FFCV;
  }
}
