package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class PicturesTest {
  @Test
  void rgbReadsPackedRowsInOrder() {
    byte[] rgb = new byte[2 * 3 * 3]; // 3 wide, 2 high
    rgb[0] = (byte) 255;               // (0,0) red
    rgb[3 * 3 + 3 * 2 + 2] = (byte) 200; // (2,1) blue 200
    BufferedImage image = Pictures.rgb(rgb, 3, 2);
    assertThat(image.getWidth()).isEqualTo(3);
    assertThat(image.getHeight()).isEqualTo(2);
    assertThat(image.getRGB(0, 0) & 0xffffff).isEqualTo(0xff0000);
    assertThat(image.getRGB(2, 1) & 0xffffff).isEqualTo(0x0000c8);
    assertThat(image.getRGB(1, 1) & 0xffffff).isZero();
  }

  @Test
  void rgbRefusesTooFewBytes() {
    assertThatThrownBy(() -> Pictures.rgb(new byte[10], 2, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Need 2x2x3 RGB bytes from offset 0, the buffer holds 10");
  }

  @Test
  void batchSplitsNhwcRows() {
    ByteBuffer batch = ByteBuffer.allocateDirect(2 * 2 * 2 * 3); // two 2x2 images
    batch.put(12, (byte) 77);                                   // first pixel of the second image, red
    List<BufferedImage> images = Pictures.batch(batch, 2, 2, 2);
    assertThat(images).hasSize(2);
    assertThat(images.get(0).getRGB(0, 0) & 0xffffff).isZero();
    assertThat(images.get(1).getRGB(0, 0) & 0xffffff).isEqualTo(77 << 16);
  }

  @Test
  void gridLaysOutCellsAndScalesImagesToFit() {
    BufferedImage wide = solid(100, 50, Color.RED);
    List<Pictures.Tile> tiles = List.of(new Pictures.Tile(wide, "a"), new Pictures.Tile(wide, "b"),
        new Pictures.Tile(wide, "c"), new Pictures.Tile(wide, "d"), new Pictures.Tile(wide, "e"));
    BufferedImage grid = Pictures.grid("", tiles, 3, 50);
    assertThat(grid.getWidth()).isEqualTo(8 + 3 * (50 + 8));
    assertThat(grid.getHeight()).isEqualTo(2 * (50 + 18 + 8) + 8);
    // the first cell spans x 8..58, y 8..58; the 100x50 image is drawn 50x25, centred vertically
    assertThat(grid.getRGB(33, 33) & 0xffffff).isEqualTo(0xff0000);
    assertThat(grid.getRGB(33, 12) & 0xffffff).isEqualTo(0xffffff);
  }

  @Test
  void aTitleWiderThanTheGridWidensIt() {
    List<Pictures.Tile> one = List.of(new Pictures.Tile(solid(10, 10, Color.BLUE), ""));
    BufferedImage plain = Pictures.grid("", one, 1, 20);
    BufferedImage titled = Pictures.grid("A title much wider than one small cell", one, 1, 20);
    assertThat(plain.getWidth()).isEqualTo(36);
    assertThat(titled.getWidth()).isGreaterThan(200);
    assertThat(titled.getHeight()).isEqualTo(plain.getHeight() + 28);
  }

  @Test
  void stripKeepsSizesAndAlignsBottoms() {
    BufferedImage strip = Pictures.strip("", List.of(new Pictures.Tile(solid(20, 20, Color.GREEN), "small"),
        new Pictures.Tile(solid(40, 40, Color.RED), "large")));
    assertThat(strip.getWidth()).isEqualTo(8 + 20 + 8 + 40 + 8);
    assertThat(strip.getHeight()).isEqualTo(8 + 40 + 18 + 8);
    assertThat(strip.getRGB(10, 8 + 40 - 1) & 0xffffff).isEqualTo(0x00ff00); // bottom row of the small one
    assertThat(strip.getRGB(10, 8 + 10) & 0xffffff).isEqualTo(0xffffff);      // above it: background
  }

  @Test
  void emptyLayoutsAreRefused() {
    assertThatThrownBy(() -> Pictures.grid("t", List.of(), 3, 50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A grid needs tiles, columns >= 1 and cells of at least 8 px, got 0 tiles, 3 columns, 50 px");
    assertThatThrownBy(() -> Pictures.strip("t", List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("A strip needs at least one tile");
    assertThatThrownBy(() -> new Pictures.Tile(null, "x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("A tile needs an image (caption 'x')");
  }

  private static BufferedImage solid(int w, int h, Color c) {
    BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(c);
    g.fillRect(0, 0, w, h);
    g.dispose();
    return image;
  }
}
