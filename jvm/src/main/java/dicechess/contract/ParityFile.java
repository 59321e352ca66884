package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parity file ({@code golden/fixtures/synthetic_kcp13_value_parity.json}, the engine's format,
 * {@code schema/parity.schema.json}): kcp-13 feature rows and the outputs onnxruntime gave for them. Read as the
 * Python kit reads it (its strict JSON reader, then every error of the parity schema, ordered by where it is and
 * worded as {@code golden check} words them: {@code FILE: WHERE: MESSAGE (schema/parity.schema.json)}); then what it
 * says is checked against the kit this jar carries: each probe's FEN and features are the kit's kcp-13 golden vector
 * of that id, bit for bit (the parity rows are those vectors), and the graph it names, when it lies beside the file,
 * has the SHA-256 it states. A format 1.1 file declares the absolute tolerance its outputs are to be compared with
 * ({@link Reading#tolerance()}, {@link Tolerance#agrees}); a file without one (the engine's, format 1.0) reads as
 * before, its tolerance null. The outputs are not recomputed: the jar runs no ONNX model (the engine's
 * {@code Kcp13ParitySpec} and the kit's Python tests do that). A file larger than 64 MiB is refused unread.
 */
public final class ParityFile {
    /** The parity file the jar carries. */
    public static final String KIT_FILE = "golden/fixtures/synthetic_kcp13_value_parity.json";
    static final String SCHEMA = "schema/parity.schema.json";
    static final int MAX_BYTES = 64 * 1024 * 1024;
    private static final int MAX_MESSAGE = 300;

    /** One probe row: id, FEN, side, the 13 features as float32 and the output as the double it was written as. */
    public record Probe(String id, String fen, String side, float[] features, double output) {
    }

    /** One measurement the tolerance rests on: the runtime that scored the rows, whose recorded outputs it was compared
     * with, and the largest absolute difference seen. */
    public record Measurement(String runtime, String comparedWith, double maxAbsoluteDifference) {
    }

    /** The tolerance a format 1.1 file declares for its probes' outputs: absolute ({@code text}: as written), why, and
     * the measurements it rests on. */
    public record Tolerance(double absolute, String text, String reason, List<Measurement> measuredOn) {
        /** Whether {@code actual} agrees with the recorded {@code output}: {@code |actual - output| <= absolute}. */
        public boolean agrees(double actual, double output) {
            return Math.abs(actual - output) <= absolute;
        }
    }

    /** What the file says (null when it is not a parity file) and every problem found (none: it holds).
     * {@code formatVersion}: the file's, {@code 1.0.0} for a file without one (the engine's format);
     * {@code tolerance}: the output tolerance it declares, null when it declares none (format 1.0). */
    public record Reading(String model, String modelSha256, boolean modelChecked, List<Probe> probes,
                          List<String> problems, String formatVersion, Tolerance tolerance) {
        public boolean holds() {
            return problems.isEmpty();
        }
    }

    /** The version a parity file without {@code formatVersion} is: the engine's format (formatversion.UNVERSIONED). */
    public static final String UNVERSIONED = "1.0.0";
    /** The major of the parity format the jar reads (formatversion.VERSIONS["parity"]). */
    public static final int MAJOR = 1;
    private static final java.util.regex.Pattern SEMVER =
        java.util.regex.Pattern.compile("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)");

    private ParityFile() {
    }

    /** The jar's own parity file, read and checked. */
    public static Reading load() throws IOException {
        return read(KIT_FILE, KitData.resource(KIT_FILE), null);
    }

    /** {@code file} read and checked ({@code shown}: its name in every problem); its model is looked for beside it. */
    public static Reading read(Path file, String shown) {
        byte[] data;
        try (InputStream in = Files.newInputStream(file)) {
            data = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException ex) {
            return refused(shown + ": cannot be read (" + (ex.getMessage() == null ? ex.getClass().getSimpleName()
                : ex.getMessage()) + ")");
        }
        if (data.length > MAX_BYTES) {
            return refused(shown + ": larger than " + MAX_BYTES + " bytes");
        }
        return read(shown, data, file.toAbsolutePath().getParent());
    }

    /** {@code data} read as a parity file named {@code shown}; {@code beside}: where its model may lie (null: not
     * looked for). */
    static Reading read(String shown, byte[] data, Path beside) {
        Object document;
        try {
            document = Json.parseUtf8(data);
        } catch (Json.JsonException ex) {
            return refused(shown + ": " + ex.getMessage());
        }
        String unread = versionProblem(document);
        if (unread != null) { // said plainly, before the schema's pattern says it less clearly (as golden check)
            return refused(shown + ": " + unread);
        }
        Object schema = KitData.json(SCHEMA);
        List<String> problems = new ArrayList<>();
        for (SchemaSubset.Error error : SchemaSubset.sorted(SchemaSubset.errors((Map<?, ?>) schema, document))) {
            StringBuilder where = new StringBuilder();
            for (Object part : error.path()) {
                where.append(where.length() > 0 ? "/" : "").append(part);
            }
            String message = error.message();
            if (message.codePointCount(0, message.length()) > MAX_MESSAGE) {
                message = message.substring(0, message.offsetByCodePoints(0, MAX_MESSAGE));
            }
            problems.add(shown + ": " + (where.length() == 0 ? "(top level)" : where) + ": " + message + " (" + SCHEMA
                + ")");
        }
        if (!problems.isEmpty()) {
            return new Reading(null, null, false, List.of(), List.copyOf(problems), null, null);
        }
        Map<?, ?> doc = (Map<?, ?>) document;
        List<Probe> probes = new ArrayList<>();
        for (Object item : (List<?>) doc.get("probes")) {
            Map<?, ?> entry = (Map<?, ?>) item;
            List<?> values = (List<?>) entry.get("features");
            float[] features = new float[values.size()];
            for (int i = 0; i < features.length; i++) {
                features[i] = ((Json.Number) values.get(i)).float32();
            }
            probes.add(new Probe((String) entry.get("id"), (String) entry.get("fen"), (String) entry.get("side"),
                features, Double.parseDouble(((Json.Number) entry.get("output")).text())));
        }
        String model = (String) doc.get("model");
        String digest = (String) doc.get("modelSha256");
        problems.addAll(againstTheKit(shown, probes));
        boolean checked = false;
        if (beside != null) {
            Path graph = beside.resolve(model);
            if (Files.isRegularFile(graph, LinkOption.NOFOLLOW_LINKS)) {
                checked = true;
                try {
                    String actual = Lock.sha256(graph);
                    if (!actual.equals(digest)) {
                        problems.add(shown + ": its model " + model + " has SHA-256 " + actual + ", the file says "
                            + digest);
                    }
                } catch (IOException ex) {
                    problems.add(shown + ": its model " + model + " cannot be read (" + ex.getMessage() + ")");
                }
            }
        }
        Object version = doc.get("formatVersion");
        return new Reading(model, digest, checked, List.copyOf(probes), List.copyOf(problems),
            version == null ? UNVERSIONED : (String) version, tolerance(doc.get("tolerance")));
    }

    /** Why the file's {@code formatVersion} is not one the jar reads (null: none, or one of major {@link #MAJOR}), in
     * the words of the Python kit's {@code contract.core.formatversion}. */
    private static String versionProblem(Object document) {
        Object found = document instanceof Map<?, ?> map ? map.get("formatVersion") : null;
        if (found == null) {
            return null; // the engine's format, 1.0.0
        }
        if (!(found instanceof String text)) {
            return "formatVersion " + PyRepr.repr(found) + " is not a string";
        }
        if (!SEMVER.matcher(text).matches()) {
            return "formatVersion " + PyRepr.repr(found) + " is not a MAJOR.MINOR.PATCH version";
        }
        if (!text.startsWith(MAJOR + ".")) {
            return "formatVersion " + text + " is not one this kit reads: it reads parity format " + MAJOR
                + ".x (docs/versioning.md)";
        }
        return null;
    }

    /** The declared output tolerance (the schema has checked its shape), or null when the file declares none. */
    private static Tolerance tolerance(Object declared) {
        if (declared == null) {
            return null;
        }
        Map<?, ?> output = (Map<?, ?>) ((Map<?, ?>) declared).get("output");
        List<Measurement> measured = new ArrayList<>();
        for (Object item : (List<?>) output.get("measuredOn")) {
            Map<?, ?> entry = (Map<?, ?>) item;
            measured.add(new Measurement((String) entry.get("runtime"), (String) entry.get("comparedWith"),
                Double.parseDouble(((Json.Number) entry.get("maxAbsoluteDifference")).text())));
        }
        String text = ((Json.Number) output.get("absolute")).text();
        return new Tolerance(Double.parseDouble(text), text, (String) output.get("reason"), List.copyOf(measured));
    }

    /** Each probe whose FEN, side or a feature is not the kit's kcp-13 golden vector of that id, bit for bit. */
    private static List<String> againstTheKit(String shown, List<Probe> probes) {
        GoldenVectors.VectorFile kit;
        try {
            kit = GoldenVectors.load("kcp-13");
        } catch (GoldenVectors.VectorException ex) {
            return List.of(shown + ": the jar's kcp-13 vectors cannot be read (" + ex.getMessage() + ")");
        }
        List<String> problems = new ArrayList<>();
        for (Probe probe : probes) {
            GoldenVectors.Probe mine;
            try {
                mine = kit.probe(probe.id());
            } catch (RuntimeException ex) {
                mine = null;
            }
            String where = shown + ": probe " + Messages.consoleText(probe.id()) + ": ";
            if (mine == null) {
                problems.add(where + "not one of the kit's kcp-13 probes");
                continue;
            }
            if (!mine.fen().equals(probe.fen()) || !mine.side().equals(probe.side())) {
                problems.add(where + "its FEN and side are not the kit's probe's (" + Messages.consoleText(mine.fen())
                    + ", " + mine.side() + ")");
                continue;
            }
            for (int i = 0; i < probe.features().length; i++) {
                int theirs = Float.floatToRawIntBits(probe.features()[i]);
                int ours = Float.floatToRawIntBits(mine.features()[i]);
                if (theirs != ours) {
                    problems.add(where + "column " + kit.columns().get(i) + ": the file has "
                        + String.format("%08x", theirs) + ", the kit's kcp-13 vector " + String.format("%08x", ours));
                }
            }
        }
        return problems;
    }

    private static Reading refused(String problem) {
        return new Reading(null, null, false, List.of(), List.of(problem), null, null);
    }
}
