package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code vendor --check DIR} in Java: a vendored copy against its own lock and against the kit this jar carries. The
 * messages are the Python kit's (contract/core/vendoring.py, contract/cli/vendor.py), with this jar's kit version.
 */
public final class VendorCheck {
    /** Where the jar keeps the kit's files and their lock. */
    public static final String DATA = "dicechess-contract/";

    /** One problem of one file of the copy. */
    public record Problem(String file, String problem) {
    }

    /** Why the copy cannot be checked at all (one line), or the problems found (none: it matches). */
    public record Outcome(String refusal, List<Problem> problems) {
        public boolean matches() {
            return refusal == null && problems.isEmpty();
        }
    }

    private VendorCheck() {
    }

    /** The lock of the kit this jar carries. */
    public static Lock kitLock() throws IOException {
        String name = DATA + Lock.LOCK_NAME;
        try (InputStream in = VendorCheck.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("the jar has no " + name);
            }
            Object lock = parseLock(Path.of(name), in.readNBytes((int) Lock.MAX_LOCK_BYTES + 1));
            if (lock instanceof String refusal) {
                throw new IOException(refusal);
            }
            return (Lock) lock;
        }
    }

    /** The copy in {@code directory} checked against {@code kit}. */
    public static Outcome check(Path directory, Lock kit) {
        if (!Files.isDirectory(directory)) {
            return new Outcome(directory + ": no such directory", List.of());
        }
        Object read = readLock(directory);
        if (read instanceof String refusal) {
            return new Outcome(refusal, List.of());
        }
        Map<String, String> locked = ((Lock) read).files();
        Map<String, String> shipped = kit.files();
        String version = kit.kitVersion();
        TreeSet<String> names = new TreeSet<>(locked.keySet());
        names.addAll(shipped.keySet());
        List<Problem> problems = new ArrayList<>();
        for (String name : names) {
            if (!locked.containsKey(name)) {
                problems.add(new Problem(name, "missing (the installed kit " + version + " ships it; run vendor again)"));
                continue;
            }
            if (!inside(name)) {
                problems.add(new Problem(name, "not a path inside the vendored copy (refused, not read)"));
                continue;
            }
            Path path = directory.resolve(name);
            if (!Files.isRegularFile(path)) {
                problems.add(new Problem(name, "missing"));
                continue;
            }
            String actual;
            try {
                actual = Lock.sha256(path);
            } catch (IOException ex) {
                problems.add(new Problem(name, "cannot be read (" + ex.getMessage() + ")"));
                continue;
            }
            if (!actual.equals(locked.get(name))) {
                problems.add(new Problem(name, "edited (its SHA-256 is not the one in " + Lock.LOCK_NAME + ")"));
            } else if (!shipped.containsKey(name)) {
                problems.add(new Problem(name, "not in the installed kit " + version + " any more (run vendor again)"));
            } else if (!shipped.get(name).equals(locked.get(name))) {
                problems.add(new Problem(name, "differs from the installed kit " + version + "'s (run vendor again)"));
            }
        }
        return new Outcome(null, problems);
    }

    /** A lock path names a file below the copy: relative, no empty, '.' or '..' part, no backslash or NUL. */
    static boolean inside(String name) {
        if (name.isEmpty() || name.startsWith("/") || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0
                || name.matches("^[A-Za-z]:.*")) {
            return false;
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** The copy's lock, or why it cannot be used (one line). */
    static Object readLock(Path directory) {
        Path lock = directory.resolve(Lock.LOCK_NAME);
        byte[] data;
        try (InputStream in = Files.newInputStream(lock)) {
            data = in.readNBytes((int) Lock.MAX_LOCK_BYTES + 1);
        } catch (NoSuchFileException ex) {
            return directory + " is not a vendored copy of the contract: it has no " + Lock.LOCK_NAME;
        } catch (IOException ex) {
            return lock + ": cannot be read as a lock file (" + ex.getMessage() + ")";
        }
        return parseLock(lock, data);
    }

    static Object parseLock(Path lock, byte[] data) {
        if (data.length > Lock.MAX_LOCK_BYTES) {
            return lock + ": cannot be read as a lock file (larger than " + Lock.MAX_LOCK_BYTES + " bytes)";
        }
        Object document;
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(data)).toString();
            document = Json.parse(text);
        } catch (CharacterCodingException ex) {
            return lock + ": cannot be read as a lock file (not UTF-8)";
        } catch (Json.JsonException ex) {
            return lock + ": cannot be read as a lock file (" + ex.getMessage() + ")";
        }
        Object files = document instanceof Map<?, ?> map ? map.get("files") : null;
        if (!(files instanceof Map<?, ?> digests) || !digests.values().stream().allMatch(v -> v instanceof String)) {
            return lock + ": not a dicechess-contract lock file (no \"files\" object of digests)";
        }
        Map<?, ?> doc = (Map<?, ?>) document;
        Object version = doc.get("lockVersion");
        if (!(version instanceof Json.Number n) || !n.text().equals(String.valueOf(Lock.LOCK_VERSION))) {
            String shown = version instanceof Json.Number n ? n.text() : version instanceof String s ? "'" + s + "'"
                : String.valueOf(version);
            return lock + ": lockVersion " + shown + " is not one this kit reads (it reads lockVersion "
                + Lock.LOCK_VERSION + ")";
        }
        @SuppressWarnings("unchecked")
        Map<String, String> typed = (Map<String, String>) digests;
        Object kitVersion = doc.get("kitVersion");
        return new Lock(Lock.LOCK_VERSION, Lock.KIT, kitVersion instanceof String s ? s : "", Map.of(), typed);
    }
}
