package org.sparkbeton.notebooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

/**
 * An {@code .ipynb} file as the tests read it: what its code cells printed, and what is wrong with it as a
 * committed, executed notebook ({@link #problems}).
 */
record NotebookFile(String name, JsonNode json) {
  /** Cell metadata tag of a cell that draws a picture the notebook must show: {@code picture:NAME}. */
  static final String PICTURE_TAG = "picture:";
  /** A picture smaller than this, or with fewer colours, is not one a reader can look at. */
  static final int MIN_WIDTH = 200;
  static final int MIN_HEIGHT = 150;
  static final int MIN_COLOURS = 64;
  /**
   * An absolute path into the usual homes of checkouts and temporary files ({@code /work/wt/x/notebooks/...},
   * {@code /tmp/...}, {@code /home/ana/...}): a committed output that names one shows where it was run, and differs
   * on every machine. A relative path ({@code target/work/...}) does not match: a path character before the slash.
   */
  static final Pattern MACHINE_PATH = Pattern.compile("(?<![\\w./-])/(work|tmp|root|home|Users)/\\S*");

  static NotebookFile read(Path file) {
    try {
      return new NotebookFile(file.getFileName().toString(), new ObjectMapper().readTree(file.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read notebook " + file, e);
    }
  }

  List<JsonNode> codeCells() {
    List<JsonNode> cells = new ArrayList<>();
    json.path("cells").forEach(c -> {
      if ("code".equals(c.path("cell_type").asText())) {
        cells.add(c);
      }
    });
    return cells;
  }

  /** Everything the code cells wrote to standard output, in order. */
  String stdout() {
    StringBuilder out = new StringBuilder();
    for (JsonNode cell : codeCells()) {
      for (JsonNode o : cell.path("outputs")) {
        if ("stream".equals(o.path("output_type").asText()) && "stdout".equals(o.path("name").asText())) {
          out.append(text(o.path("text")));
        }
      }
    }
    return out.toString();
  }

  /**
   * What makes this notebook unfit to commit: a code cell without outputs or without an execution count, counts
   * out of order (cells run one by one, or the notebook edited after its run), an error output, an exception on
   * standard error, a path of the machine that ran it in any text output ({@link #MACHINE_PATH}), a kernel other
   * than spark-beton, and each picture of {@code pictures} missing: no cell tagged
   * {@code picture:NAME}, or no {@code image/png} output of at least 200x150 px and 64 colours in it.
   */
  List<String> problems(List<String> pictures) {
    List<String> problems = new ArrayList<>();
    String kernel = json.path("metadata").path("kernelspec").path("name").asText();
    if (!KernelSpec.NAME.equals(kernel)) {
      problems.add(name + ": kernelspec is '" + kernel + "', expected '" + KernelSpec.NAME + "'");
    }
    int expectedCount = 1;
    Set<String> drawn = new HashSet<>();
    for (JsonNode cell : codeCells()) {
      String id = "cell " + cell.path("id").asText("?") + " (" + firstLine(cell) + ")";
      JsonNode outputs = cell.path("outputs");
      if (outputs.isEmpty()) {
        problems.add(name + ": " + id + " has no outputs");
      }
      JsonNode count = cell.path("execution_count");
      if (!count.isInt()) {
        problems.add(name + ": " + id + " was not executed (execution_count " + count + ")");
      } else if (count.asInt() != expectedCount) {
        problems.add(name + ": " + id + " has execution_count " + count.asInt() + ", expected " + expectedCount
            + " (cells run top to bottom once)");
      }
      expectedCount = count.isInt() ? count.asInt() + 1 : expectedCount + 1;
      for (JsonNode o : outputs) {
        String type = o.path("output_type").asText();
        if ("error".equals(type)) {
          problems.add(name + ": " + id + " has an error output: " + o.path("ename").asText() + ": "
              + o.path("evalue").asText());
        } else if ("stream".equals(type) && "stderr".equals(o.path("name").asText())
            && text(o.path("text")).matches("(?s).*\\w+(Exception|Error)\\b.*")) {
          problems.add(name + ": " + id + " printed an exception or error on standard error: " + text(o.path("text")));
        }
      }
      String path = machinePath(outputs);
      if (path != null) {
        problems.add(name + ": " + id + " printed a path of the machine that ran it, " + path
            + " (print it relative to the notebooks' folder: Notebook.relative)");
      }
      for (JsonNode tag : cell.path("metadata").path("tags")) {
        if (tag.asText().startsWith(PICTURE_TAG)) {
          String picture = tag.asText().substring(PICTURE_TAG.length());
          String bad = pictureProblem(outputs);
          if (bad == null) {
            drawn.add(picture);
          } else {
            problems.add(name + ": picture '" + picture + "' (" + id + "): " + bad);
          }
        }
      }
    }
    for (String picture : pictures) {
      if (!drawn.contains(picture) && problems.stream().noneMatch(p -> p.contains("picture '" + picture + "'"))) {
        problems.add(name + ": no cell tagged " + PICTURE_TAG + picture);
      }
    }
    return problems;
  }

  /** The first {@link #MACHINE_PATH} in the text of {@code outputs} (streams, text/plain results, errors), or null. */
  private static String machinePath(JsonNode outputs) {
    for (JsonNode o : outputs) {
      String text = text(o.path("text")) + "\n" + text(o.path("data").path("text/plain")) + "\n"
          + o.path("evalue").asText() + "\n" + text(o.path("traceback"));
      Matcher m = MACHINE_PATH.matcher(text);
      if (m.find()) {
        return m.group();
      }
    }
    return null;
  }

  /** Null when {@code outputs} hold a PNG a reader can look at, else what is wrong. */
  private static String pictureProblem(JsonNode outputs) {
    String last = "no image/png output";
    for (JsonNode o : outputs) {
      JsonNode png = o.path("data").path("image/png");
      if (png.isMissingNode()) {
        continue;
      }
      BufferedImage image;
      try {
        image = ImageIO.read(new ByteArrayInputStream(Base64.getMimeDecoder().decode(text(png))));
      } catch (IOException | IllegalArgumentException e) {
        last = "image/png that does not decode: " + e.getMessage();
        continue;
      }
      if (image == null) {
        last = "image/png that is not a PNG";
      } else if (image.getWidth() < MIN_WIDTH || image.getHeight() < MIN_HEIGHT) {
        last = "image/png of " + image.getWidth() + "x" + image.getHeight() + ", expected at least " + MIN_WIDTH + "x"
            + MIN_HEIGHT;
      } else if (colours(image) < MIN_COLOURS) {
        last = "image/png of " + colours(image) + " colours, expected at least " + MIN_COLOURS + " (a blank picture?)";
      } else {
        return null;
      }
    }
    return last;
  }

  private static int colours(BufferedImage image) {
    Set<Integer> seen = new HashSet<>();
    for (int y = 0; y < image.getHeight() && seen.size() < MIN_COLOURS; y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        seen.add(image.getRGB(x, y));
      }
    }
    return seen.size();
  }

  /** nbformat stores text as one string or as a list of lines. */
  static String text(JsonNode node) {
    if (node.isArray()) {
      StringBuilder sb = new StringBuilder();
      node.forEach(n -> sb.append(n.asText()));
      return sb.toString();
    }
    return node.asText();
  }

  private static String firstLine(JsonNode cell) {
    String source = text(cell.path("source")).strip();
    int nl = source.indexOf('\n');
    String line = nl < 0 ? source : source.substring(0, nl);
    return line.length() > 60 ? line.substring(0, 57) + "..." : line;
  }
}
