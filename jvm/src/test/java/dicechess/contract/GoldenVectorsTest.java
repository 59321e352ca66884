package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors read in Java are the kit's bit for bit: compared with the engine's live recording
 * (golden/recorded/engine-live/, float32 bit patterns), which {@code golden check} proves equal to the kit's Python
 * vectors; tests/jvm/test_jvm_module.py also compares the {@code vectors} command's output with Python's.
 */
class GoldenVectorsTest {
    static final String LIVE = "golden/recorded/engine-live/engine-vectors-default-seed20261130.jsonl.gz";

    static List<String> schemas() throws IOException, Json.JsonException {
        Map<?, ?> registry = (Map<?, ?>) Data.json("schema/feature-schemas.json");
        List<String> ids = new ArrayList<>();
        for (Object schema : (List<?>) registry.get("schemas")) {
            ids.add((String) ((Map<?, ?>) schema).get("id"));
        }
        return ids;
    }

    static int[] bits(String text) {
        if (text.startsWith("bits:")) {
            return text.substring(5).chars().map(c -> c == '1' ? Float.floatToRawIntBits(1.0f) : 0).toArray();
        }
        int[] out = new int[text.length() / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = Integer.parseUnsignedInt(text.substring(8 * i, 8 * i + 8), 16);
        }
        return out;
    }

    @Test
    void everySchemasVectorsEqualTheEnginesRecordingBitForBit() throws Exception {
        List<String> ids = schemas();
        assertEquals(7, ids.size());
        Map<String, GoldenVectors.VectorFile> files = new java.util.HashMap<>();
        for (String schema : ids) {
            files.put(schema, GoldenVectors.load(schema));
        }
        int compared = 0;
        for (String line : Data.gunzip(LIVE).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> position = (Map<?, ?>) Json.parse(line);
            String label = (String) position.get("label");
            if (!label.startsWith("probe ")) {
                continue;
            }
            String id = label.substring("probe ".length());
            Map<?, ?> vectors = (Map<?, ?>) position.get("vectors");
            for (String schema : ids) {
                GoldenVectors.Probe probe = files.get(schema).probe(id);
                assertEquals(position.get("fen"), probe.fen(), id);
                assertEquals(position.get("side"), probe.side(), id);
                int[] recorded = bits((String) vectors.get(schema));
                int[] mine = new int[probe.features().length];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = Float.floatToRawIntBits(probe.features()[i]);
                }
                assertEquals(java.util.Arrays.toString(recorded), java.util.Arrays.toString(mine), schema + " " + id);
                compared++;
            }
        }
        assertEquals(114 * 7, compared);
    }

    @Test
    void aVectorFileIsReadWithItsColumnsAndProbes() throws Exception {
        GoldenVectors.VectorFile kcp = GoldenVectors.load("kcp-13");
        assertEquals("kcp-13", kcp.schema());
        assertEquals(13, kcp.columns().size());
        assertEquals("total_material", kcp.columns().get(6));
        assertEquals(78.0f, kcp.probe("start-w").features()[6]);
        assertEquals(120, kcp.byId().size()); // 114 probes engine-live recorded, 3 engine-newest edge probes and their twins
        assertEquals(768, GoldenVectors.load("raw-board-768-v1").probe("start-w").features().length);
    }

    @Test
    void aBadVectorFileIsRefusedNamingFileAndProblem() {
        String head = "{\"schema\": \"kcp-13\", \"columns\": [\"a\", \"b\"], \"probes\": [";
        String[][] cases = {
            {head + "{\"id\": \"p\", \"fen\": \"f\", \"side\": \"w\", \"features\": [1.0]}]}",
             "x.json: probe p: 1 features, the file has 2 columns"},
            {head + "{\"id\": \"p\", \"fen\": \"f\", \"side\": \"w\", \"features\": [1.0, \"2\"]}]}",
             "x.json: probe p column b: '2' is not a number"},
            {head + "{\"id\": \"p\", \"fen\": \"f\", \"side\": \"w\", \"features\": [1.0, 1e39]}]}",
             "x.json: probe p column b: 1e+39 is not a finite float32"},
            {head + "{\"id\": \"p\", \"fen\": \"f\", \"side\": \"w\", \"features\": [1, 2]}, {\"id\": \"p\"}]}",
             "x.json: probe p: id appears twice"},
            {"{\"schema\": \"kcp-13\"}", "x.json: missing field 'columns'"},
            {"{\"schema\": 5}", "x.json: field 'schema' must be a string"},
            {"[", "x.json: not valid JSON: unexpected end at 1"},
            {"{\"a\": 1, \"a\": 2}", "x.json: not valid JSON: duplicate key 'a'"},
        };
        for (String[] c : cases) {
            GoldenVectors.VectorException ex = assertThrows(GoldenVectors.VectorException.class,
                () -> GoldenVectors.parse("x.json", c[0].getBytes(StandardCharsets.UTF_8)));
            assertEquals(c[1], ex.getMessage());
        }
        assertThrows(GoldenVectors.VectorException.class, () -> GoldenVectors.load("../schema/x"));
        GoldenVectors.VectorException none = assertThrows(GoldenVectors.VectorException.class,
            () -> GoldenVectors.load("no-such-schema"));
        assertTrue(none.getMessage().startsWith("no golden vectors for schema 'no-such-schema'"), none.getMessage());
    }

    @Test
    void aValueIsReadAsADoubleThenRoundedToFloat32() throws Exception {
        // the text 0.1000000014901161193847656 is the float32 nearest 0.1; both readings give its bits
        assertEquals(Float.floatToRawIntBits(0.1f), Float.floatToRawIntBits(new Json.Number("0.1").float32()));
        assertEquals(Float.floatToRawIntBits((float) 0.4212963), Float.floatToRawIntBits(
            new Json.Number("0.4212963").float32()));
    }
}
