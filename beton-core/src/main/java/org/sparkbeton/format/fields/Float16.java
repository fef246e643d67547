package org.sparkbeton.format.fields;

/**
 * IEEE-754 binary16 (numpy {@code <f2}) conversions; Java 17 has neither {@code Float.float16ToFloat} nor
 * {@code Float.floatToFloat16}.
 */
public final class Float16 {
  private Float16() {}

  /** float → half bits, round to nearest even; overflow to infinity, NaN stays NaN. */
  public static short fromFloat(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int exp = (bits >>> 23) & 0xff;
    int mant = bits & 0x7fffff;
    if (exp == 0xff) {
      return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 : 0));
    }
    int e = exp - 127 + 15;
    if (e >= 0x1f) {
      return (short) (sign | 0x7c00);
    }
    if (e <= 0) {
      if (e < -10) {
        return (short) sign;
      }
      mant |= 0x800000; // implicit bit
      int shift = 14 - e;
      int half = mant >> shift;
      int rest = mant & ((1 << shift) - 1);
      int mid = 1 << (shift - 1);
      if (rest > mid || (rest == mid && (half & 1) != 0)) {
        half++;
      }
      return (short) (sign | half);
    }
    int half = (e << 10) | (mant >> 13);
    int rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) {
      half++; // may carry into the exponent, up to infinity: still correct
    }
    return (short) (sign | half);
  }

  /** half bits → float (exact). */
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
