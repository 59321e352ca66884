package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The golden vectors ({@code golden/vectors/<schema>.json}) as float32 arrays: from this jar ({@link #load}) or from a
 * file ({@link #read}). A value is read as the kit reads it — the JSON number as a double, then rounded to float32 —
 * so every value is the kit's bit for bit. A file that is not such a vector file raises {@link VectorException}
 * naming the file and the problem.
 */
public final class GoldenVectors {
    /** A vector file larger than this is refused unread. */
    public static final int MAX_BYTES = 64 * 1024 * 1024;

    /** One probe: its id, FEN, side ({@code w} or {@code b}) and vector. */
    public record Probe(String id, String fen, String side, float[] features) {
    }

    /** One schema's vectors, in the file's probe order. */
    public record VectorFile(String schema, List<String> columns, List<Probe> probes) {
        /** The probe of that id. */
        public Probe probe(String id) {
            for (Probe probe : probes) {
                if (probe.id().equals(id)) {
                    return probe;
                }
            }
            throw new IllegalArgumentException(schema + ": no probe '" + id + "'");
        }

        /** probe id -> vector. */
        public Map<String, float[]> byId() {
            Map<String, float[]> map = new LinkedHashMap<>();
            probes.forEach(p -> map.put(p.id(), p.features()));
            return Collections.unmodifiableMap(map);
        }
    }

    /** A vector file that cannot be read as one. */
    public static final class VectorException extends Exception {
        private static final long serialVersionUID = 1L;

        VectorException(String message) {
            super(message);
        }
    }

    private GoldenVectors() {
    }

    /** The golden vectors of {@code schema} carried by this jar. */
    public static VectorFile load(String schema) throws VectorException {
        if (!schema.matches("[a-z0-9][a-z0-9-]*")) {
            throw new VectorException("'" + schema + "' is not a feature schema id");
        }
        String name = VendorCheck.DATA + "golden/vectors/" + schema + ".json";
        try (InputStream in = GoldenVectors.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new VectorException("no golden vectors for schema '" + schema + "' in this jar (" + name + ")");
            }
            return parse(name, in.readNBytes(MAX_BYTES + 1));
        } catch (IOException ex) {
            throw new VectorException(name + ": cannot be read (" + ex.getMessage() + ")");
        }
    }

    /** The vectors of one vector file on disk. */
    public static VectorFile read(Path file) throws VectorException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(file.toString(), in.readNBytes(MAX_BYTES + 1));
        } catch (IOException ex) {
            throw new VectorException(file + ": cannot be read (" + ex.getMessage() + ")");
        }
    }

    static VectorFile parse(String name, byte[] data) throws VectorException {
        if (data.length > MAX_BYTES) {
            throw new VectorException(name + ": larger than " + MAX_BYTES + " bytes");
        }
        Object doc;
        try {
            doc = Json.parseUtf8(data);
        } catch (Json.JsonException ex) {
            throw new VectorException(name + ": " + ex.getMessage());
        }
        String schema = field(doc, "schema", String.class, name);
        List<String> columns = new ArrayList<>();
        for (Object column : field(doc, "columns", List.class, name)) {
            if (!(column instanceof String s)) {
                throw new VectorException(name + ": columns must be strings");
            }
            columns.add(s);
        }
        List<Probe> probes = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<?> raw = field(doc, "probes", List.class, name);
        for (int i = 0; i < raw.size(); i++) {
            String id = field(raw.get(i), "id", String.class, name + ": probes[" + i + "]");
            String where = name + ": probe " + id;
            if (!seen.add(id)) {
                throw new VectorException(where + ": id appears twice");
            }
            List<?> values = field(raw.get(i), "features", List.class, where);
            if (values.size() != columns.size()) {
                throw new VectorException(where + ": " + values.size() + " features, the file has " + columns.size()
                    + " columns");
            }
            float[] features = new float[values.size()];
            for (int c = 0; c < features.length; c++) {
                if (!(values.get(c) instanceof Json.Number number)) {
                    throw new VectorException(where + " column " + columns.get(c) + ": "
                        + PyRepr.repr(values.get(c)) + " is not a number");
                }
                features[c] = number.float32();
                if (!Float.isFinite(features[c])) {
                    throw new VectorException(where + " column " + columns.get(c) + ": "
                        + PyRepr.repr(number) + " is not a finite float32");
                }
            }
            probes.add(new Probe(id, field(raw.get(i), "fen", String.class, where),
                field(raw.get(i), "side", String.class, where), features));
        }
        return new VectorFile(schema, List.copyOf(columns), List.copyOf(probes));
    }

    private static <T> T field(Object obj, String key, Class<T> kind, String where) throws VectorException {
        if (!(obj instanceof Map<?, ?> map) || !map.containsKey(key)) {
            throw new VectorException(where + ": missing field '" + key + "'");
        }
        Object value = map.get(key);
        if (!kind.isInstance(value)) {
            throw new VectorException(where + ": field '" + key + "' must be a " + kind.getSimpleName().toLowerCase());
        }
        return kind.cast(value);
    }
}
