package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Numbers inside JSON: finite ones as they are; a NaN or infinity, which JSON cannot hold, is refused. */
class JsonValuesTest {
  @Test
  void finiteNumbersAreWrittenAndNonFiniteOnesRefused() {
    assertThat(JsonValues.toJson(ArrayData.toArrayData(new double[] {1.5, -0.0}),
        DataTypes.createArrayType(DataTypes.DoubleType))).isEqualTo("[1.5, -0.0]");
    // a NaN or infinity was written as null and read back as null, without a word
    assertThatThrownBy(() -> JsonValues.toJson(ArrayData.toArrayData(new double[] {Double.NaN, 1}),
        DataTypes.createArrayType(DataTypes.DoubleType)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a NaN inside a struct, array or map, which is stored as JSON: JSON has no NaN or"
            + " infinity, and it would read back as null");
    assertThatThrownBy(() -> JsonValues.toJson(ArrayData.toArrayData(new float[] {Float.NEGATIVE_INFINITY}),
        DataTypes.createArrayType(DataTypes.FloatType))).hasMessageStartingWith("a -Infinity inside");
  }
}
