package org.sparkbeton.format.dump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.NdArray;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.fields.RgbImage;

/**
 * One sample as a JSON array in the encoding of the golden {@code expected.json} files (see
 * beton-core/src/test/resources/golden/README.md): Int as a number, Float as {@code {"f64_bits"}}, Bytes as
 * {@code {"hex"}}, JSON as {@code {"text"}}, arrays as {@code {"sha256", "values"?}}, images as
 * {@code {"mode", "width", "height", "payload_sha256", "rgb_sha256"}}. A JPEG's {@code rgb_sha256}
 * needs a {@link PixelDecoder}; without one the key is left out. Custom fields print their raw
 * metadata bytes as {@code {"metadata_hex"}}.
 */
public final class SampleJson {
  private static final int MAX_LISTED_VALUES = 64;

  private final BetonReader reader;
  private final PixelDecoder pixels;

  public SampleJson(BetonReader reader, PixelDecoder pixels) {
    this.reader = reader;
    this.pixels = pixels;
  }

  public String row(long sample) {
    StringBuilder out = new StringBuilder("[");
    for (int f = 0; f < reader.fields().size(); f++) {
      if (f > 0) {
        out.append(", ");
      }
      value(out, sample, f);
    }
    return out.append(']').toString();
  }

  private void value(StringBuilder out, long sample, int f) {
    int type = reader.fields().get(f).typeId();
    switch (type) {
      case FieldTypes.INT -> out.append(reader.intValue(sample, f));
      case FieldTypes.FLOAT -> {
        byte[] le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(reader.floatValue(sample, f)).array();
        out.append("{\"f64_bits\": \"").append(Json.hex(le)).append("\"}");
      }
      case FieldTypes.BYTES -> out.append("{\"hex\": \"").append(Json.hex((byte[]) reader.value(sample, f))).append("\"}");
      case FieldTypes.JSON -> {
        out.append("{\"text\": ");
        Json.string(out, (String) reader.value(sample, f));
        out.append('}');
      }
      case FieldTypes.RGB_IMAGE -> image(out, (RgbImage) reader.value(sample, f));
      default -> {
        Object v = reader.value(sample, f);
        if (v instanceof NdArray a) {
          array(out, a);
        } else if (v instanceof RgbImage img) {
          image(out, img);
        } else {
          ByteBuffer chunk = reader.recordChunk(sample);
          int at = reader.recordOffset(sample) + reader.layout().offset(f);
          byte[] meta = new byte[reader.fields().get(f).codec().metadataSize()];
          chunk.get(at, meta);
          out.append("{\"metadata_hex\": \"").append(Json.hex(meta)).append("\"}");
        }
      }
    }
  }

  private void image(StringBuilder out, RgbImage img) {
    out.append("{\"mode\": \"").append(img.mode().label()).append("\", \"width\": ").append(img.width())
        .append(", \"height\": ").append(img.height()).append(", \"payload_sha256\": \"")
        .append(sha256(img.payload())).append('"');
    byte[] rgb = img.mode() == ImageMode.RAW ? null : pixels == null ? null : pixels.decodeRgb(img);
    if (img.mode() == ImageMode.RAW) {
      out.append(", \"rgb_sha256\": \"").append(sha256(img.payload())).append('"');
    } else if (rgb != null) {
      out.append(", \"rgb_sha256\": \"").append(sha256(ByteBuffer.wrap(rgb))).append('"');
    }
    out.append('}');
  }

  private static void array(StringBuilder out, NdArray a) {
    out.append("{\"sha256\": \"").append(sha256(a.data())).append('"');
    NumpyDtype dt = a.dtype();
    if (a.elementCount() <= MAX_LISTED_VALUES && listable(dt)) {
      out.append(", \"values\": [");
      ByteBuffer d = a.data().duplicate().order(dt.order());
      for (long i = 0; i < a.elementCount(); i++) {
        if (i > 0) {
          out.append(", ");
        }
        element(out, d, (int) i * dt.itemSize(), dt);
      }
      out.append(']');
    }
    out.append('}');
  }

  private static boolean listable(NumpyDtype dt) {
    return switch (dt.kind()) {
      case 'b' -> dt.itemSize() == 1;
      case 'i', 'u' -> dt.itemSize() == 1 || dt.itemSize() == 2 || dt.itemSize() == 4 || dt.itemSize() == 8;
      case 'f' -> dt.itemSize() == 2 || dt.itemSize() == 4 || dt.itemSize() == 8;
      default -> false;
    };
  }

  private static void element(StringBuilder out, ByteBuffer d, int at, NumpyDtype dt) {
    switch (dt.kind()) {
      case 'b' -> out.append(d.get(at) != 0);
      case 'i' -> out.append(switch (dt.itemSize()) {
        case 1 -> (long) d.get(at);
        case 2 -> (long) d.getShort(at);
        case 4 -> (long) d.getInt(at);
        default -> d.getLong(at);
      });
      case 'u' -> out.append(switch (dt.itemSize()) {
        case 1 -> Long.toString(Byte.toUnsignedLong(d.get(at)));
        case 2 -> Long.toString(Short.toUnsignedLong(d.getShort(at)));
        case 4 -> Long.toString(Integer.toUnsignedLong(d.getInt(at)));
        default -> Long.toUnsignedString(d.getLong(at));
      });
      default -> Json.number(out, switch (dt.itemSize()) {
        case 2 -> Float16.toFloat(d.getShort(at));
        case 4 -> (double) d.getFloat(at);
        default -> d.getDouble(at);
      });
    }
  }

  static String sha256(ByteBuffer bytes) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(bytes.duplicate());
      return Json.hex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
