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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kit's adapter protocol (schema/adapter-protocol.schema.json) answered by the engine's own code: one JSON
 * request per line on stdin, one JSON answer per line on stdout, in order, echoing the id; it exits when stdin
 * closes. A kind the engine on the classpath cannot answer is {@code unsupported}; anything the engine throws
 * is an {@code error} answer, never a crash. A request whose {@code formatVersion} names a protocol major this
 * adapter does not speak is an {@code error} answer naming the version (docs/versioning.md).
 */
public final class EngineAdapter {
    /** The adapter-protocol major this adapter speaks; it answers every minor and patch of it and no other major. */
    static final String PROTOCOL_MAJOR = "1";
    private static final Pattern VERSION = Pattern.compile("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)");

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
        String version = protocolProblem(request);
        if (version != null) {
            return reply(id, "error", "message", "request: " + version).toString();
        }
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

    /** Why the request is not of the protocol major this adapter speaks, or null. */
    static String protocolProblem(JsonObject request) {
        JsonElement found = request.get("formatVersion");
        if (found == null || found.isJsonNull()) {
            return "no formatVersion (this adapter speaks adapter-protocol format " + PROTOCOL_MAJOR + ".x)";
        }
        Matcher version = found.isJsonPrimitive() && found.getAsJsonPrimitive().isString()
                ? VERSION.matcher(found.getAsString()) : null;
        if (version == null || !version.matches()) {
            return "formatVersion " + found + " is not a MAJOR.MINOR.PATCH version";
        }
        if (!version.group(1).equals(PROTOCOL_MAJOR)) {
            return "formatVersion " + found.getAsString() + " is not one this adapter speaks: it speaks adapter-protocol format "
                    + PROTOCOL_MAJOR + ".x (docs/versioning.md)";
        }
        return null;
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
