package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {
  @Test
  void readsWhatItWrites() {
    Map<String, Object> value = new java.util.LinkedHashMap<>();
    value.put("plain", "part-00001-8be92eb3-a21-000.beton");
    value.put("escaped", "tab\there, quote \" backslash \\ newline\n unicode \u00e9\u4e2d control \u0001");
    value.put("empty", "");
    value.put("numbers", List.of(0L, -7L, Long.MAX_VALUE, Long.MIN_VALUE, 2.5, -1.0E-7));
    value.put("nested", Map.of("list", List.of(Map.of("a", true), List.of())));
    value.put("null", null);
    String text = JsonText.write(value);
    assertThat(JsonText.parse(text)).isEqualTo(value);
    assertThat(JsonText.parse(text.replace("\n", " \r\n\t"))).isEqualTo(value);
  }

  @Test
  void integersOnBothSidesOfTheEighteenCharacterFastPath() {
    assertThat(JsonText.parse("[0, -0, 7, -12, 123456789012345678, -12345678901234567, 1234567890123456789,"
        + " -123456789012345678, 9223372036854775807, -9223372036854775808, 1e2]"))
        .isEqualTo(List.of(0L, 0L, 7L, -12L, 123456789012345678L, -12345678901234567L, 1234567890123456789L,
            -123456789012345678L, Long.MAX_VALUE, Long.MIN_VALUE, 100.0));
    refused("9223372036854775808", "integer 9223372036854775808 does not fit a signed 64-bit value");
  }

  @Test
  void duplicateKeyIsRefusedEvenWithANullValue() {
    refused("{\"a\": null, \"a\": null}", "duplicate key \"a\"");
    refused("{\"a\": 1, \"b\": 2, \"a\": 1}", "duplicate key \"a\"");
  }

  @Test
  void readsEscapesInsideAndAroundPlainRuns() {
    assertThat(JsonText.parse("\"a\\u0041\\/b\\\\\"")).isEqualTo("aA/b\\");
    assertThat(JsonText.parse("[\"\\\"\", \"x\\n\", \"\"]")).isEqualTo(List.of("\"", "x\n", ""));
    assertThat(JsonText.parse("{\"k\\u00e9y\": 1}")).isEqualTo(Map.of("k\u00e9y", 1L));
  }

  @Test
  void refusesWhatJsonDoesNotAllowNamingTheOffset() {
    refused("\"abc", "unterminated string");
    refused("\"a\u0001b\"", "control character U+0001 inside a string must be escaped");
    refused("\"a\\qb\"", "invalid escape sequence \\q");
    refused("\"\\u12G4\"", "invalid hex digit 'G' in \\u escape");
    refused("012", "leading zeros are not allowed in numbers");
    refused("1.", "expected a digit after the decimal point");
    refused("1.\u0661", "expected a digit after the decimal point"); // an Arabic-Indic one is no JSON digit
    refused("1e", "expected a digit in the exponent");
    refused("[1, 2,]", "expected a value");
    refused("{\"a\": 1, \"a\": 2}", "duplicate key \"a\"");
    refused("{} x", "after the end of the JSON value");
    assertThat(JsonText.parse("-0.5e+2")).isEqualTo(-50.0);
    assertThat(JsonText.parse(" 123 ")).isEqualTo(123L);
  }

  private static void refused(String text, String problem) {
    assertThatThrownBy(() -> JsonText.parse(text)).isInstanceOf(ManifestFormatException.class)
        .hasMessageContaining(problem);
  }

  @Test
  void stringGivesBackWhatJsonStringsQuoteStored() {
    for (String s : new String[] {"", "s0", "a\"b\\c", "t\ta\nb\u0001\b\f\r", "é 照片 😀", "{\"a\": 1}", " "}) {
      assertThat(JsonText.string(org.sparkbeton.format.JsonStrings.quote(s))).as(s).isEqualTo(s);
    }
    assertThat(JsonText.string(" \"x\"\n")).isEqualTo("x");
    assertThat(JsonText.string("\"a\\/b\\u00E9\"")).isEqualTo("a/bé");
  }

  @Test
  void stringIsNullForAnyOtherJsonText() {
    for (String text : new String[] {"{\"a\": \"b\"}", "[\"a\"]", "3", "null", "true", "\"a\" \"b\"", "\"a\"b\"",
        "\"", "\"abc", "\"a\\\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"tab\tinside\"", ""}) {
      assertThat(JsonText.string(text)).as(text).isNull();
    }
  }

  @Test
  void objectsAndListsAreToldFromEveryOtherText() {
    for (String text : new String[] {"{\"a\": 1}", " [1, {\"b\": [null]}]\n", "{}", "[]"}) {
      assertThat(JsonText.isObjectOrList(text)).as(text).isTrue();
    }
    for (String text : new String[] {"\"{}\"", "5", "true", "null", "plain", "{\"a\": }", "[1,]", "{} {}", "", " "}) {
      assertThat(JsonText.isObjectOrList(text)).as(text).isFalse();
    }
  }

  @Test
  void objectReadsMembersInOrderAndRefusesAnythingElse() {
    java.util.Map<String, Object> members = JsonText.object("{\"shards\": 3, \"last\": \"a.beton\", \"x\": null}");
    assertThat(members.keySet()).containsExactly("shards", "last", "x");
    assertThat(members.get("shards")).isEqualTo(3L);
    assertThat(members.get("last")).isEqualTo("a.beton");
    assertThat(members.get("x")).isNull();
    for (String text : new String[] {"[1]", "\"a\"", "{\"a\": 1", "{\"a\": 1, \"a\": 2}", ""}) {
      assertThatThrownBy(() -> JsonText.object(text)).as(text).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Not a JSON object: " + text);
    }
  }

  @Test
  void stringListReadsSparksListsAndRefusesAnythingElse() {
    assertThat(JsonText.stringList("[\"/data/a\",\"/data/b, \\\"c\\\"\"]")).containsExactly("/data/a", "/data/b, \"c\"");
    for (String text : new String[] {"[1]", "{\"a\": \"b\"}", "\"a\"", "[\"a\"", ""}) {
      assertThatThrownBy(() -> JsonText.stringList(text)).as(text)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("Not a JSON list of strings: ");
    }
  }
}
