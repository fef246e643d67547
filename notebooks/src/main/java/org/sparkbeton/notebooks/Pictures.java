package org.sparkbeton.notebooks;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;

/**
 * Pictures for the notebooks' cells: packed RGB pixels (what the Spark reader's {@code imageMode=raw} and the
 * loader's uint8 batches hold) as {@link BufferedImage}s, and grids of captioned images. The kernel displays a
 * {@code BufferedImage} as {@code image/png} ({@code display(image)}).
 */
public final class Pictures {
  private static final int PAD = 8;
  private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
  private static final Font CAPTION = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

  private Pictures() {}

  /** An image and the line of text drawn under it. */
  public record Tile(BufferedImage image, String caption) {
    public Tile {
      if (image == null) {
        throw new IllegalArgumentException("A tile needs an image (caption '" + caption + "')");
      }
      caption = caption == null ? "" : caption;
    }
  }

  /** Packed RGB rows ({@code height x width x 3}, R,G,B) as an image. */
  public static BufferedImage rgb(byte[] rgb, int width, int height) {
    return rgb(ByteBuffer.wrap(rgb), 0, width, height);
  }

  /** Packed RGB rows read from {@code offset} of {@code pixels} (absolute: its position is not used or moved). */
  public static BufferedImage rgb(ByteBuffer pixels, int offset, int width, int height) {
    if (width < 1 || height < 1 || offset < 0 || (long) offset + 3L * width * height > pixels.limit()) {
      throw new IllegalArgumentException("Need " + width + "x" + height + "x3 RGB bytes from offset " + offset
          + ", the buffer holds " + pixels.limit());
    }
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    int p = offset;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++, p += 3) {
        image.setRGB(x, y, (pixels.get(p) & 0xff) << 16 | (pixels.get(p + 1) & 0xff) << 8 | pixels.get(p + 2) & 0xff);
      }
    }
    return image;
  }

  /**
   * The first {@code count} images of a uint8 batch in NHWC layout (the loader's {@code Batch.data(output)} of a
   * decoder without {@code ToChannelsFirst}), each {@code height x width x 3}.
   */
  public static List<BufferedImage> batch(ByteBuffer images, int count, int height, int width) {
    List<BufferedImage> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(rgb(images, i * 3 * width * height, width, height));
    }
    return out;
  }

  /** An encoded image (JPEG, PNG, ...), decoded by beton-codec. */
  public static BufferedImage decode(byte[] encoded) {
    RgbPixels image = ImageDecoder.decode(encoded);
    return rgb(image.pixels(), image.width(), image.height());
  }

  /**
   * Tiles in rows of {@code columns}, each image scaled to fit a {@code cell x cell} square (aspect kept, centred),
   * its caption under it, the title above all.
   */
  public static BufferedImage grid(String title, List<Tile> tiles, int columns, int cell) {
    if (tiles.isEmpty() || columns < 1 || cell < 8) {
      throw new IllegalArgumentException("A grid needs tiles, columns >= 1 and cells of at least 8 px, got "
          + tiles.size() + " tiles, " + columns + " columns, " + cell + " px");
    }
    int cols = Math.min(columns, tiles.size());
    int rows = (tiles.size() + cols - 1) / cols;
    int captionHeight = 18;
    int top = titleHeight(title);
    BufferedImage out = canvas(Math.max(PAD + cols * (cell + PAD), titleWidth(title)),
        top + rows * (cell + captionHeight + PAD) + PAD);
    Graphics2D g = graphics(out);
    drawTitle(g, title);
    for (int i = 0; i < tiles.size(); i++) {
      int x = PAD + (i % cols) * (cell + PAD);
      int y = top + PAD + (i / cols) * (cell + captionHeight + PAD);
      BufferedImage img = tiles.get(i).image();
      double scale = Math.min((double) cell / img.getWidth(), (double) cell / img.getHeight());
      int w = Math.max(1, (int) Math.round(img.getWidth() * scale));
      int h = Math.max(1, (int) Math.round(img.getHeight() * scale));
      g.drawImage(img, x + (cell - w) / 2, y + (cell - h) / 2, w, h, null);
      drawCaption(g, tiles.get(i).caption(), x, y + cell, cell);
    }
    g.dispose();
    return out;
  }

  /** Tiles side by side at their own size (no scaling), bottom-aligned, so that sizes compare by eye. */
  public static BufferedImage strip(String title, List<Tile> tiles) {
    if (tiles.isEmpty()) {
      throw new IllegalArgumentException("A strip needs at least one tile");
    }
    int captionHeight = 18;
    int top = titleHeight(title);
    int width = PAD;
    int tallest = 0;
    for (Tile t : tiles) {
      width += t.image().getWidth() + PAD;
      tallest = Math.max(tallest, t.image().getHeight());
    }
    BufferedImage out = canvas(Math.max(width, titleWidth(title)), top + PAD + tallest + captionHeight + PAD);
    Graphics2D g = graphics(out);
    drawTitle(g, title);
    int x = PAD;
    for (Tile t : tiles) {
      BufferedImage img = t.image();
      g.drawImage(img, x, top + PAD + tallest - img.getHeight(), null);
      drawCaption(g, t.caption(), x, top + PAD + tallest, img.getWidth());
      x += img.getWidth() + PAD;
    }
    g.dispose();
    return out;
  }

  private static int titleHeight(String title) {
    return title == null || title.isEmpty() ? 0 : 28;
  }

  /** The title's width with a margin each side, so that a grid narrower than its title is widened. */
  private static int titleWidth(String title) {
    if (titleHeight(title) == 0) {
      return 0;
    }
    Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
    try {
      return g.getFontMetrics(TITLE).stringWidth(title) + 2 * PAD;
    } finally {
      g.dispose();
    }
  }

  private static BufferedImage canvas(int width, int height) {
    BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    g.dispose();
    return out;
  }

  private static Graphics2D graphics(BufferedImage out) {
    Graphics2D g = out.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
    g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.DARK_GRAY);
    return g;
  }

  private static void drawTitle(Graphics2D g, String title) {
    if (titleHeight(title) > 0) {
      g.setFont(TITLE);
      g.drawString(title, PAD, 20);
    }
  }

  /** The caption centred under a tile, cut with an ellipsis where it is wider than the tile. */
  private static void drawCaption(Graphics2D g, String caption, int x, int y, int width) {
    g.setFont(CAPTION);
    FontMetrics fm = g.getFontMetrics();
    String text = caption;
    while (text.length() > 1 && fm.stringWidth(text) > width) {
      text = text.substring(0, text.length() - 2) + "…";
    }
    g.drawString(text, x + Math.max(0, (width - fm.stringWidth(text)) / 2), y + 14);
  }
}
