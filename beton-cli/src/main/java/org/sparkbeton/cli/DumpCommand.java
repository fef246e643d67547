package org.sparkbeton.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dump.SampleJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "dump", mixinStandardHelpOptions = true,
    description = {"Print samples as JSON lines in the golden expected.json encoding.",
        "Prints one JSON line per sample, values encoded like the 'samples' rows of the golden"
        + " expected.json files (Int: number; Float: {\"f64_bits\"}; Bytes: {\"hex\"}; JSON: {\"text\"};"
        + " arrays: {\"sha256\", \"values\"?}; images: {\"mode\", \"width\", \"height\", \"payload_sha256\","
        + " \"rgb_sha256\"}).",
        "A JPEG's rgb_sha256 is the hash of its pixels decoded as FFCV decodes them (libjpeg-turbo, fast integer"
        + " IDCT); see --rgb."})
final class DumpCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "The .beton file, local or remote (hdfs://, s3a://, any"
      + " Hadoop FileSystem URI: read in place, the samples asked for only).")
  String target;

  @CommandLine.Mixin
  HadoopFlags hadoop;

  @Option(names = "--from", paramLabel = "I", defaultValue = "0", description = "First sample (default 0); the"
      + " sample count prints nothing, an empty last page, and more is refused.")
  long from;

  @Option(names = "--count", paramLabel = "N", description = "Number of samples (default: to the end).")
  Long count;

  @Option(names = "--rgb", paramLabel = "MODE", defaultValue = "auto",
      description = {"How JPEG pixels are decoded for rgb_sha256: auto, native, java or none (default auto).",
          "auto: libjpeg-turbo when its native library loads (hashes equal FFCV's), else JPEG rows have no rgb_sha256;"
              + " native: libjpeg-turbo or fail; java: the pure-Java decoder (its IDCT differs from FFCV's, so hashes"
              + " do too); none: never decode (fastest)."})
  RgbMode rgb;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (from < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--from must be >= 0, got " + from);
    }
    if (count != null && count < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--count must be >= 0, got " + count);
    }
    Path local = LocalPathArgument.localPath(target);
    BetonReader opened;
    if (local == null) {
      RemoteFile remote = RemoteFile.openIfFile(target, hadoop);
      if (remote == null) {
        throw new CliException(target + ": is a directory, expected a .beton file (of a dataset, name one of its"
            + " shards; `beton inspect " + target + "` lists them)");
      }
      opened = remote.reader();
    } else {
      hadoop.refuseFor(List.of(target));
      opened = Inputs.open(local);
    }
    try (BetonReader reader = opened) {
      long n = reader.numSamples();
      if (from > n) {
        throw new CliException("--from " + from + " is past the last sample: " + target + " has " + Words.plural(n, "sample"));
      }
      long end = count == null || count >= n - from ? n : from + count;
      if (rgb == RgbMode.AUTO && !JpegCodecs.nativeAvailable()) {
        spec.commandLine().getErr().println("beton dump: JPEG rows carry no rgb_sha256: the native codec is not"
            + " loaded (" + NativeLibrary.unavailableReason() + "); --rgb java hashes the pure-Java decoder's pixels");
      }
      try (FfcvPixels pixels = rgb.open()) {
        SampleJson json = new SampleJson(reader, pixels);
        PrintWriter out = spec.commandLine().getOut();
        for (long s = from; s < end; s++) {
          out.println(row(json, s));
          if ((s & 1023) == 1023 && out.checkError()) {
            return BetonCli.OK; // the output failed: a pipe's reader gone (head), or a full disk; main says which
          }
        }
        out.flush();
      }
    }
    return BetonCli.OK;
  }

  private String row(SampleJson json, long sample) {
    try {
      return json.row(sample);
    } catch (BetonFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new CliException(target + ": sample " + sample + ": " + e.getMessage());
    }
  }
}
