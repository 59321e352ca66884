package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The kit's data a vendor layout copies from: every file under {@code schema/}, {@code grammar/} and {@code golden/}
 * (no part starting with '.', no {@code __pycache__}, as contract/vendoring/layout.py lists them), by its POSIX name,
 * in Python's order. The jar carries them under {@link VendorCheck#DATA} with their list, {@link #INDEX} (written by
 * the build, {@link LockWriter}), since a class path cannot be listed.
 */
public final class KitData {
    /** The list of the jar's kit files, one name a line, beside the lock. */
    public static final String INDEX = "kit-files.txt";
    static final List<String> TREES = List.of("schema", "grammar", "golden");

    private final List<String> files;
    private final Path root;  // null: the class path

    private KitData(List<String> files, Path root) {
        this.files = List.copyOf(files);
        this.root = root;
    }

    /** The kit this jar carries. */
    public static KitData classPath() throws IOException {
        String text = new String(resource(INDEX), StandardCharsets.UTF_8);
        return new KitData(text.isEmpty() ? List.of() : List.of(text.split("\n")), null);
    }

    /** The bytes of the jar's data file {@code name} (relative to {@link VendorCheck#DATA}). */
    static byte[] resource(String name) throws IOException {
        try (InputStream in = KitData.class.getClassLoader().getResourceAsStream(VendorCheck.DATA + name)) {
            if (in == null) {
                throw new IOException("the jar has no " + VendorCheck.DATA + name);
            }
            return in.readAllBytes();
        }
    }

    /** The jar's JSON data file {@code name}, for the jar's own use (a broken jar is an IllegalStateException). */
    static Object json(String name) {
        try {
            return Json.parseUtf8(resource(name));
        } catch (IOException | Json.JsonException ex) {
            throw new IllegalStateException(VendorCheck.DATA + name + ": " + ex.getMessage(), ex);
        }
    }

    /** The kit data in a directory holding schema/, grammar/ and golden/ (a checkout, or the build's copy). */
    public static KitData directory(Path root) throws IOException {
        return new KitData(filesUnder(root, TREES), root);
    }

    /** Every regular file under {@code trees} of {@code root} as a POSIX name, sorted as Python sorts strings, none
     * with a part starting with '.' or named {@code __pycache__} (the kit's rule for its data, vendored or not). */
    static List<String> filesUnder(Path root, List<String> trees) throws IOException {
        List<String> found = new ArrayList<>();
        for (String tree : trees) {
            Path directory = root.resolve(tree);
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(directory)) {
                walk.filter(Files::isRegularFile).map(p -> Lock.posix(root.relativize(p)))
                    .filter(KitData::wanted).forEach(found::add);
            }
        }
        found.sort(SchemaSubset::codePointCompare);
        return found;
    }

    private static boolean wanted(String relative) {
        for (String part : relative.split("/")) {
            if (part.startsWith(".") || part.equals("__pycache__")) {
                return false;
            }
        }
        return true;
    }

    /** Every file's name, sorted as Python sorts strings. */
    public List<String> files() {
        return files;
    }

    /** The bytes of one of {@link #files()}. */
    public byte[] read(String name) throws IOException {
        if (!files.contains(name)) {
            throw new IOException("the kit has no " + name);
        }
        return root != null ? Files.readAllBytes(root.resolve(name)) : resource(name);
    }

    /** The index the build writes: every name and a final newline. */
    String index() {
        StringBuilder out = new StringBuilder();
        for (String name : files) {
            if (name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) {
                throw new IllegalStateException("a kit file name holds a line break: " + name);
            }
            out.append(name).append('\n');
        }
        return out.toString();
    }
}
