package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * {@code vendor --check DIR} in Java: a vendored copy against its own lock and against the kit this jar carries, in
 * the Python kit's order (contract/vendoring/vendored.py) and with its texts (schema/vendor-messages.json, this jar's
 * kit version). Nothing outside the copy is opened: every lock name must be a plain relative POSIX name, and a
 * symbolic link on the way to a file is named, never followed. A copy of the kit's own layout (lockVersion 1) is
 * compared with the jar's lock; a copy written with another layout ({@code vendor --layout}, lockVersion 2, the
 * layout recorded in its lock) with what that layout plans from the jar's kit data ({@link Layout}, {@link KitData}).
 */
public final class VendorCheck {
    /** Where the jar keeps the kit's files and their lock. */
    public static final String DATA = "dicechess-contract/";
    /** A lock larger than this is refused unread (the Python kit's limit). */
    public static final int MAX_LOCK_BYTES = 4 * 1024 * 1024;
    static final int MAX_NAME = 1024;
    /** A name segment longer than this in UTF-8 bytes is more than a file system holds (contract/vendoring/layout.py). */
    static final int MAX_SEGMENT_BYTES = 255;
    /** The lock of a copy written with a layout other than the kit's own. */
    static final int LAYOUT_LOCK_VERSION = 2;
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f-\\x9f]");

    /** One problem of one file of the copy: its lock name, a stable kind and the text printed. */
    public record Problem(String file, String kind, String problem) {
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
            Object lock = parseLock(name, in.readNBytes(MAX_LOCK_BYTES + 1), false);
            if (lock instanceof String refusal) {
                throw new IOException(refusal);
            }
            CopyLock read = (CopyLock) lock;
            if (read.layout() != null) {
                throw new IOException(name + ": the jar's own lock records a layout");
            }
            return new Lock(Lock.LOCK_VERSION, Lock.KIT, read.kitVersion(), Map.of(), read.files());
        }
    }

    /** A copy's lock as read: its files' digests and, for lockVersion 2, the layout it records (else null). */
    record CopyLock(String kitVersion, Map<String, String> files, Layout layout) {
    }

    /** The copy in {@code directory} checked against {@code kit} (a layout copy: the jar's kit data). */
    public static Outcome check(Path directory, Lock kit) {
        return check(directory, Main.pythonPath(directory.toString()), kit);
    }

    /** The same, with {@code shown} as the directory's name in every text. */
    public static Outcome check(Path directory, String shown, Lock kit) {
        return check(directory, shown, kit, null);
    }

    /** The same, a layout copy planned from {@code data} (null: the jar's kit data, read when first needed). */
    public static Outcome check(Path directory, String shown, Lock kit, KitData data) {
        if (Files.isSymbolicLink(directory)) {
            return refused(Messages.say("check.symlinkDirectory", "directory", shown));
        }
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return refused(Messages.say("check.noDirectory", "directory", shown));
        }
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return refused(Messages.say("check.notDirectory", "directory", shown));
        }
        Object read = readLock(directory, shown);
        if (read instanceof String refusal) {
            return refused(refusal);
        }
        CopyLock copy = (CopyLock) read;
        Map<String, String> locked = copy.files();
        Map<String, String> installed;
        try {
            installed = copy.layout() == null ? kit.files()
                : installed(copy.layout(), data == null ? KitData.classPath() : data);
        } catch (IOException ex) {
            throw new UncheckedIOException("the jar's kit data cannot be read", ex);
        }
        TreeSet<String> names = new TreeSet<>(SchemaSubset::codePointCompare);
        names.addAll(locked.keySet());
        names.addAll(installed.keySet());
        List<Problem> problems = new ArrayList<>();
        for (String name : names) {
            Problem problem = fileProblem(directory, shown, name, locked, installed, kit.kitVersion());
            if (problem != null) {
                problems.add(problem);
            }
        }
        return new Outcome(null, List.copyOf(problems));
    }

    private static Outcome refused(String message) {
        return new Outcome(message, List.of());
    }

    /** What the installed kit writes with {@code layout}: nothing when it cannot plan it any more (then every file
     * of the copy is "not in the installed kit"), as the Python kit's check does. */
    private static Map<String, String> installed(Layout layout, KitData data) throws IOException {
        Object planned = layout.plan(data);
        if (planned instanceof String) {
            return Map.of();
        }
        @SuppressWarnings("unchecked")
        List<Layout.Planned> files = (List<Layout.Planned>) planned;
        return Layout.digests(files, data);
    }

    private static Problem fileProblem(Path directory, String shown, String name, Map<String, String> locked,
                                       Map<String, String> kit, String version) {
        String[] found = pathProblem(directory, shown, name);
        if (found != null) {
            String kind = found[0];
            if (kind.equals("symlink") && !found[1].equals(Main.join(shown, name))) {
                return new Problem(name, "linkInPath", Messages.say("problem.linkInPath", "path", found[1]));
            }
            if (kind.equals("notDirectory")) {
                return new Problem(name, "missing", Messages.say("problem.missing"));
            }
            return new Problem(name, kind, Messages.say("problem." + kind));
        }
        if (!locked.containsKey(name)) {
            return new Problem(name, "missingFromLock", Messages.say("problem.missingFromLock", "version", version));
        }
        Path path = FileNames.child(directory, name);
        if (path == null || !Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return new Problem(name, "missing", Messages.say("problem.missing"));
        }
        String actual;
        try {
            actual = Lock.sha256(path);
        } catch (IOException ex) {
            return new Problem(name, "unreadable", Messages.say("problem.unreadable", "reason", reason(ex)));
        }
        if (!actual.equals(locked.get(name))) {
            return new Problem(name, "edited", Messages.say("problem.edited", "lock", Lock.LOCK_NAME));
        }
        if (!kit.containsKey(name)) {
            return new Problem(name, "notInKit", Messages.say("problem.notInKit", "version", version));
        }
        if (!kit.get(name).equals(locked.get(name))) {
            return new Problem(name, "differs", Messages.say("problem.differs", "version", version));
        }
        return null;
    }

    /** {kind, shown path} when the way to the file holds a link or a non-directory, or the file is a link or not
     * a regular file; null when it is absent or a regular file reached without a link. */
    private static String[] pathProblem(Path directory, String shown, String name) {
        Path current = directory;
        String where = shown;
        String[] parts = name.split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            current = FileNames.child(current, parts[i]);
            if (current == null) {
                return null;  // a name no file of the copy has (one the JVM cannot spell, not listed)
            }
            where = Main.join(where, parts[i]);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException ex) {
                return null;
            }
            boolean last = i == parts.length - 1;
            if (attributes.isSymbolicLink()) {
                return new String[] {"symlink", where};
            }
            if (!last && !attributes.isDirectory()) {
                return new String[] {"notDirectory", where};
            }
            if (last && !attributes.isRegularFile()) {
                return new String[] {"notRegular", where};
            }
        }
        return null;
    }

    /** Why a lock name is not a plain relative POSIX name strictly inside the copy (null: it is). */
    static String nameProblem(String name) {
        if (name.isEmpty()) {
            return Messages.say("name.empty");
        }
        if (name.codePointCount(0, name.length()) > MAX_NAME) {
            return Messages.say("name.tooLong", "limit", MAX_NAME);
        }
        if (hasLoneSurrogate(name)) {  // no file system can name it (Python cannot encode it to UTF-8)
            return Messages.say("name.notUnicode");
        }
        if (CONTROL.matcher(name).find()) {
            return Messages.say("name.control");
        }
        if (name.indexOf('\\') >= 0) {
            return Messages.say("name.backslash");
        }
        if (name.startsWith("/")) {
            return Messages.say("name.absolute");
        }
        String[] parts = name.split("/", -1);
        for (String part : parts) {
            if (part.equals(".") || part.equals("..")) {
                return Messages.say("name.dotSegment");
            }
        }
        for (String part : parts) {
            if (part.isEmpty()) {
                return Messages.say("name.emptySegment");
            }
        }
        for (String part : parts) {
            if (part.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
                return Messages.say("name.segmentTooLong", "limit", MAX_SEGMENT_BYTES);
            }
        }
        if (parts[0].equalsIgnoreCase(Lock.LOCK_NAME)) {  // the lock itself (in any case), or a directory in its place
            return Messages.say("name.lockName");
        }
        return null;
    }

    /** Whether a text holds a UTF-16 surrogate that is not half of a pair (a JSON {@code \\udcff} escape). */
    static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** The copy's lock, or why it cannot be used (one line). */
    static Object readLock(Path directory, String shown) {
        Path lock = directory.resolve(Lock.LOCK_NAME);
        String lockShown = Main.join(shown, Lock.LOCK_NAME);
        if (!Files.exists(lock, LinkOption.NOFOLLOW_LINKS)) {
            return Messages.say("lock.missing", "directory", shown, "lock", Lock.LOCK_NAME);
        }
        if (!Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS)) {
            return Messages.say("lock.notRegular", "lock", lockShown);
        }
        byte[] data;
        try (InputStream in = Files.newInputStream(lock, LinkOption.NOFOLLOW_LINKS)) {
            data = in.readNBytes(MAX_LOCK_BYTES + 1);
        } catch (IOException ex) {
            return Messages.say("lock.unreadable", "lock", lockShown, "reason", reason(ex));
        }
        return parseLock(lockShown, data, true);
    }

    static Object parseLock(String lock, byte[] data, boolean checkNames) {
        if (data.length > MAX_LOCK_BYTES) {
            return Messages.say("lock.tooLarge", "lock", lock, "limit", MAX_LOCK_BYTES);
        }
        Object document;
        try {
            document = Json.parseUtf8(data);
        } catch (Json.JsonException ex) {
            return Messages.say("lock.notJson", "lock", lock, "reason", ex.getMessage());
        }
        if (!(document instanceof Map<?, ?> doc)) {
            return Messages.say("lock.notObject", "lock", lock);
        }
        if (!Lock.KIT.equals(doc.get("kit"))) {
            return Messages.say("lock.kit", "lock", lock, "kit", cut(Json.dumps(doc.get("kit")), 200));
        }
        Object version = doc.get("lockVersion");
        // the integer 1 or 2 as JSON text reads it: 1.0, 1e0 and 1.0000000000000001 are no integer (as in Python)
        BigDecimal number = version instanceof Json.Number n && PyRepr.isInteger(n.text()) ? n.value() : null;
        boolean one = number != null && number.compareTo(BigDecimal.ONE) == 0;
        boolean two = number != null && number.compareTo(BigDecimal.valueOf(2)) == 0;
        if (!one && !two) {
            return Messages.say("lock.version", "lock", lock, "version", cut(Json.dumps(version), 200),
                "known", Lock.LOCK_VERSION + ", " + LAYOUT_LOCK_VERSION);
        }
        if (!(doc.get("files") instanceof Map<?, ?> files)) {
            return Messages.say("lock.noFiles", "lock", lock);
        }
        Map<String, String> digests = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : files.entrySet()) {
            String name = (String) entry.getKey();
            String problem = checkNames ? nameProblem(name) : null;
            if (problem != null) {
                return Messages.say("lock.name", "lock", lock, "name", cut(Json.dumps(name), 300), "reason", problem);
            }
            if (!(entry.getValue() instanceof String digest) || !DIGEST.matcher(digest).matches()) {
                return Messages.say("lock.digest", "lock", lock, "name", name);
            }
            digests.put(name, digest);
        }
        String kitVersion = doc.get("kitVersion") instanceof String text ? text : "";
        if (one) {
            return new CopyLock(kitVersion, digests, null);
        }
        Object layout = Layout.recorded(doc.get("layout"), lock);
        return layout instanceof String refusal ? refusal : new CopyLock(kitVersion, digests, (Layout) layout);
    }

    /** The first {@code limit} characters, as Python slices (by code point). */
    private static String cut(String text, int limit) {
        return text.codePointCount(0, text.length()) <= limit ? text
            : text.substring(0, text.offsetByCodePoints(0, limit));
    }

    private static String reason(IOException ex) {
        String message = ex.getMessage();
        return message == null ? ex.getClass().getSimpleName() : message;
    }
}
