package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        assertEquals(List.of("vendor --check: " + copy + " matches the installed kit"), done.lines());
        assertEquals(0, done.code());
    }

    @Test
    void anEditedAndAMissingFileAreEachNamed() throws IOException {
        Path copy = freshCopy();
        Files.writeString(copy.resolve("golden/probes.json"), "{}\n");
        Files.delete(copy.resolve("grammar/engine_compatibility.lark"));
        Run done = run("check", copy.toString());
        assertEquals(List.of(
            "FAIL " + copy + "/golden/probes.json: edited (its SHA-256 is not the one in dicechess-contract.lock.json)",
            "FAIL " + copy + "/grammar/engine_compatibility.lark: missing",
            "vendor --check: 2 problem(s) in " + copy), done.lines().stream().sorted().toList());
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
        assertEquals(List.of("FAIL " + copy + "/golden/probes.json: missing (the installed kit " + version
            + " ships it; run vendor again)", "vendor --check: 1 problem(s) in " + copy), done.lines());
        assertEquals(1, done.code());
    }

    @Test
    void aLockPathLeavingTheDirectoryIsRefusedUnread() throws IOException {
        Path copy = freshCopy();
        Files.writeString(tmp.resolve("outside.json"), "{}\n");
        String digest = Lock.sha256(tmp.resolve("outside.json"));
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        for (String name : List.of("../outside.json", "/etc/hostname", "schema/../../outside.json")) {
            Files.writeString(copy.resolve(Lock.LOCK_NAME), lock.replace("\"files\": {\n",
                "\"files\": {\n    \"" + name + "\": \"" + digest + "\",\n"));
            Run done = run("check", copy.toString());
            assertEquals(1, done.code(), name);
            assertTrue(done.lines().contains("FAIL " + copy + "/" + name
                + ": not a path inside the vendored copy (refused, not read)"), done.out());
            assertEquals("vendor --check: 1 problem(s) in " + copy, done.lines().get(done.lines().size() - 1));
        }
    }

    @Test
    void aLockOfAnUnknownVersionIsOneLine() throws IOException {
        Path copy = freshCopy();
        String lock = Files.readString(copy.resolve(Lock.LOCK_NAME));
        Files.writeString(copy.resolve(Lock.LOCK_NAME), lock.replace("\"lockVersion\": 1,", "\"lockVersion\": 2,"));
        Run done = run("check", copy.toString());
        assertEquals(List.of("vendor --check: " + copy.resolve(Lock.LOCK_NAME)
            + ": lockVersion 2 is not one this kit reads (it reads lockVersion 1)"), done.lines());
        assertEquals(1, done.code());
    }

    @Test
    void aCopyWithoutALockOrABrokenLockOrNoDirectoryIsOneLine() throws IOException {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertEquals(List.of("vendor --check: " + empty + " is not a vendored copy of the contract: it has no "
            + "dicechess-contract.lock.json"), run("check", empty.toString()).lines());
        Files.writeString(empty.resolve(Lock.LOCK_NAME), "{\"files\": [1]}");
        Run broken = run("check", empty.toString());
        assertEquals(List.of("vendor --check: " + empty.resolve(Lock.LOCK_NAME)
            + ": not a dicechess-contract lock file (no \"files\" object of digests)"), broken.lines());
        assertEquals(1, broken.code());
        Files.writeString(empty.resolve(Lock.LOCK_NAME), "{\"files\": ");
        assertTrue(run("check", empty.toString()).out().startsWith("vendor --check: "
            + empty.resolve(Lock.LOCK_NAME) + ": cannot be read as a lock file (not valid JSON"));
        Path none = tmp.resolve("none");
        Run missing = run("check", none.toString());
        assertEquals(List.of("vendor --check: " + none + ": no such directory"), missing.lines());
        assertEquals(1, missing.code());
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
    void pathsAreShownAsPathlibShowsThem() {
        assertEquals("a/b", Main.pythonPath("./a//b/"));
        assertEquals("/a", Main.pythonPath("/a/"));
        assertEquals(".", Main.pythonPath("./"));
        assertEquals("x.json", Main.join(".", "x.json"));
        assertEquals("/x.json", Main.join("/", "x.json"));
    }
}
