// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

/** Opens an ONNX graph with the onnxruntime the engine depends on (by reflection: a run-time dependency only). */
final class Onnx {
    private Onnx() {}

    static AutoCloseable open(String graph) throws Scala.Missing {
        Class<?> environmentType = Scala.type("ai.onnxruntime.OrtEnvironment");
        Class<?> optionsType = Scala.type("ai.onnxruntime.OrtSession$SessionOptions");
        try {
            Object environment = environmentType.getMethod("getEnvironment").invoke(null);
            Object options = optionsType.getConstructor().newInstance();
            Object session = environmentType.getMethod("createSession", String.class, optionsType)
                    .invoke(environment, graph, options);
            return (AutoCloseable) session;
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException("onnxruntime could not open the graph: " + cause.getMessage(), cause);
        } catch (ReflectiveOperationException e) {
            throw new Scala.Missing("onnxruntime on the classpath lacks " + e.getMessage());
        }
    }
}
