package org.sparkbeton.loader.djl.example;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * A labelled image set to train on, drawn on the fly: one shape per image (the class), at a random size,
 * position, rotation and colour. {@link Background#PHOTO} draws it over a crop of a real photo ({@code TestPhotos})
 * with two outline distractors, a harder task than the repo's demo shapes on gradients; {@link Background#GRADIENT}
 * is the easy version for a quick test. Stored as quality-90 JPEGs in a {@code .beton} with an int label.
 * Deterministic per (seed, index).
 */
public final class ShapeScenes {
  /** The classes, in label order. */
  public static final List<String> CLASSES =
      List.of("circle", "square", "triangle", "star", "ring", "cross", "stripes", "diamond");

  /** What the shape is drawn over. */
  public enum Background { GRADIENT, PHOTO }

  private final long seed;
  private final List<String> classes;
  private final int minSide;
  private final int maxSide;
  private final Background background;
  private final List<RgbPixels> photos = new ArrayList<>();

  /** Images of the given classes (label i: {@code classes.get(i)}, each one of {@link #CLASSES}), {@code minSide..maxSide} px on each side. */
  public ShapeScenes(long seed, List<String> classes, int minSide, int maxSide, Background background) {
    if (classes.size() < 2 || !CLASSES.containsAll(classes)) {
      throw new IllegalArgumentException("Classes must be at least 2 of " + CLASSES + ", got " + classes);
    }
    if (minSide < 16 || maxSide < minSide) {
      throw new IllegalArgumentException("Image sides must satisfy 16 <= min <= max, got " + minSide + ".." + maxSide);
    }
    this.seed = seed;
    this.classes = List.copyOf(classes);
    this.minSide = minSide;
    this.maxSide = maxSide;
    this.background = background;
    if (background == Background.PHOTO) {
      for (int i = 0; i < 24; i++) { // backgrounds: 24 photos (240-500 px), cropped differently per image
        photos.add(ImageDecoder.decode(TestPhotos.photo(seed, i)));
      }
    }
  }

  /** The label of image {@code i}: classes in turn, so every class has the same count. */
  public int label(long i) {
    return (int) (i % classes.size());
  }

  /**
   * Writes images {@code first .. first + n - 1} into a {@code .beton} with fields {@code image} (RGBImage, JPEG)
   * and {@code label} (int); returns the file.
   */
  public Path write(Path file, long first, int n) throws IOException {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).open(file); JpegCodec codec = JpegCodecs.fastest()) {
      for (long i = first; i < first + n; i++) {
        BufferedImage img = image(i);
        byte[] rgb = rgb(img);
        byte[] jpeg = codec.encode(ByteBuffer.wrap(rgb), 0, img.getWidth(), img.getHeight(), 90);
        w.append(org.sparkbeton.format.fields.RgbImage.jpeg(img.getWidth(), img.getHeight(), jpeg), (long) label(i));
      }
      w.finish();
    }
    return file;
  }

  /** Draws image {@code i}. */
  public BufferedImage image(long i) {
    SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L + 7);
    int w = minSide + rnd.nextInt(maxSide - minSide + 1);
    int h = minSide + rnd.nextInt(maxSide - minSide + 1);
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      if (background == Background.PHOTO) {
        paintPhoto(img, photos.get(rnd.nextInt(photos.size())), rnd);
        for (int k = 0; k < 2; k++) { // distractors: outlines that are none of the classes
          g.setColor(color(rnd));
          g.setStroke(new BasicStroke(1 + rnd.nextInt(3)));
          int x = rnd.nextInt(w);
          int y = rnd.nextInt(h);
          g.drawArc(x - w / 6, y - h / 6, w / 3, h / 3, rnd.nextInt(360), 60 + rnd.nextInt(120));
        }
      } else {
        g.setPaint(new GradientPaint(0, 0, color(rnd), w, h, color(rnd)));
        g.fillRect(0, 0, w, h);
      }
      double lo = background == Background.PHOTO ? 0.3 : 0.45;
      double size = Math.min(w, h) * (lo + 0.35 * rnd.nextDouble());
      double cx = size / 2 + rnd.nextDouble() * Math.max(1, w - size);
      double cy = size / 2 + rnd.nextDouble() * Math.max(1, h - size);
      g.setTransform(AffineTransform.getRotateInstance(rnd.nextDouble() * Math.PI * 2, cx, cy));
      g.setColor(color(rnd));
      draw(g, classes.get(label(i)), cx, cy, size);
    } finally {
      g.dispose();
    }
    grain(img, rnd);
    return img;
  }

  /** A random crop of {@code photo} scaled into {@code img}. */
  private static void paintPhoto(BufferedImage img, RgbPixels photo, SplittableRandom rnd) {
    int w = img.getWidth();
    int h = img.getHeight();
    double scale = Math.max((double) w / photo.width(), (double) h / photo.height()) * (1 + rnd.nextDouble());
    int cropW = Math.min(photo.width(), (int) Math.ceil(w / scale));
    int cropH = Math.min(photo.height(), (int) Math.ceil(h / scale));
    int x0 = rnd.nextInt(photo.width() - cropW + 1);
    int y0 = rnd.nextInt(photo.height() - cropH + 1);
    byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    byte[] src = photo.pixels();
    for (int y = 0; y < h; y++) {
      int sy = y0 + Math.min(cropH - 1, y * cropH / h);
      for (int x = 0; x < w; x++) {
        int sx = x0 + Math.min(cropW - 1, x * cropW / w);
        int s = (sy * photo.width() + sx) * 3;
        int d = (y * w + x) * 3;
        bgr[d] = src[s + 2];
        bgr[d + 1] = src[s + 1];
        bgr[d + 2] = src[s];
      }
    }
  }

  private static void draw(Graphics2D g, String shape, double cx, double cy, double s) {
    double r = s / 2;
    switch (shape) {
      case "circle" -> g.fill(new Ellipse2D.Double(cx - r, cy - r, s, s));
      case "square" -> g.fill(new Rectangle2D.Double(cx - r, cy - r, s, s));
      case "triangle" -> g.fill(polygon(cx, cy, new double[] {r, r, r}, 3));
      case "star" -> g.fill(polygon(cx, cy, new double[] {r, r * 0.45}, 10));
      case "ring" -> {
        g.setStroke(new BasicStroke((float) (s / 7)));
        g.draw(new Ellipse2D.Double(cx - r * 0.8, cy - r * 0.8, s * 0.8, s * 0.8));
      }
      case "cross" -> {
        g.fill(new Rectangle2D.Double(cx - r, cy - s / 8, s, s / 4));
        g.fill(new Rectangle2D.Double(cx - s / 8, cy - r, s / 4, s));
      }
      case "stripes" -> {
        for (int k = 0; k < 4; k++) {
          g.fill(new Rectangle2D.Double(cx - r, cy - r + k * s / 4, s, s / 8));
        }
      }
      default -> g.fill(polygon(cx, cy, new double[] {r, r * 0.5}, 4)); // diamond: elongated, never a square
    }
  }

  /** A polygon of {@code corners} corners whose radii cycle through {@code radii}, the first corner at the top. */
  private static Shape polygon(double cx, double cy, double[] radii, int corners) {
    Polygon p = new Polygon();
    for (int k = 0; k < corners; k++) {
      double a = -Math.PI / 2 + 2 * Math.PI * k / corners;
      double rr = radii[k % radii.length];
      p.addPoint((int) Math.round(cx + rr * Math.cos(a)), (int) Math.round(cy + rr * Math.sin(a)));
    }
    return p;
  }

  private static void grain(BufferedImage img, SplittableRandom rnd) {
    byte[] px = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    for (int p = 0; p < px.length; p++) {
      int v = (px[p] & 0xff) + rnd.nextInt(17) - 8;
      px[p] = (byte) Math.max(0, Math.min(255, v));
    }
  }

  private static Color color(SplittableRandom rnd) {
    return new Color(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256));
  }

  /** Row-major R, G, B bytes of a TYPE_3BYTE_BGR image. */
  static byte[] rgb(BufferedImage img) {
    byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    byte[] rgb = new byte[bgr.length];
    for (int p = 0; p < bgr.length; p += 3) {
      rgb[p] = bgr[p + 2];
      rgb[p + 1] = bgr[p + 1];
      rgb[p + 2] = bgr[p];
    }
    return rgb;
  }
}
