package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class StoredDecimalsTest {
  private static BigDecimal roundTrip(String value) {
    BigDecimal v = new BigDecimal(value);
    return StoredDecimals.fromDouble(StoredDecimals.toDouble(v), v.scale());
  }

  @Test
  void decimalsOfUpTo15DigitsComeBackAtTheirScale() {
    for (String v : new String[] {"12.34", "-0.05", "0.10", "0", "0.000", "999999999999999", "-99999999999.9999",
        "0.000000000000001", "123456789012.345"}) {
      BigDecimal back = roundTrip(v);
      assertThat(back).as(v).isEqualTo(new BigDecimal(v)); // equals: the same scale too
    }
    assertThat(StoredDecimals.toDouble(new BigDecimal("12.34"))).isEqualTo(12.34);
    // longer ones come back where their float64 does: 2^53 is one, its neighbour above is not
    assertThat(roundTrip("9007199254740992")).isEqualTo(new BigDecimal("9007199254740992"));
  }

  @Test
  void aDecimalItsFloat64DoesNotGiveBackIsRefusedNotRounded() {
    assertThatThrownBy(() -> StoredDecimals.toDouble(new BigDecimal("9007199254740993")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("decimal 9007199254740993 has more significant digits (16) than a float64 gives back exactly (15"
            + " always fit): cast the column to double for the nearest value, or to string for its exact text");
    assertThatThrownBy(() -> StoredDecimals.toDouble(new BigDecimal("0.12345678901234567")))
        .hasMessageStartingWith("decimal 0.12345678901234567 has more significant digits (17)");
    assertThatThrownBy(() -> StoredDecimals.toDouble(new BigDecimal("1E+400")))
        .hasMessage("decimal 1" + "0".repeat(400) + " is beyond the range of a float64 (about 1.8E308): cast the"
            + " column to string for its exact text");
  }

  @Test
  void theDigitsCountedAreTheValuesNotTheTrailingZerosOfItsScale() {
    // cast('1.0000000000000001' as decimal(38,18)): 17 significant digits, shown as 1.000000000000000100 before
    assertThatThrownBy(() -> StoredDecimals.toDouble(new BigDecimal("1.000000000000000100")))
        .hasMessageStartingWith("decimal 1.0000000000000001 has more significant digits (17) than a float64");
    // an integer's zeros before the point are digits of its text, but not significant: 2^53 + 1 times 1000
    assertThatThrownBy(() -> StoredDecimals.toDouble(new BigDecimal("9007199254740993000.00")))
        .hasMessageStartingWith("decimal 9007199254740993000 has more significant digits (16) than a float64");
  }
}
