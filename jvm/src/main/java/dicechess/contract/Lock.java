package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lock file of a vendored copy ({@code dicechess-contract.lock.json}, {@code schema/vendor-lock-1.schema.json}):
 * the kit and its version, the contract versions and each vendored file's SHA-256 — the same document the Python
 * kit's {@code vendor} writes for the same files.
 */
public record Lock(int lockVersion, String kit, String kitVersion, Map<String, List<String>> contractVersions,
                   Map<String, String> files) {

    public static final String LOCK_NAME = "dicechess-contract.lock.json";
    public static final int LOCK_VERSION = 1;
    public static final String KIT = "dicechess-contract";
    /** What is vendored: these trees and files of the kit (contract/vendoring/files.py). */
    public static final List<String> VENDORED_TREES =
        List.of("schema", "grammar", "golden/vectors", "golden/fixtures", "golden/conformance");
    public static final List<String> VENDORED_FILES = List.of("golden/probes.json", "golden/probes.tsv");

    private static final Pattern NAMED_VERSION =
        Pattern.compile("^(?<name>.+?)-(?<version>[0-9]+(?:\\.[0-9]+)*)\\.schema\\.json$");
    private static final Pattern NUMERIC = Pattern.compile("[0-9]+(?:\\.[0-9]+)*");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    /** The lock of the vendored files under {@code root}, for a kit at {@code kitVersion}. */
    public static Lock compute(Path root, String kitVersion) throws IOException {
        List<String> names = contractFiles(root);
        Map<String, String> files = new LinkedHashMap<>();
        for (String name : names) {
            files.put(name, sha256(root.resolve(name)));
        }
        return new Lock(LOCK_VERSION, KIT, kitVersion, contractVersions(root, names), files);
    }

    /** Every vendored file under {@code root}, as sorted POSIX paths (hidden parts and __pycache__ left out). */
    public static List<String> contractFiles(Path root) throws IOException {
        List<String> found = new ArrayList<>(KitData.filesUnder(root, VENDORED_TREES));
        for (String name : VENDORED_FILES) {
            if (Files.isRegularFile(root.resolve(name))) {
                found.add(name);
            }
        }
        found.sort(SchemaSubset::codePointCompare);
        return found;
    }

    static String posix(Path relative) {
        return relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
    }

    /** Each versioned contract file family and its versions, oldest first. */
    static Map<String, List<String>> contractVersions(Path root, List<String> names) throws IOException {
        Map<String, TreeSet<String>> versions = new TreeMap<>();
        for (String name : names) {
            String file = name.substring(name.lastIndexOf('/') + 1);
            Matcher named = NAMED_VERSION.matcher(file);
            if (named.matches()) {
                versions.computeIfAbsent(named.group("name"), k -> new TreeSet<>()).add(named.group("version"));
                continue;
            }
            if (!file.endsWith(".json")) {
                continue;
            }
            Object document;
            try {
                document = Json.parse(Files.readString(root.resolve(name), StandardCharsets.UTF_8));
            } catch (Json.JsonException | IOException ex) {
                continue;
            }
            if (document instanceof Map<?, ?> map) {
                for (String key : List.of("version", "formatVersion")) {
                    Object value = map.get(key);
                    String text = value instanceof String s ? s
                        : value instanceof Json.Number n && INTEGER.matcher(n.text()).matches()
                            ? new java.math.BigInteger(n.text()).toString() : null;
                    if (text != null) {
                        versions.computeIfAbsent(file.substring(0, file.length() - ".json".length()),
                            k -> new TreeSet<>()).add(text);
                        break;
                    }
                }
            }
        }
        Map<String, List<String>> result = new LinkedHashMap<>();
        for (Map.Entry<String, TreeSet<String>> entry : versions.entrySet()) {
            List<String> sorted = new ArrayList<>(entry.getValue());
            sorted.sort(Lock::compareVersions);
            result.put(entry.getKey(), List.copyOf(sorted));
        }
        return result;
    }

    private static int compareVersions(String a, String b) {
        int[] x = versionKey(a);
        int[] y = versionKey(b);
        int order = java.util.Arrays.compare(x, y);
        return order != 0 ? order : a.compareTo(b);
    }

    private static int[] versionKey(String version) {
        if (!NUMERIC.matcher(version).matches()) {
            return new int[] {0};
        }
        return java.util.Arrays.stream(version.split("\\.")).mapToInt(Integer::parseInt).toArray();
    }

    /** The lowercase hex SHA-256 of a file, read as a stream. */
    public static String sha256(Path path) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The lock as the kit writes it: two-space indented JSON and a final newline. */
    public String toJson() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("lockVersion", lockVersion);
        doc.put("kit", kit);
        doc.put("kitVersion", kitVersion);
        doc.put("contractVersions", contractVersions);
        doc.put("files", files);
        return Json.write(doc) + "\n";
    }
}
