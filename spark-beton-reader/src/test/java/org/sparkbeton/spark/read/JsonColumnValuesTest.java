package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class JsonColumnValuesTest {
  private static final DataType TYPE = DataType.fromDDL(
      "STRUCT<n: TINYINT, s: STRING, d: DOUBLE, f: FLOAT, b: BINARY, m: MAP<INT, BOOLEAN>, x: DECIMAL(5, 2),"
          + " l: ARRAY<STRUCT<k: BIGINT>>, gone: STRING>");

  @Test
  void givesTheValuesOfTheRecordedType() {
    InternalRow r = (InternalRow) JsonColumnValues.parse("{\"n\": -7, \"s\": \"caf\\u00e9\", \"d\": null,"
        + " \"f\": 0.10000000149011612, \"b\": [0, 255], \"m\": {\"3\": true}, \"x\": \"12.5\","
        + " \"l\": [{\"k\": 9007199254740993}, null]}", TYPE);
    assertThat(r.getByte(0)).isEqualTo((byte) -7);
    assertThat(r.getUTF8String(1)).isEqualTo(UTF8String.fromString("café"));
    assertThat(r.isNullAt(2)).isTrue();
    assertThat(r.getFloat(3)).isEqualTo(0.1f);
    assertThat(r.getBinary(4)).containsExactly(0, -1);
    MapData m = r.getMap(5);
    assertThat(m.keyArray().getInt(0)).isEqualTo(3);
    assertThat(m.valueArray().getBoolean(0)).isTrue();
    assertThat(r.getDecimal(6, 5, 2)).isEqualTo(Decimal.apply("12.50"));
    ArrayData l = r.getArray(7);
    assertThat(l.getStruct(0, 1).getLong(0)).isEqualTo(9007199254740993L);
    assertThat(l.isNullAt(1)).isTrue();
    assertThat(r.isNullAt(8)).isTrue(); // a member the JSON does not have
  }

  @Test
  void refusesJsonOfAnotherShape() {
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"n\": 300}", TYPE))
        .hasMessage("300 is out of range for tinyint");
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"s\": 1}", TYPE)).hasMessage("expected string, found 1");
    assertThatThrownBy(() -> JsonColumnValues.parse("[1]", TYPE)).hasMessageStartingWith("expected struct<n:tinyint");
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"m\": {\"x\": true}}", TYPE))
        .hasMessage("expected a int map key, found \"x\"");
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"b\": [256]}", TYPE))
        .hasMessage("expected byte values 0-255 for binary, found 256");
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"x\": \"12345.5\"}", TYPE))
        .hasMessage("expected a decimal(5,2) as text, found 12345.5");
    assertThatThrownBy(() -> JsonColumnValues.parse("{\"n\": ", TYPE)).isInstanceOf(IllegalArgumentException.class);
    assertThat(JsonColumnValues.parse("[\"a\", null]", DataTypes.createArrayType(DataTypes.StringType)))
        .isInstanceOf(ArrayData.class);
  }
}
