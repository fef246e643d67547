package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The jar names the Scala it was built for, and refuses another with the jar to use. (A 2.12 jar on Spark's Scala
 * 2.13 build, end to end: spark-beton-runtime-2.13's ScalaBinaryIT.)
 */
class ScalaBinaryCheckTest {
  @Test
  void theClassesNameTheScalaTheyWereBuiltForWhichIsTheOneRunningTheseTests() {
    String running = scala.util.Properties.versionNumberString();

    assertThat(ScalaBinaryCheck.builtFor()).as("the filtered " + ScalaBinaryCheck.RESOURCE)
        .isEqualTo(ScalaBinaryCheck.binary(running)).isIn("2.12", "2.13");
    assertThat(ScalaBinaryCheck.mismatch()).isNull();
  }

  @Test
  void aPatchReleaseOfTheSameScalaMatches() {
    assertThat(ScalaBinaryCheck.mismatch("2.12", "2.12.18")).isNull();
    assertThat(ScalaBinaryCheck.mismatch("2.13", "2.13.8")).isNull();
    assertThat(ScalaBinaryCheck.mismatch(null, "2.13.8")).as("no resource: nothing refused").isNull();
  }

  @Test
  void anotherScalaIsRefusedNamingTheJarForIt() {
    assertThat(ScalaBinaryCheck.mismatch("2.12", "2.13.8"))
        .isEqualTo("This spark-beton jar is built for Scala 2.12 (spark-beton-runtime-3.5_2.12), but this Spark runs"
            + " Scala 2.13.8: use org.sparkbeton:spark-beton-runtime-3.5_2.13, the jar for Spark 3.5 on Scala 2.13"
            + " (spark-submit --packages org.sparkbeton:spark-beton-runtime-3.5_2.13:VERSION, or --jars with that"
            + " jar). format(\"beton\") is off in this session; Spark's other data sources are unaffected.");
    assertThat(ScalaBinaryCheck.mismatch("2.13", "2.12.18")).contains("built for Scala 2.13")
        .contains("use org.sparkbeton:spark-beton-runtime-3.5_2.12,");
    assertThat(ScalaBinaryCheck.mismatch("2.12", "2.120.1")).as("not a patch release of 2.12").isNotNull();
  }

  @Test
  void theBinaryVersionIsTheFirstTwoParts() {
    assertThat(ScalaBinaryCheck.binary("2.13.8")).isEqualTo("2.13");
    assertThat(ScalaBinaryCheck.binary("2.12")).isEqualTo("2.12");
    assertThat(ScalaBinaryCheck.binary("3")).isEqualTo("3");
  }
}
