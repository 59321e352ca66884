// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The kit's adapter protocol (schema/adapter-protocol.schema.json) answered by the engine's own code: one JSON
 * request per line on stdin, one JSON answer per line on stdout, in order, echoing the id; it exits when stdin
 * closes. A kind the engine on the classpath cannot answer is {@code unsupported}; anything the engine throws
 * is an {@code error} answer, never a crash.
 */
public final class EngineAdapter {
    private final Features features = new Features();

    public static void main(String[] args) throws Exception {
        EngineAdapter adapter = new EngineAdapter();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            out.println(adapter.answer(line));
            out.flush();
        }
    }

    String answer(String line) {
        JsonObject request;
        try {
            JsonElement parsed = JsonParser.parseString(line);
            if (!parsed.isJsonObject() || !parsed.getAsJsonObject().has("id")
                    || !parsed.getAsJsonObject().get("id").isJsonPrimitive()) {
                return reply("?", "error", "message", "request is not an object with a string id").toString();
            }
            request = parsed.getAsJsonObject();
        } catch (JsonParseException e) {
            return reply("?", "error", "message", "request is not JSON: " + e.getMessage()).toString();
        }
        String id = request.get("id").getAsString();
        try {
            return answer(id, request).toString();
        } catch (Scala.Missing e) {
            return reply(id, "unsupported", "message", e.getMessage()).toString();
        } catch (RuntimeException | LinkageError e) {
            return reply(id, "error", "message", e.getClass().getSimpleName() + ": " + e.getMessage()).toString();
        } catch (Exception e) {
            return reply(id, "error", "message", e.getClass().getSimpleName() + ": " + e.getMessage()).toString();
        }
    }

    private JsonObject answer(String id, JsonObject request) throws Exception {
        String kind = text(request, "kind");
        switch (kind == null ? "" : kind) {
            case "engine-compatibility": {
                Models.Verdict verdict = Models.compatibility(text(request, "constraint"), text(request, "engineVersion"));
                JsonObject out = reply(id, "ok", "outcome", verdict.outcome());
                out.addProperty("message", verdict.message());
                return out;
            }
            case "manifest": {
                Models.Verdict verdict = Models.manifest(text(request, "manifest"), text(request, "engineVersion"),
                        text(request, "expectedRole"));
                return verdict(id, verdict);
            }
            case "tensor-contract":
                return verdict(id, Models.tensorContract(text(request, "graph"), text(request, "manifest")));
            case "features": {
                float[] vector = features.extract(text(request, "schemaId"), text(request, "fen"), text(request, "side"));
                JsonArray values = new JsonArray();
                for (float value : vector) {
                    if (!Float.isFinite(value)) {
                        throw new IllegalStateException("the engine's vector holds a non-finite value " + value);
                    }
                    values.add((double) value); // exact: parses back to the same float32
                }
                JsonObject out = reply(id, "ok", null, null);
                out.add("vector", values);
                return out;
            }
            default:
                return reply(id, "unsupported", "message", "kind " + kind);
        }
    }

    private static JsonObject verdict(String id, Models.Verdict verdict) {
        JsonObject out = reply(id, "ok", "verdict", verdict.outcome());
        out.addProperty("message", verdict.message());
        return out;
    }

    private static JsonObject reply(String id, String status, String key, String value) {
        JsonObject out = new JsonObject();
        out.addProperty("id", id);
        out.addProperty("status", status);
        if (key != null) {
            out.addProperty(key, value);
        }
        return out;
    }

    private static String text(JsonObject request, String key) {
        JsonElement value = request.get(key);
        if (value == null || value.isJsonNull()) {
            return null;
        }
        if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
            throw new IllegalArgumentException("field '" + key + "' must be a string");
        }
        return value.getAsString();
    }
}
