package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every corpus file validates against its JSON Schema with a JVM validator of draft 2020-12 (networknt
 * json-schema-validator), by the kit's table of which schema describes which file (corpus-schemas.tsv, the same
 * table as contract/golden/validation.py's CORPUS_SCHEMAS). probes.tsv is a table, not JSON: the Python check
 * validates it row by row, this one does not.
 */
class SchemaValidationTest {
    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    static final Map<String, Schema> SCHEMAS = new HashMap<>();

    record Rule(Pattern glob, String schema) {
    }

    static List<Rule> rules() throws IOException {
        List<Rule> rules = new ArrayList<>();
        try (InputStream in = SchemaValidationTest.class.getResourceAsStream("/corpus-schemas.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                rules.add(new Rule(fnmatch(parts[0]), parts[1]));
            }
        }
        return rules;
    }

    /** Python's fnmatch: '*' matches any text, '/' included; '?' one character. */
    static Pattern fnmatch(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    static Schema schema(String name) {
        return SCHEMAS.computeIfAbsent(name, n -> {
            try {
                return REGISTRY.getSchema(Files.readString(Data.root().resolve("schema/" + n + ".schema.json")));
            } catch (IOException ex) {
                throw new IllegalStateException(ex);
            }
        });
    }

    /** The schema name for a repository path, or null: not a corpus file. */
    static String schemaFor(String path, Object doc, List<Rule> rules) {
        for (Rule rule : rules) {
            if (rule.glob().matcher(path).matches()) {
                if (rule.schema().equals("manifest-{version}")) {
                    Object version = doc instanceof Map<?, ?> map ? map.get("manifestVersion") : null;
                    return "manifest-" + version;
                }
                return rule.schema();
            }
        }
        return null;
    }

    static List<String> errors(String schemaName, String text) {
        List<Error> errors = schema(schemaName).validate(text, InputFormat.JSON);
        return errors.stream().map(Error::toString).toList();
    }

    @Test
    void everyCorpusFileConformsToItsSchema() throws Exception {
        List<Rule> rules = rules();
        Path root = Data.root();
        List<String> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root.resolve("golden"))) {
            walk.filter(p -> p.toString().endsWith(".json")).forEach(p -> paths.add(Lock.posix(root.relativize(p))));
        }
        for (String data : List.of("schema/feature-schemas.json", "schema/check-table.json",
                "schema/pairjudge-check-table.json", "schema/manifest-fields.json")) {
            paths.add(data);
        }
        List<String> problems = new ArrayList<>();
        Map<String, Integer> bySchema = new HashMap<>();
        for (String path : paths) {
            String text = Files.readString(root.resolve(path), StandardCharsets.UTF_8);
            Object doc = Json.parse(text);
            String name = schemaFor(path, doc, rules);
            if (name == null) {
                continue;
            }
            bySchema.merge(name, 1, Integer::sum);
            for (String error : errors(name, text)) {
                problems.add(path + ": " + error + " (schema/" + name + ".schema.json)");
            }
        }
        assertEquals(List.of(), problems);
        long engineGoldens;
        try (Stream<Path> recorded = Files.list(root.resolve("golden/recorded"))) {
            engineGoldens = recorded.filter(p -> p.getFileName().toString().matches(".*\\.engine-.*\\.json")).count();
        }
        assertTrue(engineGoldens >= 4, String.valueOf(engineGoldens));
        assertEquals(7 + engineGoldens, (long) bySchema.get("golden-vectors"), bySchema.toString()); // 7 kit files
        assertTrue(bySchema.get("manifest-1.1.0") >= 5 && bySchema.get("manifest-1.0.0") >= 2, bySchema.toString());
        assertTrue(bySchema.containsKey("conformance-manifests") && bySchema.containsKey("probes"), bySchema.toString());
    }

    @Test
    void aFileThatBreaksItsSchemaIsReported() throws Exception {
        String vectors = Files.readString(Data.root().resolve("golden/vectors/kcp-13.json"));
        assertTrue(errors("golden-vectors", vectors).isEmpty());
        assertTrue(!errors("golden-vectors", vectors.replace("\"perspective\": \"side-to-move\"",
            "\"perspective\": \"white\"")).isEmpty());
        assertTrue(!errors("probes", "{\"formatVersion\": \"1.0.0\"}").isEmpty());
    }
}
