package org.sparkbeton.spark.prepare;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws a small labelled image dataset on the fly so that a plain clone has something real to write
 * and train on: one class per shape (circle, square, triangle, star, ring, cross, stripes, diamond),
 * drawn at a random size, position, rotation and colour over a textured gradient background with
 * grain. Deterministic: sample {@code i} of a given seed is always the same picture, whatever the
 * thread that draws it.
 */
public final class ShapesGenerator {
  public static final List<String> CLASSES =
      List.of("circle", "square", "triangle", "star", "ring", "cross", "stripes", "diamond");

  private final long seed;
  private final int minSide;
  private final int maxSide;

  public ShapesGenerator(long seed, int minSide, int maxSide) {
    if (minSide < 16 || maxSide < minSide) {
      throw new IllegalArgumentException("Image sides must satisfy 16 <= min <= max, got " + minSide + ".." + maxSide);
    }
    this.seed = seed;
    this.minSide = minSide;
    this.maxSide = maxSide;
  }

  /** The label of sample {@code i}: classes cycle so every class gets the same count. */
  public int label(long i) {
    return (int) (i % CLASSES.size());
  }

  /** Draws sample {@code i} as a TYPE_3BYTE_BGR image. */
  public BufferedImage image(long i) {
    SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
    int w = minSide + rnd.nextInt(maxSide - minSide + 1);
    int h = minSide + rnd.nextInt(maxSide - minSide + 1);
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setPaint(new GradientPaint(0, 0, randomColor(rnd, 40, 200), w, h, randomColor(rnd, 40, 200)));
      g.fillRect(0, 0, w, h);
      for (int k = 0; k < 6; k++) { // faint texture strokes
        g.setColor(withAlpha(randomColor(rnd, 0, 255), 40));
        g.setStroke(new BasicStroke(1 + rnd.nextInt(4)));
        g.drawLine(rnd.nextInt(w), rnd.nextInt(h), rnd.nextInt(w), rnd.nextInt(h));
      }
      double size = Math.min(w, h) * (0.35 + 0.4 * rnd.nextDouble());
      double cx = size / 2 + rnd.nextDouble() * Math.max(1, w - size);
      double cy = size / 2 + rnd.nextDouble() * Math.max(1, h - size);
      g.setTransform(AffineTransform.getRotateInstance(rnd.nextDouble() * Math.PI * 2, cx, cy));
      g.setColor(randomColor(rnd, 0, 255));
      drawShape(g, label(i), cx, cy, size);
    } finally {
      g.dispose();
    }
    addGrain(img, rnd);
    return img;
  }

  /** Sample {@code i} as H x W x 3 bytes, row-major R,G,B (the .beton raw layout). */
  public byte[] rgb(BufferedImage img) {
    byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    byte[] rgb = new byte[bgr.length];
    for (int p = 0; p < bgr.length; p += 3) {
      rgb[p] = bgr[p + 2];
      rgb[p + 1] = bgr[p + 1];
      rgb[p + 2] = bgr[p];
    }
    return rgb;
  }

  private static void drawShape(Graphics2D g, int label, double cx, double cy, double s) {
    double r = s / 2;
    switch (CLASSES.get(label)) {
      case "circle" -> g.fill(new Ellipse2D.Double(cx - r, cy - r, s, s));
      case "square" -> g.fill(new Rectangle2D.Double(cx - r, cy - r, s, s));
      case "triangle" -> g.fill(polygon(cx, cy, r, 3, 0));
      case "star" -> g.fill(star(cx, cy, r));
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
      default -> g.fill(rhombus(cx, cy, r)); // diamond: elongated, so rotation never makes it a square
    }
  }

  private static Polygon polygon(double cx, double cy, double r, int corners, double phase) {
    Polygon p = new Polygon();
    for (int k = 0; k < corners; k++) {
      double a = phase - Math.PI / 2 + 2 * Math.PI * k / corners;
      p.addPoint((int) Math.round(cx + r * Math.cos(a)), (int) Math.round(cy + r * Math.sin(a)));
    }
    return p;
  }

  private static Polygon rhombus(double cx, double cy, double r) {
    Polygon p = new Polygon();
    p.addPoint((int) Math.round(cx), (int) Math.round(cy - r));
    p.addPoint((int) Math.round(cx + r * 0.5), (int) Math.round(cy));
    p.addPoint((int) Math.round(cx), (int) Math.round(cy + r));
    p.addPoint((int) Math.round(cx - r * 0.5), (int) Math.round(cy));
    return p;
  }

  private static Polygon star(double cx, double cy, double r) {
    Polygon p = new Polygon();
    for (int k = 0; k < 10; k++) {
      double a = -Math.PI / 2 + Math.PI * k / 5;
      double rr = k % 2 == 0 ? r : r * 0.45;
      p.addPoint((int) Math.round(cx + rr * Math.cos(a)), (int) Math.round(cy + rr * Math.sin(a)));
    }
    return p;
  }

  private static void addGrain(BufferedImage img, SplittableRandom rnd) {
    byte[] px = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    for (int p = 0; p < px.length; p++) {
      int v = (px[p] & 0xff) + rnd.nextInt(17) - 8;
      px[p] = (byte) Math.max(0, Math.min(255, v));
    }
  }

  private static Color randomColor(SplittableRandom rnd, int lo, int hi) {
    return new Color(lo + rnd.nextInt(hi - lo + 1), lo + rnd.nextInt(hi - lo + 1), lo + rnd.nextInt(hi - lo + 1));
  }

  private static Color withAlpha(Color c, int alpha) {
    return new Color(c.getRed(), c.getGreen(), c.getBlue(), alpha);
  }
}
