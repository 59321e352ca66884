package dicechess.contract;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A vendor layout recorded in a lock ({@code lockVersion 2}, written by {@code dicechess-contract vendor --layout}):
 * which kit files went where. Read, checked and planned as contract/vendoring/layout.py does, with the texts of
 * {@code schema/vendor-messages.json}: the document against {@code schema/vendor-layout-1.schema.json} (read from the
 * jar), every target name a plain relative name, then each entry's kit files ({@code from}, one {@code *} matching a
 * run of characters without '/'), and for {@code probesOf} the rows of a probe table whose id is a probe of that
 * vector file.
 */
public record Layout(String name, Map<?, ?> document) {
    /** One file a layout writes: its name under the copy, the kit file it comes from, an optional row filter. */
    record Planned(String name, String source, String probesOf) {
    }

    private static Map<?, ?> schema;

    private static synchronized Map<?, ?> schema() {
        if (schema == null) {
            schema = (Map<?, ?>) KitData.json("schema/vendor-layout-1.schema.json");
        }
        return schema;
    }

    /** The layout a lock records, or the one line that refuses it (as the Python kit's recorded_layout). */
    static Object recorded(Object document, String lock) {
        String invalid = invalid(document);
        return invalid == null ? new Layout(String.valueOf(((Map<?, ?>) document).get("name")), (Map<?, ?>) document)
            : Messages.say("lock.layout", "lock", lock, "reason", invalid);
    }

    /** Why {@code document} is not a layout (the "layout.invalid" or "layout.target" text), or null. */
    private static String invalid(Object document) {
        SchemaSubset.Error error = SchemaSubset.first(SchemaSubset.errors(schema(), document));
        if (error != null) {
            return Messages.say("layout.invalid", "path", "layout", "reason", error.pointer() + ": " + error.message());
        }
        List<?> files = (List<?>) ((Map<?, ?>) document).get("files");
        for (int index = 0; index < files.size(); index++) {
            String to = (String) ((Map<?, ?>) files.get(index)).get("to");
            String problem = VendorCheck.nameProblem(to.replace("*", "x"));
            if (problem != null) {
                return Messages.say("layout.target", "path", "layout", "name", to, "entry", index, "reason", problem);
            }
        }
        return null;
    }

    /** The files this layout writes from {@code kit}, sorted by name, or the one line that refuses it. */
    Object plan(KitData kit) {
        String where = "layout";
        Set<String> every = new HashSet<>(kit.files());
        Map<String, Planned> planned = new TreeMap<>(SchemaSubset::codePointCompare);
        Set<String> copied = new HashSet<>();  // each kit file at most once: a plan is at most the kit
        List<?> files = (List<?>) document.get("files");
        for (int index = 0; index < files.size(); index++) {
            Map<?, ?> entry = (Map<?, ?>) files.get(index);
            String source = (String) entry.get("from");
            String target = (String) entry.get("to");
            String probesOf = (String) entry.get("probesOf");
            int stars = count(source);
            if (stars != count(target) || stars > 1) {
                return Messages.say("layout.pattern", "path", where, "entry", index, "reason",
                    "\"from\" and \"to\" must hold the same single '*' or none");
            }
            Map<String, String> found = new LinkedHashMap<>();
            if (stars == 1) {
                Pattern matcher = pattern(source);
                for (String name : kit.files()) {
                    Matcher m = matcher.matcher(name);
                    if (m.matches()) {
                        found.put(name, target.replace("*", m.group(1)));
                    }
                }
                if (found.isEmpty()) {
                    return Messages.say("layout.nothing", "path", where, "entry", index, "source", source);
                }
            } else if (every.contains(source)) {
                found.put(source, target);
            } else {
                return Messages.say("layout.source", "path", where, "entry", index, "source", source);
            }
            if (probesOf != null && (found.size() != 1 || !every.contains(probesOf))) {
                return Messages.say("layout.probesOf", "path", where, "entry", index, "reason",
                    "probesOf " + probesOf + " must be a kit file and \"from\" one file");
            }
            for (Map.Entry<String, String> file : found.entrySet()) {
                String written = file.getValue();
                String problem = VendorCheck.nameProblem(written);
                if (problem != null) {
                    return Messages.say("layout.target", "path", where, "name", written, "entry", index, "reason",
                        problem);
                }
                if (planned.containsKey(written)) {
                    return Messages.say("layout.twice", "path", where, "name", written);
                }
                if (!copied.add(file.getKey())) {
                    return Messages.say("layout.sourceTwice", "path", where, "entry", index, "source", file.getKey());
                }
                Planned item = new Planned(written, file.getKey(), probesOf);
                planned.put(written, item);
                if (probesOf != null) {
                    try {
                        bytes(item, kit);
                    } catch (IllegalArgumentException ex) {
                        return Messages.say("layout.probesOf", "path", where, "entry", index, "reason",
                            ex.getMessage());
                    } catch (IOException ex) {
                        throw new IllegalStateException(ex);
                    }
                }
            }
        }
        Map<String, String> folded = new java.util.HashMap<>();
        for (String name : planned.keySet()) {  // every file and directory on the way, by case-folded name
            String[] parts = name.split("/", -1);
            for (int depth = 1; depth <= parts.length; depth++) {
                String prefix = String.join("/", java.util.Arrays.copyOfRange(parts, 0, depth));
                String other = folded.putIfAbsent(fold(prefix), prefix);
                if (other != null && !other.equals(prefix)) {
                    return Messages.say("layout.caseTwins", "path", where, "name", other, "other", prefix);
                }
            }
        }
        for (String name : planned.keySet()) {
            String[] folders = name.split("/", -1);
            StringBuilder folder = new StringBuilder();
            for (int depth = 0; depth < folders.length - 1; depth++) {
                folder.append(depth == 0 ? "" : "/").append(folders[depth]);
                if (planned.containsKey(folder.toString())) {
                    return Messages.say("layout.fileAndDirectory", "path", where, "name", folder.toString(),
                        "inside", name);
                }
            }
        }
        return List.copyOf(planned.values());
    }

    /** A name compared without case, as Python's {@code str.casefold} compares ASCII and most letters. */
    private static String fold(String name) {
        return name.toUpperCase(java.util.Locale.ROOT).toLowerCase(java.util.Locale.ROOT);
    }

    /** Each planned file's SHA-256, by name: what the installed kit would write with this layout. */
    static Map<String, String> digests(List<Planned> planned, KitData kit) throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        for (Planned item : planned) {
            try {
                digests.put(item.name(), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(bytes(item, kit))));
            } catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException(ex);
            }
        }
        return digests;
    }

    /** The bytes {@code item} writes: the kit file, or only the header and the rows of its probes. */
    static byte[] bytes(Planned item, KitData kit) throws IOException {
        byte[] data = kit.read(item.source());
        if (item.probesOf() == null) {
            return data;
        }
        Set<String> ids = probeIds(kit.read(item.probesOf()));
        List<String> lines;
        try {
            lines = splitLines(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString());
        } catch (CharacterCodingException ex) {
            lines = List.of();
        }
        if (ids == null || lines.isEmpty()) {
            throw new IllegalArgumentException(item.probesOf() + " or " + item.source() + " is not what probesOf reads");
        }
        StringBuilder out = new StringBuilder(lines.get(0));
        int kept = 0;
        for (String line : lines.subList(1, lines.size())) {
            int tab = line.indexOf('\t');
            if (ids.contains(tab < 0 ? line : line.substring(0, tab))) {
                out.append(line);
                kept++;
            }
        }
        if (kept != ids.size()) {
            throw new IllegalArgumentException(item.source() + " does not hold every probe of " + item.probesOf()
                + " exactly once");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The ids of a vector file's probes, or null when it is not JSON with a probes list. */
    private static Set<String> probeIds(byte[] data) {
        Object document;
        try {
            document = Json.parseUtf8(data);
        } catch (Json.JsonException ex) {
            return null;
        }
        if (!(document instanceof Map<?, ?> map) || !(map.get("probes") instanceof List<?> probes)) {
            return null;
        }
        Set<String> ids = new HashSet<>();
        for (Object probe : probes) {
            if (probe instanceof Map<?, ?> p && p.get("id") instanceof String id) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Python's {@code str.splitlines(keepends=True)}: every line with its ending, at each of Python's breaks. */
    static List<String> splitLines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean crlf = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
            if (c == '\n' || c == '\r' || c == '\u000b' || c == '\u000c' || c == '\u001c' || c == '\u001d'
                    || c == '\u001e' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                int end = crlf ? i + 2 : i + 1;
                lines.add(text.substring(start, end));
                start = end;
                i = end - 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    private static int count(String text) {
        return (int) text.chars().filter(c -> c == '*').count();
    }

    private static Pattern pattern(String text) {
        int star = text.indexOf('*');
        return Pattern.compile(Pattern.quote(text.substring(0, star)) + "([^/]+)"
            + Pattern.quote(text.substring(star + 1)));
    }
}
