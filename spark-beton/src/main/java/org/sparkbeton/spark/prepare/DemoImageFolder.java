package org.sparkbeton.spark.prepare;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * Writes the demo input of the prepare job: an ImageFolder tree ({@code <dir>/<class>/<n>.jpg}) of
 * labelled shapes from {@link ShapesGenerator}, so a plain clone has a real dataset to prepare.
 * Deterministic for a given seed and count.
 */
public final class DemoImageFolder {
  private DemoImageFolder() {}

  /**
   * Writes {@code count} images (classes in turn) unless the folder already holds them; returns the folder. The
   * mark of a complete folder lies beside it ({@code shapes.complete-2000-42}): inside it, the prepare of the
   * folder counted it as a hidden file left out, the first line of a newcomer's first summary.
   */
  public static Path ensure(Path dir, int count, long seed) throws IOException {
    Path absolute = dir.toAbsolutePath();
    Path marker = absolute.resolveSibling(absolute.getFileName() + ".complete-" + count + "-" + seed);
    Files.deleteIfExists(absolute.resolve(".complete-" + count + "-" + seed)); // where earlier versions left it
    if (Files.exists(marker)) {
      return dir;
    }
    ShapesGenerator gen = new ShapesGenerator(seed, 160, 320);
    for (String c : ShapesGenerator.CLASSES) {
      Files.createDirectories(dir.resolve(c));
    }
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        futures.add(pool.submit(() -> {
          for (int i = first; i < count; i += threads) {
            String cls = ShapesGenerator.CLASSES.get(gen.label(i));
            writeJpeg(gen.image(i), dir.resolve(cls).resolve(String.format(Locale.ROOT, "%06d.jpg", i)));
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while drawing the demo images", e);
    } catch (ExecutionException e) {
      throw new IOException("Drawing the demo images failed: " + e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    Files.createFile(marker);
    return dir;
  }

  private static void writeJpeg(BufferedImage img, Path file) throws IOException {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    try (OutputStream out = Files.newOutputStream(file); ImageOutputStream ios = ImageIO.createImageOutputStream(out)) {
      ImageWriteParam p = writer.getDefaultWriteParam();
      p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      p.setCompressionQuality(0.92f);
      writer.setOutput(ios);
      writer.write(null, new IIOImage(img, null, null), p);
    } finally {
      writer.dispose();
    }
  }
}
