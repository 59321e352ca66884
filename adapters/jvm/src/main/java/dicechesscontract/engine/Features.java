// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code features} kind: the engine's own DFEN parser ({@code FenParser.parse}) and the engine's own
 * extractor object for the requested schema, found by asking each extractor the engine ships for its
 * {@code schemaId}. A release without an extractor answers {@code unsupported} for that schema.
 */
final class Features {
    /** The extractor objects of {@code dicechess.engine.search} (schema/feature-schemas.json, engineExtractor). */
    static final String[] EXTRACTORS = {
        "OnnxFeatures", "RichFeatures", "RichPdiFeatures", "KcpFeatures",
        "KcpMobilityFeatures", "KcpMobilityPawnsFeatures", "RawBoardFeatures",
    };
    private static final String SEARCH = "dicechess.engine.search.";

    private final Map<String, Object> bySchema = new LinkedHashMap<>();

    Features() {
        for (String name : EXTRACTORS) {
            try {
                Object extractor = Scala.module(SEARCH + name);
                Object id = Scala.call(extractor, "schemaId", new Class<?>[0]);
                bySchema.put(String.valueOf(id), extractor);
            } catch (Scala.Missing missing) {
                // this release has no such extractor: its schema is answered unsupported
            }
        }
    }

    Map<String, Object> extractors() {
        return bySchema;
    }

    /** The engine's state for a DFEN text (refused texts raise IllegalArgumentException with its message). */
    static Object parse(String fen) throws Scala.Missing {
        Object parser = Scala.module("dicechess.engine.domain.FenParser");
        Scala.Outcome parsed = Scala.either(Scala.call(parser, "parse", new Class<?>[] {String.class}, fen));
        if (!parsed.ok()) {
            throw new IllegalArgumentException("the engine's FenParser refused the DFEN: " + parsed.error());
        }
        return parsed.value();
    }

    float[] extract(String schemaId, String fen, String side) throws Scala.Missing {
        Object extractor = bySchema.get(schemaId);
        if (extractor == null) {
            throw new Scala.Missing("the engine on the classpath has no extractor for feature schema '" + schemaId + "'");
        }
        return extract(extractor, parse(fen), side);
    }

    static float[] extract(Object extractor, Object state, String side) throws Scala.Missing {
        Method method = extractMethod(extractor);
        Object color = color(method.getParameterTypes()[1], side);
        Object row = Scala.call(extractor, "extract", method.getParameterTypes(), state, color);
        if (!(row instanceof float[] vector)) {
            throw new IllegalStateException("the engine's extractor returned " + row + ", not a float array");
        }
        return vector;
    }

    private static Method extractMethod(Object extractor) throws Scala.Missing {
        for (Method method : extractor.getClass().getMethods()) {
            if (method.getName().equals("extract") && method.getParameterCount() == 2
                    && method.getParameterTypes()[0].getName().equals("dicechess.engine.domain.GameState")) {
                return method;
            }
        }
        throw new Scala.Missing("the engine's " + extractor.getClass().getName() + " has no extract(GameState, Color)");
    }

    /** The engine's Color for "w"/"b": an opaque Int (White 0, Black 1) in the releases read, else Color.White/Black. */
    private static Object color(Class<?> type, String side) throws Scala.Missing {
        boolean white = side.equals("w");
        if (type == int.class) {
            return white ? 0 : 1;
        }
        Object companion = Scala.module("dicechess.engine.domain.Color");
        return Scala.call(companion, white ? "White" : "Black", new Class<?>[0]);
    }
}
