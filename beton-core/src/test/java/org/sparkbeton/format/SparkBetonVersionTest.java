package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The version the build wrote into the jar is the pom's (tests run in the module's directory, beside its pom). */
class SparkBetonVersionTest {

  @Test
  void isThePomsVersion() throws Exception {
    Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File("pom.xml"));
    XPath xpath = XPathFactory.newInstance().newXPath();
    String own = xpath.evaluate("/project/version", pom);
    String expected = own.isEmpty() ? xpath.evaluate("/project/parent/version", pom) : own;
    assertThat(expected).as("the version in beton-core's pom.xml").matches("\\d+\\.\\d+\\.\\d+.*");

    assertThat(SparkBetonVersion.version()).isEqualTo(expected);
    assertThat(SparkBetonVersion.writer()).isEqualTo("spark-beton " + expected);
  }
}
