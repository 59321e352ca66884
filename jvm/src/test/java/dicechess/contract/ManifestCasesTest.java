package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The JVM validator agrees with the kit (Python jsonschema) and with ajv (js/) on every manifest case of
 * golden/conformance/manifests.json: a case's schema verdict follows from its expected outcome. An accepted manifest
 * is valid; a refusal by a check the schema expresses (a field's presence, type, pattern, value, the constraint's
 * syntax) is invalid; a refusal by a check it cannot express is valid (the role the caller wires,
 * {@code manifest.modelRole.cannotServe}; an engine version outside the constraint, {@code engineCompatibility.excluded});
 * the host engine version's own syntax ({@code engineCompatibility.engineVersion.*}) says nothing of the manifest, and a
 * text that is not JSON ({@code json.*}) or names no version with a schema has no document to validate. The same rule
 * is js/src/manifest.js's ("schema and ordered checks disagree") and tests/runtime/test_runtime_schema_agreement.py's.
 */
class ManifestCasesTest {
    static final Set<String> VERSIONS = Set.of("1.0.0", "1.1.0");
    static final Set<String> NOT_EXPRESSIBLE = Set.of("manifest.modelRole.cannotServe", "engineCompatibility.excluded");

    static Boolean expectedValid(Map<?, ?> c) {
        Object code = c.get("code");
        if ("accepted".equals(c.get("verdict"))) {
            return true;
        }
        if (!(code instanceof String s) || s.startsWith("json.") || s.startsWith("engineCompatibility.engineVersion.")) {
            return null;
        }
        return NOT_EXPRESSIBLE.contains(s);
    }

    @Test
    void theJvmValidatorAgreesOnEveryManifestCase() throws Exception {
        Map<?, ?> corpus = (Map<?, ?>) Data.json("golden/conformance/manifests.json");
        List<String> differing = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>(Map.of("compared", 0, "valid", 0, "invalid", 0));
        String accepted = null;
        for (Object item : (List<?>) corpus.get("cases")) {
            Map<?, ?> c = (Map<?, ?>) item;
            Boolean expected = expectedValid(c);
            String text = (String) c.get("manifest");
            Object doc;
            try {
                doc = Json.parse(text);
            } catch (Json.JsonException ex) {
                assertEquals(null, expected, c.get("id") + " is not JSON but has a schema verdict");
                continue;
            }
            Object version = doc instanceof Map<?, ?> map ? map.get("manifestVersion") : null;
            if (expected == null || !(version instanceof String v) || !VERSIONS.contains(v)) {
                continue;
            }
            if (accepted == null && expected && v.equals("1.1.0")) {
                accepted = text;
            }
            boolean valid = SchemaValidationTest.errors("manifest-" + v, text).isEmpty();
            counts.merge("compared", 1, Integer::sum);
            counts.merge(valid ? "valid" : "invalid", 1, Integer::sum);
            if (valid != expected) {
                differing.add(c.get("id") + ": expected " + (expected ? "valid" : "invalid") + ", networknt says "
                    + (valid ? "valid" : SchemaValidationTest.errors("manifest-" + v, text)));
            }
        }
        assertEquals(List.of(), differing);
        assertTrue(counts.get("compared") >= 80 && counts.get("valid") >= 25 && counts.get("invalid") >= 40,
            counts.toString());
        // strings a regex dialect reads differently (\\d, $, Unicode digits and spaces), with the verdict of
        // jsonschema and ajv: only characters up to U+0020 around the constraint are blank (the engine's trim)
        for (String[] tricky : new String[][] {
                {"modelSha256", "\u0663".repeat(64), "invalid"}, {"modelSha256", "a".repeat(64) + "\\n", "invalid"},
                {"modelSha256", "\uff10".repeat(64), "invalid"}, {"engineCompatibility", ">=\u0663.0.0", "invalid"},
                {"engineCompatibility", ">=0.12.0\\n", "valid"},
                {"engineCompatibility", ">=0.12.0\u00a0<1.0.0", "invalid"},
                {"engineCompatibility", "\u00a0", "invalid"}}) {
            Map<?, ?> base = (Map<?, ?>) Json.parse(accepted);
            String old = "\"" + tricky[0] + "\": \"" + base.get(tricky[0]) + "\"";
            assertTrue(accepted.contains(old), old);
            String text = accepted.replace(old, "\"" + tricky[0] + "\": \"" + tricky[1] + "\"");
            boolean valid = SchemaValidationTest.errors("manifest-1.1.0", text).isEmpty();
            assertEquals(tricky[2], valid ? "valid" : "invalid", tricky[0] + " " + tricky[1]);
        }
    }
}
