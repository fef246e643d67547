package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * The Catalyst internals {@link LocalAnswerStrategy} calls, by name: Spark's planner classes are not a public
 * API and change between releases, so {@link BetonSparkExtensions} checks them by reflection before it adds
 * the strategy, and leaves Spark's own planning alone (with a warning) on a Spark where one is missing or
 * returns another type. {@code CatalystContractTest} asserts the list holds on the Spark the build uses, and
 * that the strategy still answers the queries it exists for.
 */
final class CatalystContract {
  /**
   * Spark's {@code Seq} in the signatures these classes were compiled against: {@code scala.collection.Seq} on Scala
   * 2.12, {@code scala.collection.immutable.Seq} on 2.13 (spark-beton-runtime-2.13).
   */
  static final String SEQ = "2.12".equals(builtForScala()) ? "scala.collection.Seq" : "scala.collection.immutable.Seq";
  private static final String LOGICAL_PLAN = "org.apache.spark.sql.catalyst.plans.logical.LogicalPlan";
  private static final String EXPRESSION = "org.apache.spark.sql.catalyst.expressions.Expression";
  private static final String INTERNAL_ROW = "org.apache.spark.sql.catalyst.InternalRow";
  private static final String UNSAFE_PROJECTION = "org.apache.spark.sql.catalyst.expressions.UnsafeProjection";
  private static final String UNSAFE_ROW = "org.apache.spark.sql.catalyst.expressions.UnsafeRow";

  /** A public method or constructor ({@code <init>}) of {@code owner} taking {@code params} and returning {@code returns}. */
  record Member(String owner, String name, List<String> params, String returns) {
    static Member method(String owner, String name, String returns, String... params) {
      return new Member(owner, name, List.of(params), returns);
    }

    static Member constructor(String owner, String... params) {
      return new Member(owner, "<init>", List.of(params), owner);
    }

    /** A class or interface that must exist: the strategy tests for it with instanceof. */
    static Member type(String owner) {
      return new Member(owner, null, List.of(), owner);
    }

    /** {@code Project.child() returning LogicalPlan}, {@code LocalTableScanExec(Seq, Seq)}, or the type's name. */
    @Override
    public String toString() {
      if (name == null) {
        return owner;
      }
      boolean constructor = name.equals("<init>");
      return simple(owner) + (constructor ? "" : "." + name) + "("
          + String.join(", ", params.stream().map(Member::simple).toList()) + ")"
          + (constructor ? "" : " returning " + simple(returns));
    }

    /** The simple name of a class name as {@link Class#forName} takes it ({@code [Lx.InternalRow;} is {@code InternalRow[]}). */
    static String simple(String className) {
      String element = className.startsWith("[L") ? className.substring(2, className.length() - 1) : className;
      return element.substring(element.lastIndexOf('.') + 1) + (element.equals(className) ? "" : "[]");
    }
  }

  /** Everything {@link LocalAnswerStrategy} and {@link BetonSparkExtensions} call or test for. */
  static final List<Member> MEMBERS = List.of(
      Member.method("org.apache.spark.sql.execution.SparkStrategy", "apply", SEQ, LOGICAL_PLAN),
      Member.method("org.apache.spark.sql.catalyst.plans.logical.Project", "projectList", SEQ),
      Member.method("org.apache.spark.sql.catalyst.plans.logical.Project", "child", LOGICAL_PLAN),
      Member.method("org.apache.spark.sql.catalyst.plans.logical.Project", "output", SEQ),
      Member.method("org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation", "scan",
          "org.apache.spark.sql.connector.read.Scan"),
      Member.method("org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation", "output", SEQ),
      Member.method("org.apache.spark.sql.connector.read.LocalScan", "rows", "[L" + INTERNAL_ROW + ";"),
      Member.method(UNSAFE_PROJECTION, "create", UNSAFE_PROJECTION, SEQ, SEQ),
      Member.method(UNSAFE_PROJECTION, "apply", UNSAFE_ROW, INTERNAL_ROW),
      Member.method(UNSAFE_ROW, "copy", UNSAFE_ROW),
      Member.constructor("org.apache.spark.sql.execution.LocalTableScanExec", SEQ, SEQ),
      Member.method(EXPRESSION, "deterministic", "boolean"),
      Member.method(EXPRESSION, "find", "scala.Option", "scala.Function1"),
      Member.type("org.apache.spark.sql.catalyst.expressions.Unevaluable"),
      Member.type("org.apache.spark.sql.catalyst.expressions.AttributeReference"),
      Member.method("org.apache.spark.sql.SparkSessionExtensions", "injectPlannerStrategy", "void",
          "scala.Function1"),
      Member.method("org.apache.spark.sql.ExperimentalMethods", "extraStrategies", SEQ),
      Member.method("org.apache.spark.sql.ExperimentalMethods", "extraStrategies_$eq", "void", SEQ));

  private static volatile List<String> problems;

  /** The Scala binary version these classes were built for, or the running one where the build did not say. */
  private static String builtForScala() {
    String built = ScalaBinaryCheck.builtFor();
    return built != null ? built : ScalaBinaryCheck.binary(scala.util.Properties.versionNumberString());
  }

  private CatalystContract() {}

  /** The warning logged when the strategy leaves planning to Spark, and why. */
  static String fallbackWarning(String why) {
    return "spark-beton: BetonSparkExtensions leaves planning to Spark " + sparkVersion() + ": " + why
        + ". Aggregates the beton source answers from metadata still are, through Spark's own plan (a one-task job"
        + " over the driver's rows)";
  }

  static String sparkVersion() {
    try {
      return org.apache.spark.package$.MODULE$.SPARK_VERSION();
    } catch (LinkageError e) {
      return "(version unknown)";
    }
  }

  /** What is missing or changed on this JVM's Spark, one line each; empty when the strategy may run. Checked once. */
  static List<String> problems() {
    List<String> p = problems;
    if (p == null) {
      p = check(MEMBERS);
      problems = p;
    }
    return p;
  }

  /** The members of {@code members} this JVM's Spark does not have as listed, each with what was found instead. */
  static List<String> check(List<Member> members) {
    List<String> out = new ArrayList<>();
    ClassLoader loader = CatalystContract.class.getClassLoader();
    for (Member m : members) {
      try {
        Class<?> owner = Class.forName(m.owner(), false, loader);
        if (m.name() == null) {
          continue;
        }
        Class<?>[] params = new Class<?>[m.params().size()];
        for (int i = 0; i < params.length; i++) {
          params[i] = Class.forName(m.params().get(i), false, loader);
        }
        if (m.name().equals("<init>")) {
          owner.getConstructor(params);
          continue;
        }
        Class<?> returned = owner.getMethod(m.name(), params).getReturnType();
        if (!returnsAsListed(returned, m.returns(), loader)) {
          out.add(m + ": returns " + returned.getName());
        }
      } catch (ClassNotFoundException e) {
        out.add(m + ": no class " + e.getMessage());
      } catch (NoSuchMethodException e) {
        out.add(m + ": no such " + (m.name().equals("<init>") ? "constructor" : "method"));
      } catch (LinkageError e) {
        out.add(m + ": " + e);
      }
    }
    return List.copyOf(out);
  }

  /** The listed type itself, or for a class type also a subtype (Scala bridges narrow return types). */
  private static boolean returnsAsListed(Class<?> returned, String listed, ClassLoader loader)
      throws ClassNotFoundException {
    if (returned.getName().equals(listed)) {
      return true;
    }
    boolean primitiveListed = !listed.contains(".") && !listed.startsWith("[");
    return !returned.isPrimitive() && !primitiveListed
        && Class.forName(listed, false, loader).isAssignableFrom(returned);
  }
}
