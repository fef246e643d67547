// # 03 · Byte-compatible with FFCV
//
// `beton-core/src/test/resources/golden/` holds `.beton` files written by FFCV 1.0 itself, each with
// every value FFCV's own reader returns (`NAME.expected.json`). We open one with our reader, compare
// every sample with FFCV's view, then write the same values with our writer: the file comes out
// byte for byte FFCV's. Run: `bin/beton-notebook 03-ffcv-compatibility.jsh` (seconds; no Spark).

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.*;
import java.util.zip.GZIPInputStream;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.*;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.fields.*;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;

// ## 1. An FFCV-written file
// `jpg_labels`: 40 JPEG images of varying sizes and an Int label, written by one FFCV worker with
// 2 MiB pages. The repository ships it gzipped; we unpack it next to the other notebooks' output.
Path golden = Notebook.repoPath("beton-core/src/test/resources/golden");
Path ffcvFile = Notebook.workDir().resolve("jpg_labels.beton");
try (var in = new GZIPInputStream(Files.newInputStream(golden.resolve("jpg_labels.beton.gz")))) {
  Files.copy(in, ffcvFile, StandardCopyOption.REPLACE_EXISTING);
}
System.out.printf("%s: %,d bytes%n", ffcvFile.getFileName(), Files.size(ffcvFile));

// ## 2. Its header, fields and first samples, through our reader
BetonReader ffcv = BetonReader.open(ffcvFile);
Header h = ffcv.header();
System.out.printf("format version %d, %d fields, %d samples, page size %,d%n", h.version(), h.numFields(), h.numSamples(), h.pageSize());
ffcv.fields().forEach(f -> System.out.println("  field " + f));
int image = ffcv.fieldIndex("image"), label = ffcv.fieldIndex("label");
for (long s = 0; s < 3; s++) {
  RgbImage img = (RgbImage) ffcv.value(s, image);
  System.out.printf("  sample %d: label %d, %s %dx%d, %,d payload bytes%n", s, ffcv.intValue(s, label),
      img.mode().label(), img.width(), img.height(), img.payload().remaining());
}
check(ffcv.numSamples() == 40 && ffcv.fields().size() == 2, "40 samples of image + label");

// ## 3. Every value, as FFCV sees it
// `SampleJson` prints a sample in the encoding of `expected.json` (`beton dump` uses it too): the
// label, and each image's mode, size and SHA-256 of its payload and of its decoded pixels. FFCV decodes
// with libjpeg-turbo's fast IDCT; with the native codec our pixels are FFCV's bit for bit. The pure-Java
// fallback differs by a few levels, so without it the pixel hash is left out of the comparison.
ObjectMapper json = new ObjectMapper();
JsonNode expected = json.readTree(golden.resolve("jpg_labels.expected.json").toFile()).get("samples");
boolean nativeCodec = JpegCodecs.nativeAvailable();
SampleJson ours = new SampleJson(ffcv, nativeCodec ? new FfcvPixels(JpegCodecs.fastest()) : null);
System.out.println("sample 0, FFCV: " + expected.get(0));
System.out.println("sample 0, ours: " + ours.row(0));
int same = 0;
for (int s = 0; s < ffcv.numSamples(); s++) {
  JsonNode want = expected.get(s).deepCopy();
  if (!nativeCodec) ((ObjectNode) want.get(0)).remove("rgb_sha256");
  if (json.readTree(ours.row(s)).equals(want)) same++;
}
System.out.printf("%d of %d samples equal FFCV's values (%s)%n", same, ffcv.numSamples(),
    nativeCodec ? "pixels included" : "pixels not compared: no native codec");
check(same == ffcv.numSamples(), "every sample equals FFCV's");

// ## 4. Write the same values with our writer
// The format core's writer, as a Spark task or any program uses it: fields, page size, page layout,
// then append values. In FFCV's page layout (the default, COMPACT, packs samples behind the metadata
// instead) FFCV's page rules are kept exactly, so one worker writing in order gives FFCV's bytes.
Path rewritten = Notebook.workDir().resolve("jpg_labels.ours.beton");
try (BetonWriter w = BetonWriter.builder(ffcv.fields()).pageSize(ffcv.pageSize()).pageLayout(PageLayout.FFCV)
    .open(rewritten)) {
  for (long s = 0; s < ffcv.numSamples(); s++) {
    RgbImage img = (RgbImage) ffcv.value(s, image);
    w.append(RgbImage.jpeg(img.width(), img.height(), img.payloadBytes()), ffcv.intValue(s, label));
  }
  w.finish();
}
ffcv.close();
byte[] theirs = Files.readAllBytes(ffcvFile);
byte[] mine = Files.readAllBytes(rewritten);
System.out.printf("FFCV's file: %,d bytes, sha256 %s%nours:        %,d bytes, sha256 %s%nfirst differing byte: %d%n",
    theirs.length, Notebook.sha256(theirs), mine.length, Notebook.sha256(mine), Arrays.mismatch(theirs, mine));
check(Arrays.mismatch(theirs, mine) == -1, "our file is byte-identical to FFCV's");

// Each check above must have run and passed: a step that failed to compile or threw skips its check.
/exit Notebook.exitCode(3)
