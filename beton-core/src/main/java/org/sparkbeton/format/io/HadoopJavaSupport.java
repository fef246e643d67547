package org.sparkbeton.format.io;

import java.security.AccessController;
import java.util.Optional;
import javax.security.auth.Subject;

/**
 * Whether this JVM can run Hadoop 3.3's client, which Spark 3.5 and this project's remote datasets (hdfs://, s3a://)
 * read through. Hadoop's {@code UserGroupInformation.getCurrentUser} asks {@code Subject.getSubject} for the caller's
 * identity before any file system opens; Java 23 refuses that call unless started with
 * {@code -Djava.security.manager=allow}, Java 24 and later always ({@code UnsupportedOperationException: getSubject is
 * not supported}). This class makes the same call, with no Hadoop class loaded, so a user is told why and what to do
 * instead of reading that exception from deep inside Hadoop. Only the JDK is touched: local files and dataset
 * directories read without Hadoop on any Java from 17.
 */
public final class HadoopJavaSupport {
  private static final Optional<String> REFUSAL = refusal(callerSubjectAvailable(), Runtime.version().feature());

  private HadoopJavaSupport() {}

  /** Why Hadoop cannot run in this JVM, or empty where it can; the sentence names the cure. */
  public static Optional<String> refusal() {
    return REFUSAL;
  }

  static Optional<String> refusal(boolean callerSubjectAvailable, int javaFeature) {
    if (callerSubjectAvailable) {
      return Optional.empty();
    }
    return Optional.of("Hadoop 3.3 cannot run on this Java " + javaFeature + ": its UserGroupInformation asks"
        + " Subject.getSubject for the caller's identity, which Java 24 and later refuse (Java 23 unless started with"
        + " -Djava.security.manager=allow). Run it on Java 17 to 22 (set JAVA_HOME to one)");
  }

  /** The call Hadoop makes; false where the JDK refuses it. */
  @SuppressWarnings("removal") // the very call that Java 23 and later refuse
  private static boolean callerSubjectAvailable() {
    try {
      Subject.getSubject(AccessController.getContext());
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
