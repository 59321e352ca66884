package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check DIR}: the Python kit's {@code vendor --check}, its messages and exit codes, in Java. */
class VendorCheckTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String fail(Path copy, String name, String problem) {
        return Messages.say("line.fail", "path", copy + "/" + name, "problem", problem);
    }

    /** The one line of a copy that cannot be checked: the table's {@code code} text with {@code fields}. */
    static String refused(String code, Object... fields) {
        return Messages.say("line.checkRefused", "message", Messages.say(code, fields));
    }

    /** A fresh vendored copy: every locked file of the jar and the lock, as {@code vendor DIR} writes them. */
    Path freshCopy() throws IOException {
        Path copy = tmp.resolve("copy");
        Lock lock = VendorCheck.kitLock();
        for (String name : lock.files().keySet()) {
            Path target = copy.resolve(name);
            Files.createDirectories(target.getParent());
            Files.copy(Data.root().resolve(name), target);
        }
        Files.copy(Data.root().resolve(Lock.LOCK_NAME), copy.resolve(Lock.LOCK_NAME));
        return copy;
    }

    @Test
    void theJarsLockIsTheLockOfTheFilesItCarries() throws IOException {
        Lock lock = VendorCheck.kitLock();
        assertEquals(Lock.compute(Data.root(), lock.kitVersion()).toJson(),
            Files.readString(Data.root().resolve(Lock.LOCK_NAME)));
        assertTrue(lock.files().containsKey("golden/fixtures/synthetic_kcp_mobility_27_test_model.onnx"));
        assertTrue(lock.files().containsKey("schema/manifest-1.1.0.schema.json"));
        assertTrue(lock.files().keySet().stream().noneMatch(n -> n.startsWith("golden/recorded/")));
    }

    @Test
    void aFreshCopyMatches() throws IOException {
        Path copy = freshCopy();
        Run done = run("check", copy.toString());
        assertEquals(List.of(Messages.say("line.matches", "directory", copy)), done.lines());
        assertEquals(0, done.code());
    }

    @Test
    void anEditedAndAMissingFileAreEachNamed() throws IOException {
        Path copy = freshCopy();
        Files.writeString(copy.resolve("golden/probes.json"), "{}\n");
        Files.delete(copy.resolve("grammar/engine_compatibility.lark"));
        Run done = run("check", copy.toString());
        assertEquals(List.of(
            fail(copy, "golden/probes.json", Messages.say("problem.edited", "lock", Lock.LOCK_NAME)),
            fail(copy, "grammar/engine_compatibility.lark", Messages.say("problem.missing")),
            Messages.say("line.summary", "count", 2, "directory", copy)), done.lines().stream().sorted().toList());
        assertEquals(1, done.code());
    }

    @Test
    void aFileTheKitShipsButTheLockLacksIsNamed() throws IOException {
        Path copy = freshCopy();
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        String entry = "    \"golden/probes.json\": \"" + VendorCheck.kitLock().files().get("golden/probes.json") + "\",\n";
        assertTrue(lock.contains(entry));
        Files.writeString(copy.resolve(Lock.LOCK_NAME), lock.replace(entry, ""));
        Run done = run("check", copy.toString());
        String version = VendorCheck.kitLock().kitVersion();
        assertEquals(List.of(fail(copy, "golden/probes.json", Messages.say("problem.missingFromLock", "version", version)),
            Messages.say("line.summary", "count", 1, "directory", copy)), done.lines());
        assertEquals(1, done.code());
    }

    @Test
    void aLockNameLeavingTheDirectoryIsRefusedUnreadInOneLine() throws IOException {
        Path copy = freshCopy();
        Files.writeString(tmp.resolve("outside.json"), "{}\n");
        String digest = Lock.sha256(tmp.resolve("outside.json"));
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        String[][] names = {
            {"../outside.json", "name.dotSegment"},
            {"schema/../../outside.json", "name.dotSegment"},
            {"/etc/hostname", "name.absolute"},
            {"schema//x.json", "name.emptySegment"},
            {"a\\\\b", "name.backslash"},
        };
        for (String[] name : names) {
            Files.writeString(copy.resolve(Lock.LOCK_NAME), lock.replace("\"files\": {\n",
                "\"files\": {\n    \"" + name[0] + "\": \"" + digest + "\",\n"));
            Run done = run("check", copy.toString());
            assertEquals(1, done.code(), name[0]);
            String shown = name[0].replace("\\\\", "\\");
            assertEquals(List.of(refused("lock.name", "lock", copy.resolve(Lock.LOCK_NAME), "name", "\"" + name[0] + "\"",
                "reason", Messages.say(name[1]))), done.lines(), shown);
        }
    }

    @Test
    void aSymbolicLinkInTheCopyIsNamedNotFollowed() throws IOException {
        Path copy = freshCopy();
        Path outside = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.copy(copy.resolve("golden/probes.json"), outside.resolve("probes.json"));
        Files.delete(copy.resolve("golden/probes.json"));
        Files.createSymbolicLink(copy.resolve("golden/probes.json"), outside.resolve("probes.json"));
        Run done = run("check", copy.toString());
        assertEquals(List.of(fail(copy, "golden/probes.json", Messages.say("problem.symlink")),
            Messages.say("line.summary", "count", 1, "directory", copy)), done.lines());
        assertEquals(1, done.code());
        Path link = tmp.resolve("link");
        Files.createSymbolicLink(link, copy);
        assertEquals(List.of(refused("check.symlinkDirectory", "directory", link)), run("check", link.toString()).lines());
    }

    @Test
    void aLockOfAnUnknownVersionIsOneLine() throws IOException {
        Path copy = freshCopy();
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        for (String[] version : new String[][] {{"3", "1, 2"}, {"\"1\"", "1, 2"}, {"true", "1, 2"}, {"2.5", "1, 2"},
                {"1e999", null}}) {
            if (version[1] == null) {  // a number no double holds: the lock is not JSON the kit reads
                Files.writeString(copy.resolve(Lock.LOCK_NAME),
                    lock.replace("\"lockVersion\": 1,", "\"lockVersion\": " + version[0] + ","));
                assertTrue(run("check", copy.toString()).out().startsWith("vendor --check: " + copy.resolve(Lock.LOCK_NAME)
                    + ": cannot be read as a lock file (not valid JSON: number 1e999"));
                continue;
            }
            Files.writeString(copy.resolve(Lock.LOCK_NAME),
                lock.replace("\"lockVersion\": 1,", "\"lockVersion\": " + version[0] + ","));
            Run done = run("check", copy.toString());
            assertEquals(List.of(refused("lock.version", "lock", copy.resolve(Lock.LOCK_NAME), "version", version[0],
                "known", version[1])), done.lines());
            assertEquals(1, done.code());
        }
    }

    @Test
    void aLockVersionIsTheIntegerAsJsonTextReadsIt() throws IOException {
        // as the kit's reader since review L7: 1 or 2 written as an integer; a fraction or an exponent is no integer
        Path copy = freshCopy();
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        for (String version : new String[] {"1.0000000000000001", "1e0", "10e-1", "1.0", "1.000000000000001"}) {
            Files.writeString(copy.resolve(Lock.LOCK_NAME),
                lock.replace("\"lockVersion\": 1,", "\"lockVersion\": " + version + ","));
            Run done = run("check", copy.toString());
            assertEquals(1, done.code(), version);
            assertEquals(1, done.lines().size(), version);
            assertTrue(done.lines().get(0).contains("lockVersion"), done.lines().get(0));
        }
        Files.writeString(copy.resolve(Lock.LOCK_NAME), lock);
        assertEquals(0, run("check", copy.toString()).code());
    }

    @Test
    void aLockNameWithALoneSurrogateIsRefusedAndRawNamesMapAsSurrogateescape() throws IOException {
        // a lone surrogate in a lock name is no valid Unicode: refused as the kit refuses it (review H2); the
        // mapping of raw bytes to U+DC80..U+DCFF (Python's surrogateescape) still serves names read from disk
        Path copy = freshCopy();
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        Files.writeString(copy.resolve(Lock.LOCK_NAME),
            lock.replace("\"files\": {", "\"files\": {\n    \"schema/\\udcff.json\": \"" + "0".repeat(64) + "\","));
        Run done = run("check", copy.toString());
        assertEquals(1, done.lines().size(), done.lines().toString());
        assertTrue(done.lines().get(0).endsWith(Messages.say("name.notUnicode")), done.lines().get(0));
        assertEquals(1, done.code());
        assertEquals("caf\u00e9\udcff", FileNames.decode(new byte[] {'c', 'a', 'f', (byte) 0xc3, (byte) 0xa9,
            (byte) 0xff}));
        assertEquals(List.of((byte) 'a', (byte) 0xff), toList(FileNames.encode("a\udcff")));
        assertEquals(null, FileNames.encode("a\ud800"));
    }

    private static List<Byte> toList(byte[] bytes) {
        java.util.ArrayList<Byte> out = new java.util.ArrayList<>();
        for (byte b : bytes) {
            out.add(b);
        }
        return out;
    }

    @Test
    void aCopyWithoutALockOrABrokenLockOrNoDirectoryIsOneLine() throws IOException {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertEquals(List.of(refused("lock.missing", "directory", empty, "lock", Lock.LOCK_NAME)),
            run("check", empty.toString()).lines());
        Path lock = empty.resolve(Lock.LOCK_NAME);
        String[][] broken = {
            {"{\"kit\": \"dicechess-contract\", \"lockVersion\": 1, \"files\": [1]}",
             "lock.noFiles"},
            {"{\"files\": {}}", "lock.kit"},
            {"[1]", "lock.notObject"},
            {"{\"kit\": \"dicechess-contract\", \"lockVersion\": 1, \"files\": {\"a.json\": \"ABC\"}}",
             "lock.digest"},
        };
        for (String[] c : broken) {
            Files.writeString(lock, c[0]);
            Run done = run("check", empty.toString());
            assertEquals(List.of(refused(c[1], "lock", lock, "kit", "null", "name", "a.json")), done.lines());
            assertEquals(1, done.code());
        }
        Files.writeString(lock, "{\"files\": ");
        assertTrue(run("check", empty.toString()).out().startsWith("vendor --check: " + lock
            + ": cannot be read as a lock file (not valid JSON"));
        Files.write(lock, new byte[VendorCheck.MAX_LOCK_BYTES + 1]);
        assertEquals(List.of(refused("lock.tooLarge", "lock", lock, "limit", 4194304)),
            run("check", empty.toString()).lines());
        Path none = tmp.resolve("none");
        Run missing = run("check", none.toString());
        assertEquals(List.of(refused("check.noDirectory", "directory", none)), missing.lines());
        assertEquals(1, missing.code());
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertEquals(List.of(refused("check.notDirectory", "directory", file)), run("check", file.toString()).lines());
    }

    @Test
    void aControlCharacterInAPrintedNameIsShownNotObeyed() {
        assertEquals("FAIL v/a\\x1b[2K: missing", Messages.say("line.fail", "path", "v/a\u001b[2K", "problem", "missing"));
        assertEquals("a\\u202eb\\n", Messages.consoleText("a\u202eb\n"));
    }

    @Test
    void usageErrorsExitTwoAndEveryHelpListsTheExitCodes() {
        for (String[] args : List.of(new String[] {}, new String[] {"check"}, new String[] {"check", "a", "b"},
                new String[] {"frobnicate", "x"})) {
            Run done = run(args);
            assertEquals(2, done.code(), String.join(" ", args));
            assertTrue(done.err().startsWith("usage: dicechess-contract-jvm"), done.err());
        }
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"check", "--help"},
                new String[] {"vectors", "--help"})) {
            Run done = run(args);
            assertEquals(0, done.code());
            assertTrue(done.out().contains("exit codes: 0 matches, 1 differs or refused (each problem named), "
                + "2 usage error, 130 interrupted"), done.out());
        }
    }

    @Test
    void aUsageErrorSaysWhatIsMissingOrExtraNotAJavaList() {
        Map<List<String>, String> expected = new LinkedHashMap<>();
        expected.put(List.of(), "usage: dicechess-contract-jvm check DIR | vectors SCHEMA | parity FILE | verify DIR "
            + "--public-key PUB.pem | --version | --help\ndicechess-contract-jvm: error: a command is required (choose "
            + "from check, vectors, parity, verify)\n");
        expected.put(List.of("check"), "usage: dicechess-contract-jvm check DIR\n"
            + "dicechess-contract-jvm: error: check: the following arguments are required: DIR\n");
        expected.put(List.of("check", "a", "b"), "usage: dicechess-contract-jvm check DIR\n"
            + "dicechess-contract-jvm: error: check takes one DIR; unrecognized arguments: b\n");
        expected.put(List.of("verify"), "usage: dicechess-contract-jvm verify DIR --public-key PUB.pem\n"
            + "dicechess-contract-jvm: error: verify: the following arguments are required: DIR, --public-key\n");
        expected.put(List.of("verify", "d", "k.pem"), "usage: dicechess-contract-jvm verify DIR --public-key PUB.pem\n"
            + "dicechess-contract-jvm: error: verify takes DIR --public-key PUB.pem; got d k.pem\n");
        expected.put(List.of("frob\u001b", "x"), "usage: dicechess-contract-jvm check DIR | vectors SCHEMA | parity "
            + "FILE | verify DIR --public-key PUB.pem | --version | --help\ndicechess-contract-jvm: error: invalid "
            + "command 'frob\\x1b' (choose from check, vectors, parity, verify)\n");
        for (Map.Entry<List<String>, String> entry : expected.entrySet()) {
            Run done = run(entry.getKey().toArray(new String[0]));
            assertEquals(2, done.code(), entry.getKey().toString());
            assertEquals(entry.getValue(), done.err().replace(System.lineSeparator(), "\n"));
        }
        assertEquals(2, run("frob", "--help").code());  // an unknown command has no usage of its own
    }

    @Test
    void pathsAreShownAsPathlibShowsThem() {
        assertEquals("a/b", Main.pythonPath("./a//b/"));
        assertEquals("/a", Main.pythonPath("/a/"));
        assertEquals(".", Main.pythonPath("./"));
        assertEquals("x.json", Main.join(".", "x.json"));
        assertEquals("/x.json", Main.join("/", "x.json"));
    }
}
