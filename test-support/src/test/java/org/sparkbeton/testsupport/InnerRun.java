package org.sparkbeton.testsupport;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs test classes in this JVM through the JUnit launcher, as surefire does, and collects each class's result. */
final class InnerRun {
  private InnerRun() {}

  /** Class name to its result, in the order the classes finished. */
  static Map<String, TestExecutionResult> run(Map<String, String> parameters, Class<?>... classes) {
    LauncherDiscoveryRequestBuilder request =
        LauncherDiscoveryRequestBuilder.request().configurationParameters(parameters);
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    LauncherDiscoveryRequest built = request.build();
    Map<String, TestExecutionResult> results = new LinkedHashMap<>();
    LauncherFactory.create().execute(built, new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        id.getSource().filter(ClassSource.class::isInstance)
            .ifPresent(s -> results.put(((ClassSource) s).getClassName(), result));
      }
    });
    return results;
  }
}
