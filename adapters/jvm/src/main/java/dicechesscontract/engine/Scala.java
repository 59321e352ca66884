// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Calls into the Scala engine by reflection, so that one adapter serves every engine release: a class or
 * method a release does not have is reported as {@link Missing} (the request is then answered
 * {@code unsupported}), never as a crash.
 *
 * <p>What Scala 3 compiles to, as used here: an {@code object X} is the class {@code X$} with a static
 * {@code MODULE$}; an opaque type over {@code Int} (the engine's {@code Color}) is an {@code int}; an
 * {@code Either} is {@code scala.util.Left}/{@code scala.util.Right} with a {@code value()} accessor.
 */
final class Scala {
    private Scala() {}

    /** The engine lacks a class or method this request needs. */
    static final class Missing extends Exception {
        Missing(String message) {
            super(message);
        }
    }

    /** The result of a Scala {@code Either[String, A]}: exactly one of error and value is set. */
    record Outcome(String error, Object value) {
        boolean ok() {
            return error == null;
        }
    }

    static Object module(String className) throws Missing {
        try {
            return Class.forName(className + "$").getField("MODULE$").get(null);
        } catch (ClassNotFoundException | NoSuchFieldException | IllegalAccessException e) {
            throw new Missing("the engine on the classpath has no " + className);
        }
    }

    static Class<?> type(String className) throws Missing {
        try {
            return Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new Missing("the engine on the classpath has no " + className);
        }
    }

    /** Calls the public method {@code name} of {@code target} taking exactly {@code types}. */
    static Object call(Object target, String name, Class<?>[] types, Object... args) throws Missing {
        Method method;
        try {
            method = target.getClass().getMethod(name, types);
        } catch (NoSuchMethodException e) {
            throw new Missing("the engine's " + target.getClass().getName() + " has no method " + name);
        }
        try {
            return method.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new Missing("the engine's " + target.getClass().getName() + "." + name + " is not accessible");
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new EngineFailure(cause);
        }
    }

    /** Reads a Scala {@code Either[String, A]}. */
    static Outcome either(Object either) {
        String name = either.getClass().getName();
        Object value = valueOf(either);
        if (name.equals("scala.util.Left")) {
            return new Outcome(String.valueOf(value), null);
        }
        if (name.equals("scala.util.Right")) {
            return new Outcome(null, value);
        }
        throw new IllegalStateException("expected a scala.util.Either, got " + name);
    }

    /** {@code Some(value)}, or {@code None} for null. */
    static Object option(Object value) {
        try {
            Object companion = Class.forName("scala.Option$").getField("MODULE$").get(null);
            return companion.getClass().getMethod("apply", Object.class).invoke(companion, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("scala.Option is not on the classpath", e);
        }
    }

    private static Object valueOf(Object caseClass) {
        try {
            return caseClass.getClass().getMethod("value").invoke(caseClass);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + caseClass.getClass().getName() + ".value", e);
        }
    }

    /** An exception thrown by the engine's own code (reported as an {@code error} answer). */
    static final class EngineFailure extends RuntimeException {
        EngineFailure(Throwable cause) {
            super(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
    }
}
