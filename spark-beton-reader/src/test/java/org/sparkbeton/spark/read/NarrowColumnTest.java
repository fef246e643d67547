package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class NarrowColumnTest {
  @Test
  void holdsTheStoredIntegersOfItsRangeOnly() {
    assertThat(NarrowColumn.ofInteger(DataTypes.LongType)).isNull();
    assertThat(NarrowColumn.ofInteger(DataTypes.TimestampType)).isNull(); // microseconds: the long itself
    assertThat(NarrowColumn.ofInteger(DataTypes.DateType)).isEqualTo(NarrowColumn.INT); // days: an int
    NarrowColumn i = NarrowColumn.ofInteger(DataTypes.IntegerType);
    assertThat(i.fits(Integer.MIN_VALUE)).isTrue();
    assertThat(i.fits(1L << 31)).isFalse();
    assertThat(i.value(-5)).isEqualTo(-5);
    NarrowColumn s = NarrowColumn.ofInteger(DataTypes.ShortType);
    assertThat(s.fits(32767)).isTrue();
    assertThat(s.fits(32768)).isFalse();
    assertThat(s.value(-2)).isEqualTo((short) -2);
    NarrowColumn b = NarrowColumn.ofInteger(DataTypes.ByteType);
    assertThat(b.fits(-128)).isTrue();
    assertThat(b.fits(128)).isFalse();
    assertThat(b.value(7)).isEqualTo((byte) 7);
    NarrowColumn bool = NarrowColumn.ofInteger(DataTypes.BooleanType);
    assertThat(bool.fits(1)).isTrue();
    assertThat(bool.fits(2)).isFalse();
    assertThat(bool.fits(-1)).isFalse();
    assertThat(bool.value(0)).isEqualTo(false);
  }

  @Test
  void aFloatColumnHoldsExactFloatsAndNaN() {
    assertThat(NarrowColumn.floatFits(0.1f)).isTrue();
    assertThat(NarrowColumn.floatFits(0.1)).isFalse();
    assertThat(NarrowColumn.floatFits(Double.NaN)).isTrue();
    assertThat(NarrowColumn.floatFits(Double.NEGATIVE_INFINITY)).isTrue();
    assertThat(NarrowColumn.floatFits(1e300)).isFalse();
  }
}
