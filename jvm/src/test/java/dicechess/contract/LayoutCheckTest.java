package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check DIR} on a copy written with a layout ({@code vendor --layout training}, lockVersion 2): read as the
 * Python kit reads it. The expected texts of the refusals are the Python kit's (jsonschema 4.26, Python 3.11), recorded
 * from {@code dicechess-contract vendor --check}; tests/jvm runs both on the same copies and requires equal output.
 */
class LayoutCheckTest {
    @TempDir
    Path tmp;

    /** A training-layout copy as {@code vendor --layout training DIR} writes it: the planned files and a lock 2. */
    Path trainingCopy() throws IOException, Json.JsonException {
        Path copy = tmp.resolve("training");
        Map<?, ?> layout = (Map<?, ?>) Data.json("schema/vendor-layout-training.json");
        KitData kit = KitData.directory(Data.root());
        Object planned = new Layout("training", layout).plan(kit);
        assertTrue(planned instanceof List<?>, String.valueOf(planned));
        @SuppressWarnings("unchecked")
        List<Layout.Planned> files = (List<Layout.Planned>) planned;
        for (Layout.Planned file : files) {
            Path target = copy.resolve(file.name());
            Files.createDirectories(target.getParent());
            Files.write(target, Layout.bytes(file, kit));
        }
        Map<String, Object> lock = new LinkedHashMap<>();
        lock.put("lockVersion", 2);
        lock.put("kit", Lock.KIT);
        lock.put("kitVersion", VendorCheck.kitLock().kitVersion());
        lock.put("contractVersions", Map.of());
        lock.put("layout", layout);
        lock.put("files", Layout.digests(files, kit));
        Files.writeString(copy.resolve(Lock.LOCK_NAME), Json.write(lock) + "\n");
        return copy;
    }

    private static List<String> check(Path copy) {
        return VendorCheckTest.run("check", copy.toString()).lines();
    }

    @Test
    void aFreshTrainingCopyMatchesAndAnEditedAndAMissingFileAreNamed() throws Exception {
        Path copy = trainingCopy();
        assertEquals(List.of(Messages.say("line.matches", "directory", copy)), check(copy));
        assertTrue(Files.readString(copy.resolve("kcp13/probes.tsv")).startsWith("id\tfen\ttags\tnote\n"));
        assertEquals(28, Files.readAllLines(copy.resolve("kcp13/probes.tsv")).size());  // the 27 recorded probes
        Files.writeString(copy.resolve("kcp13/probes.tsv"), "x");
        Files.delete(copy.resolve("manifests/synthetic_kcp13_value_manifest.json"));
        VendorCheckTest.Run done = VendorCheckTest.run("check", copy.toString());
        assertEquals(List.of(
            VendorCheckTest.fail(copy, "kcp13/probes.tsv", Messages.say("problem.edited", "lock", Lock.LOCK_NAME)),
            VendorCheckTest.fail(copy, "manifests/synthetic_kcp13_value_manifest.json", Messages.say("problem.missing")),
            Messages.say("line.summary", "count", 2, "directory", copy)), done.lines());
        assertEquals(1, done.code());
    }

    @Test
    void aLayoutThatIsNotOneIsRefusedInOneLineWithThePythonKitsWords() throws Exception {
        Path copy = trainingCopy();
        Path lock = copy.resolve(Lock.LOCK_NAME);
        String text = Files.readString(lock);
        String layout = text.substring(text.indexOf("\"layout\": ") + 10, text.indexOf(",\n  \"files\""));
        String[][] cases = {
            {"null", "/: None is not of type 'object'"},
            {"{\"layoutVersion\": 1, \"files\": [{\"from\": \"schema/x.json\", \"to\": \"y\"}]}",
             "/: 'name' is a required property"},
            {"[1, 2.5, \"x'y\", null, true, {\"a\": 1e300}]",
             "/: [1, 2.5, \"x'y\", None, True, {'a': 1e+300}] is not of type 'object'"},
            {"{\"layoutVersion\": 1, \"name\": \"t\", \"files\": [], \"zz\": 1, \"aa\": 2}",
             "/: Additional properties are not allowed ('aa', 'zz' were unexpected)"},
            {"{\"layoutVersion\": true, \"name\": \"t\", \"files\": [{\"from\": \"schema/x.json\", \"to\": \"y\"}]}",
             "/layoutVersion: 1 was expected"},
            {"{\"layoutVersion\": 1, \"name\": \"Bad Name\u00e9\u200b\", \"files\": [{\"from\": \"schema/x.json\", \"to\": \"y\"}]}",
             "/name: 'Bad Name\u00e9\\u200b' does not match '^[a-z0-9][a-z0-9._-]{0,63}$'"},
            {"{\"layoutVersion\": 1, \"name\": \"t\", \"files\": []}", "/files: [] should be non-empty"},
            {"{\"layoutVersion\": 1, \"name\": \"t\", \"files\": {\"a\": 0.1, \"b\": 1e16, \"c\": 1.5e-5, "
                + "\"d\": 123456789012345678901234567890, \"e\": -0.0, \"f\": 0.0001}}",
             "/files: {'a': 0.1, 'b': 1e+16, 'c': 1.5e-05, 'd': 123456789012345678901234567890, 'e': -0.0, "
                + "'f': 0.0001} is not of type 'array'"},
            {"{\"layoutVersion\": 1, \"name\": \"t\", \"files\": [{\"from\": \"/etc/passwd\", \"to\": \"y\"}]}",
             "/files/0/from: '/etc/passwd' does not match '^(schema|grammar|golden)/[^*]*(\\\\*[^*]*)?$'"},
            {"{\"layoutVersion\": 1, \"name\": \"t\", \"files\": [{\"from\": \"schema/x.json\", \"to\": \"*a'\\\"\\\\b\"}]}",
             "/files/0/to: '*a\\'\"\\\\b' does not match '^[^*/][^*]*(\\\\*[^*]*)?$'"},
            {"{\"layoutVersion\": 3, \"files\": [{\"from\": 1, \"to\": 2}], \"extra\": null}",
             "/: Additional properties are not allowed ('extra' was unexpected)"},
        };
        for (String[] c : cases) {
            Files.writeString(lock, text.replace(layout, c[0]));
            VendorCheckTest.Run done = VendorCheckTest.run("check", copy.toString());
            assertEquals(List.of("vendor --check: " + lock + ": its \"layout\" is not a valid layout (layout: not a "
                + "vendor layout (" + c[1] + "))"), done.lines(), c[0]);
            assertEquals(1, done.code());
        }
        Files.writeString(lock, text.replace(layout,
            "{\"layoutVersion\": 1, \"name\": \"t\", \"files\": [{\"from\": \"schema/x.json\", \"to\": \"../x\"}]}"));
        assertEquals(List.of("vendor --check: " + lock + ": its \"layout\" is not a valid layout (layout: the target "
            + "name ../x of entry 0 is refused: it has a '.' or '..' segment (a name must stay inside its directory))"),
            check(copy));
    }

    @Test
    void aLayoutTheKitCannotPlanAnyMoreMakesEveryFileNotTheKits() throws Exception {
        Path copy = trainingCopy();
        Path lock = copy.resolve(Lock.LOCK_NAME);
        String text = Files.readString(lock);
        Files.writeString(lock, text.replace("\"probesOf\": \"golden/recorded/kcp-13.engine-0.12.0.json\"",
            "\"probesOf\": \"golden/drift-log.json\""));
        List<String> lines = check(copy);
        long files = Files.walk(copy).filter(Files::isRegularFile).count() - 1;
        assertEquals(files + 1, lines.size());
        String version = VendorCheck.kitLock().kitVersion();
        assertTrue(lines.subList(0, lines.size() - 1).stream()
            .allMatch(l -> l.endsWith(": " + Messages.say("problem.notInKit", "version", version))), lines.toString());
        Object plan = ((Layout) ((VendorCheck.CopyLock) VendorCheck.readLock(copy, copy.toString())).layout())
            .plan(KitData.directory(Data.root()));
        assertEquals("layout: entry 1: golden/drift-log.json or golden/probes.tsv is not what probesOf reads", plan);
    }

    @Test
    void theJarListsEveryKitFileALayoutCanCopy() throws IOException {
        KitData jar = KitData.classPath();
        assertEquals(KitData.directory(Data.root()).files(), jar.files());
        assertTrue(jar.files().contains("golden/recorded/kcp-13.engine-0.12.0.json"));
        assertEquals(Files.readString(Data.root().resolve("golden/probes.tsv")),
            new String(jar.read("golden/probes.tsv"), StandardCharsets.UTF_8));
        assertThrows(IOException.class, () -> jar.read("../pom.xml"));
    }

    @Test
    void numbersAndStringsAreShownAsPythonShowsThem() {
        String[][] numbers = {
            {"0.1", "0.1"}, {"1e16", "1e+16"}, {"1.5e-5", "1.5e-05"}, {"-0.0", "-0.0"}, {"0.0001", "0.0001"},
            {"123.0", "123.0"}, {"1e22", "1e+22"}, {"5e-324", "5e-324"},
            {"1.7976931348623157e308", "1.7976931348623157e+308"}, {"0.30000000000000004", "0.30000000000000004"},
            {"100", "100"}, {"-0", "0"}, {"1E2", "100.0"}, {"2.5e-4", "0.00025"},
            {"12345678901234567.0", "1.2345678901234568e+16"}, {"9007199254740993.0", "9007199254740992.0"},
            {"1e15", "1000000000000000.0"}, {"0.1e-3", "0.0001"}, {"3.14159", "3.14159"},
        };
        for (String[] n : numbers) {
            assertEquals(n[1], PyRepr.repr(new Json.Number(n[0])), n[0]);
        }
        String[][] strings = {
            {"a'b", "\"a'b\""}, {"a\"b", "'a\"b'"}, {"a'\"b", "'a\\'\"b'"}, {"tab\tnl\n", "'tab\\tnl\\n'"},
            {"\u007f\u0080\u00a0\u00ad", "'\\x7f\\x80\\xa0\\xad'"}, {"\u200b\u2028", "'\\u200b\\u2028'"},
            {"\ud83d\ude00", "'\ud83d\ude00'"}, {"\ud800", "'\\ud800'"}, {"\u00e9", "'\u00e9'"},
            {"\udb40\udc01", "'\\U000e0001'"}, {"\udbff\udfff", "'\\U0010ffff'"},
        };
        for (String[] s : strings) {
            assertEquals(s[1], PyRepr.repr(s[0]), s[0]);
        }
    }

    @Test
    void theJsonReaderRefusesWhatThePythonKitRefusesWithItsWords() throws Json.JsonException {
        Json.parseUtf8(("[".repeat(64) + "]".repeat(64)).getBytes(StandardCharsets.UTF_8));
        String[][] refused = {
            {"[".repeat(65) + "]".repeat(65), "not valid JSON: nesting deeper than 64 levels at character 64"},
            {"{\"a\": 1e999}", "not valid JSON: number 1e999 does not fit in a 64-bit float"},
            {"{\"a\": 1, \"a\": 2}", "not valid JSON: duplicate key 'a'"},
            {"\ufeff{}", "not valid JSON: starts with a UTF-8 byte-order mark"},
        };
        for (String[] r : refused) {
            Json.JsonException ex = assertThrows(Json.JsonException.class,
                () -> Json.parseUtf8(r[0].getBytes(StandardCharsets.UTF_8)));
            assertEquals(r[1], ex.getMessage());
        }
        Json.JsonException ex = assertThrows(Json.JsonException.class,
            () -> Json.parseUtf8(new byte[] {'[', '"', (byte) 0xe9, '"', ']'}));
        assertEquals("not valid JSON: not UTF-8 text (byte 2)", ex.getMessage());
    }
}
