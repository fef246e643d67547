package org.sparkbeton.format.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The refusal is decided by the call itself, so it holds on whichever Java the suite runs (17 and a newer one in CI). */
class HadoopJavaSupportTest {
  @Test
  void thisJvmIsRefusedExactlyWhenItRefusesTheCallHadoopMakes() {
    boolean refusesTheCall;
    try {
      getSubject();
      refusesTheCall = false;
    } catch (UnsupportedOperationException e) {
      assertThat(e).hasMessage("getSubject is not supported");
      refusesTheCall = true;
    }
    assertThat(HadoopJavaSupport.refusal().isPresent()).isEqualTo(refusesTheCall);
    // and only from Java 23: 17 to 22 hand the subject out
    if (Runtime.version().feature() <= 22) {
      assertThat(HadoopJavaSupport.refusal()).isEmpty();
    }
  }

  @Test
  void aRefusalSaysWhyAndWhichJavaToUse() {
    assertThat(HadoopJavaSupport.refusal(true, 25)).isEmpty();
    assertThat(HadoopJavaSupport.refusal(false, 25)).hasValue("Hadoop 3.3 cannot run on this Java 25: its"
        + " UserGroupInformation asks Subject.getSubject for the caller's identity, which Java 24 and later refuse"
        + " (Java 23 unless started with -Djava.security.manager=allow). Run it on Java 17 to 22 (set JAVA_HOME to"
        + " one)");
  }

  @SuppressWarnings("removal")
  private static void getSubject() {
    javax.security.auth.Subject.getSubject(java.security.AccessController.getContext());
  }
}
