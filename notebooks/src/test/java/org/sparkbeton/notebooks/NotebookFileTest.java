package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** What {@link NotebookFile#problems} finds in a notebook, one defect at a time, against a clean control. */
class NotebookFileTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aCompleteNotebookHasNoProblems() throws IOException {
    assertThat(notebook(printing("hello"), picture("grid", png(300, 200, 1 << 24))).problems(List.of("grid")))
        .isEmpty();
  }

  @Test
  void stdoutJoinsWhatTheCellsPrinted() throws IOException {
    assertThat(notebook(printing("one\n"), printing("two\n")).stdout()).isEqualTo("one\ntwo\n");
  }

  @Test
  void aCellWithoutOutputs() {
    ObjectNode cell = printing("x");
    cell.putArray("outputs");
    assertThat(notebook(cell).problems(List.of())).singleElement().asString()
        .contains("cell c1 (System.out.println(\"x\");) has no outputs");
  }

  @Test
  void aCellNotExecuted() {
    ObjectNode cell = printing("x");
    cell.putNull("execution_count");
    assertThat(notebook(cell).problems(List.of())).singleElement().asString()
        .contains("was not executed (execution_count null)");
  }

  @Test
  void cellsNotRunTopToBottom() {
    ObjectNode second = printing("b");
    second.put("execution_count", 5);
    assertThat(notebook(printing("a"), second).problems(List.of())).singleElement().asString()
        .contains("has execution_count 5, expected 2");
  }

  @Test
  void anErrorOutput() {
    ObjectNode cell = printing("x");
    ((ArrayNode) cell.get("outputs")).addObject().put("output_type", "error").put("ename", "EvalException")
        .put("evalue", "boom");
    assertThat(notebook(cell).problems(List.of())).singleElement().asString()
        .contains("has an error output: EvalException: boom");
  }

  @Test
  void anExceptionOnStandardError() {
    ObjectNode cell = printing("x");
    ((ArrayNode) cell.get("outputs")).addObject().put("output_type", "stream").put("name", "stderr")
        .put("text", "java.lang.IllegalStateException: no\n");
    assertThat(notebook(cell).problems(List.of())).singleElement().asString()
        .contains("printed an exception or error on standard error: java.lang.IllegalStateException: no");
  }

  @Test
  void aPathOfTheMachineThatRanIt() {
    assertThat(notebook(printing("  -DENGINE_CACHE_DIR=/work/wt/djlnb/notebooks/target/djl-cache\n"))
        .problems(List.of())).singleElement().asString()
        .startsWith("test.ipynb: cell c1 (").endsWith(") printed a path of the machine that ran it,"
            + " /work/wt/djlnb/notebooks/target/djl-cache"
            + " (print it relative to the notebooks' folder: Notebook.relative)");
    for (String line : List.of("beton doctor: /home/ana/photos.beton (1 file)", "at /tmp/x", "'/root/a'",
        "file:/Users/b/c")) {
      assertThat(notebook(printing(line)).problems(List.of())).as(line).singleElement().asString()
          .contains("printed a path of the machine that ran it");
    }
  }

  @Test
  void aPathInAResultOrAnErrorToo() {
    ObjectNode result = JSON.createObjectNode().put("cell_type", "code").put("source", "work");
    result.putObject("metadata");
    result.putArray("outputs").addObject().put("output_type", "execute_result").putObject("data")
        .put("text/plain", "/tmp/notebooks/target/work");
    ObjectNode error = printing("x");
    ((ArrayNode) error.get("outputs")).addObject().put("output_type", "error").put("ename", "IOException")
        .put("evalue", "x").putArray("traceback").add("at /home/ana/notebooks/Cell.java");
    assertThat(notebook(result, error).problems(List.of())).hasSize(3)
        .anySatisfy(p -> assertThat(p).contains("cell c1 (work) printed a path", "/tmp/notebooks/target/work"))
        .anySatisfy(p -> assertThat(p).contains("cell c2", "printed a path", "/home/ana/notebooks/Cell.java"));
  }

  @Test
  void relativePathsAndOtherSlashesAreNotAMachinesPath() {
    for (String line : List.of("target/work/open_in_ffcv.py:", "  -DENGINE_CACHE_DIR=target/djl-cache",
        "beton doctor: target/test-work/doctor-photos.beton", "copy it to a local disk or to /dev/shm",
        "../beton-core/src/test/resources/golden", "https://example.org/home/page", "1,308 img/s / 2 cores")) {
      assertThat(notebook(printing(line)).problems(List.of())).as(line).isEmpty();
    }
  }

  @Test
  void anotherKernel() {
    NotebookFile nb = notebook(printing("x"));
    ((ObjectNode) nb.json().get("metadata").get("kernelspec")).put("name", "python3");
    assertThat(nb.problems(List.of())).singleElement().asString()
        .contains("kernelspec is 'python3', expected 'spark-beton'");
  }

  @Test
  void aPromisedPictureWithoutItsCell() {
    assertThat(notebook(printing("x")).problems(List.of("histogram"))).singleElement().asString()
        .contains("no cell tagged picture:histogram");
  }

  @Test
  void aPictureCellWithoutAnImage() {
    assertThat(notebook(picture("grid", null)).problems(List.of("grid"))).singleElement().asString()
        .contains("picture 'grid'").contains("no image/png output");
  }

  @Test
  void aTinyPicture() throws IOException {
    assertThat(notebook(picture("grid", png(40, 30, 1 << 24))).problems(List.of("grid"))).singleElement().asString()
        .contains("image/png of 40x30, expected at least 200x150");
  }

  @Test
  void aBlankPicture() throws IOException {
    assertThat(notebook(picture("grid", png(300, 200, 1))).problems(List.of("grid"))).singleElement().asString()
        .contains("image/png of 1 colours, expected at least 64");
  }

  @Test
  void bytesThatAreNotAPng() {
    String notPng = Base64.getEncoder().encodeToString("not a picture".getBytes());
    assertThat(notebook(picture("grid", notPng)).problems(List.of("grid"))).singleElement().asString()
        .contains("image/png that is not a PNG");
  }

  private static NotebookFile notebook(ObjectNode... codeCells) {
    ObjectNode nb = JSON.createObjectNode();
    nb.putObject("metadata").putObject("kernelspec").put("name", KernelSpec.NAME);
    ArrayNode list = nb.putArray("cells");
    list.addObject().put("cell_type", "markdown").put("id", "m0").put("source", "# a title");
    int count = 0;
    for (ObjectNode c : codeCells) {
      c.put("id", "c" + (++count));
      if (!c.has("execution_count")) {
        c.put("execution_count", count);
      }
      list.add(c);
    }
    return new NotebookFile("test.ipynb", nb);
  }

  private static ObjectNode printing(String text) {
    ObjectNode cell = JSON.createObjectNode().put("cell_type", "code").put("source", "System.out.println(\"" + text
        .strip() + "\");");
    cell.putObject("metadata");
    cell.putArray("outputs").addObject().put("output_type", "stream").put("name", "stdout").putArray("text").add(text);
    return cell;
  }

  /** A cell tagged picture:NAME whose display output holds {@code base64Png} (none when null). */
  private static ObjectNode picture(String name, String base64Png) {
    ObjectNode cell = JSON.createObjectNode().put("cell_type", "code").put("source", "display(image);");
    cell.putObject("metadata").putArray("tags").add(NotebookFile.PICTURE_TAG + name);
    ArrayNode outputs = cell.putArray("outputs");
    if (base64Png == null) {
      outputs.addObject().put("output_type", "stream").put("name", "stdout").put("text", "no picture\n");
    } else {
      ObjectNode display = outputs.addObject().put("output_type", "display_data");
      display.putObject("metadata");
      display.putObject("data").put("image/png", base64Png);
    }
    return cell;
  }

  /** A PNG of random pixels drawn from {@code colours} colours, base64 with line breaks as Jupyter may store it. */
  private static String png(int width, int height, int colours) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    SplittableRandom r = new SplittableRandom(7);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, colours == 1 ? 0x336699 : r.nextInt(colours));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return Base64.getMimeEncoder().encodeToString(out.toByteArray());
  }
}
