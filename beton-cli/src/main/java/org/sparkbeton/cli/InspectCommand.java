package org.sparkbeton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = {"Show header, fields, layout, bytes per field and image histograms; or a dataset's manifest.",
        "Of a .beton file: the header, the regions of the file, every field (type, dtype/shape, metadata column,"
            + " allocations and payload bytes, from the allocation table), unused data bytes, and per image field the"
            + " jpg/raw counts, the longest-side histogram and the most common sizes. Reads no payload, also of a"
            + " remote file (hdfs://, s3a://), read in place.",
        "Of a dataset directory (one with _manifest.json): who wrote it, its samples and shards, every field with the"
            + " Spark type its write recorded and its stored min .. max over the shards, the write's recipe, and the"
            + " shards. Reads the manifest only, also of a remote dataset (hdfs://, s3a://, any Hadoop file system);"
            + " `beton verify DIR` checks the shards against it."})
final class InspectCommand implements Callable<Integer> {
  private static final int LISTED_SIZES = 10;
  private static final int LISTED_SHARDS = 10;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .beton file, or a dataset directory, local or"
      + " remote (hdfs://, s3a://, any Hadoop FileSystem URI).")
  String target;

  @CommandLine.Mixin
  HadoopFlags hadoop;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @Option(names = "--sizes", paramLabel = "N", defaultValue = "10",
      description = "Image sizes listed per image field in text output (default ${DEFAULT-VALUE}).")
  int sizes = LISTED_SIZES;

  @Option(names = "--shards", paramLabel = "N", defaultValue = "10",
      description = "Shards listed in the text output of a dataset directory (default ${DEFAULT-VALUE}).")
  int shards = LISTED_SHARDS;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (sizes < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--sizes must be >= 0, got " + sizes);
    }
    if (shards < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--shards must be >= 0, got " + shards);
    }
    PrintWriter out = spec.commandLine().getOut();
    Path file = LocalPathArgument.localPath(target);
    BetonReader opened;
    if (file == null) {
      RemoteFile remote = RemoteFile.openIfFile(target, hadoop);
      if (remote == null) {
        return printDataset(DatasetReport.of(target, RemoteManifest.read(target, hadoop).manifest()), out);
      }
      opened = remote.reader();
    } else {
      hadoop.refuseFor(List.of(target));
      if (Files.isRegularFile(file.resolve(DatasetManifest.FILE_NAME))) {
        DatasetManifest manifest;
        try {
          manifest = DatasetVerifier.manifest(file);
        } catch (IOException e) {
          throw new CliException(e.getMessage() + "; `beton verify " + file + "` says more");
        }
        return printDataset(DatasetReport.of(file.toString(), manifest), out);
      }
      if (Files.isDirectory(file)) {
        throw Inputs.notADatasetDirectory(file, "inspect");
      }
      opened = Inputs.open(file);
    }
    InspectReport report;
    try (BetonReader reader = opened) {
      report = Inspect.of(reader);
    }
    out.print(json ? toJson(report) : toText(report, sizes));
    out.flush();
    return BetonCli.OK;
  }

  private int printDataset(DatasetReport report, PrintWriter out) {
    out.print(json ? DatasetReportText.toJson(report) : DatasetReportText.toText(report, shards));
    out.flush();
    return BetonCli.OK;
  }

  static String toText(InspectReport r, int listedSizes) {
    StringBuilder b = new StringBuilder();
    line(b, "file", r.file() + " (" + r.fileSize() + " bytes, " + SizeArgs.human(r.fileSize()) + ")");
    line(b, "version", Integer.toString(r.version()));
    line(b, "samples", Long.toString(r.numSamples()));
    line(b, "fields", Integer.toString(r.fields().size()));
    line(b, "page size", r.pageSize() + " (" + SizeArgs.human(r.pageSize()) + ")");
    line(b, "pages", r.pages() + " (" + r.pagesUsed() + " holding data)");
    line(b, "record size", r.recordSize() + " bytes");
    line(b, "metadata", range(r.metadataStart(), r.metadataEnd()));
    line(b, "data", range(r.dataStart(), r.allocTablePtr()));
    line(b, "alloc table", range(r.allocTablePtr(), r.fileSize()) + ", " + Words.plural(r.allocations(), "entry", "entries"));
    long dataBytes = r.allocTablePtr() - r.dataStart();
    line(b, "payload", r.allocatedBytes() + " bytes (" + SizeArgs.human(r.allocatedBytes()) + ")"
        + (dataBytes > 0 ? String.format(Locale.ROOT, ", %.1f%% of the data region", 100.0 * r.allocatedBytes() / dataBytes) : ""));
    line(b, "unused", r.unusedBytes() + " bytes: " + r.pageTailBytes() + " in page tails (zeros and orphans of moved"
        + " samples), " + r.gapBytes() + " between allocations");
    b.append('\n');

    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"#", "name", "type", "dtype/shape", "meta offset", "allocs", "payload bytes"});
    for (InspectReport.FieldStats f : r.fields()) {
      rows.add(new String[] {Integer.toString(f.index()), f.name(), f.type() + " (" + f.typeId() + ")", f.detail(),
          f.metadataOffset() + "+" + f.metadataSize(), Long.toString(f.allocations()),
          f.payloadBytes() + (f.danglingPointers() > 0 ? " (" + f.danglingPointers() + " dangling pointers)" : "")});
    }
    table(b, rows, new boolean[] {true, false, false, false, true, true, true});

    for (InspectReport.ImageStats img : r.images()) {
      b.append('\n').append("image field '").append(img.field()).append("'\n");
      line(b, "  mode", "jpg " + img.jpg() + ", raw " + img.raw() + (img.otherMode() == 0 ? ""
          : ", other " + img.otherMode() + " (a mode byte neither 0 nor 1: damaged records; beton verify names them)"));
      line(b, "  width", img.minWidth() + " .. " + img.maxWidth());
      line(b, "  height", img.minHeight() + " .. " + img.maxHeight());
      line(b, "  longer side", img.longestSide().stream().map(s -> s.label() + ": " + s.count())
          .collect(Collectors.joining(", ")));
      line(b, "  sizes", img.sizes().size() + " distinct, most common first (W x H, count)");
      int shown = Math.min(listedSizes, img.sizes().size());
      List<String[]> sizeRows = new ArrayList<>();
      for (int i = 0; i < shown; i++) {
        InspectReport.SizeCount s = img.sizes().get(i);
        sizeRows.add(new String[] {"   ", s.label(), Long.toString(s.count())});
      }
      table(b, sizeRows, new boolean[] {false, true, true});
      if (shown < img.sizes().size()) {
        long rest = img.sizes().subList(shown, img.sizes().size()).stream().mapToLong(InspectReport.SizeCount::count).sum();
        b.append("    ... ").append(Words.plural(img.sizes().size() - shown, "more size")).append(", ")
            .append(Words.plural(rest, "image")).append('\n');
      }
    }
    return b.toString();
  }

  private static String range(long from, long to) {
    return "[" + from + ", " + to + ") " + SizeArgs.human(Math.max(0, to - from));
  }

  static void line(StringBuilder b, String key, String value) {
    b.append(String.format(Locale.ROOT, "%-13s %s%n", key, value));
  }

  static void table(StringBuilder b, List<String[]> rows, boolean[] rightAlign) {
    if (rows.isEmpty()) {
      return;
    }
    int[] width = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        if (c > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[c] - row[c].length());
        line.append(rightAlign[c] ? pad + row[c] : row[c] + pad);
      }
      b.append(line.toString().stripTrailing()).append('\n');
    }
  }

  static String toJson(InspectReport r) {
    StringBuilder b = new StringBuilder("{");
    b.append("\"file\": ").append(JsonStrings.quote(r.file()))
        .append(", \"file_size\": ").append(r.fileSize())
        .append(", \"version\": ").append(r.version())
        .append(", \"num_samples\": ").append(r.numSamples())
        .append(", \"page_size\": ").append(r.pageSize())
        .append(", \"record_size\": ").append(r.recordSize())
        .append(", \"metadata_start\": ").append(r.metadataStart())
        .append(", \"metadata_end\": ").append(r.metadataEnd())
        .append(", \"data_start\": ").append(r.dataStart())
        .append(", \"pages\": ").append(r.pages())
        .append(", \"pages_used\": ").append(r.pagesUsed())
        .append(", \"alloc_table_ptr\": ").append(r.allocTablePtr())
        .append(", \"allocations\": ").append(r.allocations())
        .append(", \"allocated_bytes\": ").append(r.allocatedBytes())
        .append(", \"unused_bytes\": ").append(r.unusedBytes())
        .append(", \"page_tail_bytes\": ").append(r.pageTailBytes())
        .append(", \"gap_bytes\": ").append(r.gapBytes())
        .append(", \"fields\": [");
    for (int i = 0; i < r.fields().size(); i++) {
      InspectReport.FieldStats f = r.fields().get(i);
      b.append(i > 0 ? ", " : "").append("{\"name\": ").append(JsonStrings.quote(f.name()))
          .append(", \"type_id\": ").append(f.typeId())
          .append(", \"type\": ").append(JsonStrings.quote(f.type()))
          .append(", \"detail\": ").append(JsonStrings.quote(f.detail()))
          .append(", \"metadata_offset\": ").append(f.metadataOffset())
          .append(", \"metadata_size\": ").append(f.metadataSize())
          .append(", \"allocations\": ").append(f.allocations())
          .append(", \"payload_bytes\": ").append(f.payloadBytes())
          .append(", \"dangling_pointers\": ").append(f.danglingPointers()).append('}');
    }
    b.append("], \"images\": [");
    for (int i = 0; i < r.images().size(); i++) {
      InspectReport.ImageStats img = r.images().get(i);
      b.append(i > 0 ? ", " : "").append("{\"field\": ").append(JsonStrings.quote(img.field()))
          .append(", \"modes\": {\"jpg\": ").append(img.jpg()).append(", \"raw\": ").append(img.raw())
          .append(img.otherMode() == 0 ? "" : ", \"other\": " + img.otherMode()).append('}')
          .append(", \"width\": [").append(img.minWidth()).append(", ").append(img.maxWidth()).append(']')
          .append(", \"height\": [").append(img.minHeight()).append(", ").append(img.maxHeight()).append(']')
          .append(", \"longest_side\": {");
      for (int j = 0; j < img.longestSide().size(); j++) {
        InspectReport.SideBucket s = img.longestSide().get(j);
        b.append(j > 0 ? ", " : "").append(JsonStrings.quote(s.label())).append(": ").append(s.count());
      }
      b.append("}, \"sizes\": {");
      for (int j = 0; j < img.sizes().size(); j++) {
        InspectReport.SizeCount s = img.sizes().get(j);
        b.append(j > 0 ? ", " : "").append(JsonStrings.quote(s.label())).append(": ").append(s.count());
      }
      b.append("}}");
    }
    return b.append("]}\n").toString();
  }
}
