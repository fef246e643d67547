package org.sparkbeton.format.fields;

/** IEEE-754 binary16 (numpy {@code <f2}) to float; Java 17 has no {@code Float.float16ToFloat}. */
public final class Float16 {
  private Float16() {}

  public static float toFloat(short bits) {
    int h = bits & 0xffff;
    int sign = (h >>> 15) << 31;
    int exp = (h >>> 10) & 0x1f;
    int mant = h & 0x3ff;
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
    }
    if (exp == 0) {
      float v = mant * 0x1p-24f;
      return sign == 0 ? v : -v;
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }
}
