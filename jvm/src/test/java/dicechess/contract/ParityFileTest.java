package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parity file read as the Python kit reads it, and checked against the jar's kcp-13 vectors and its model. */
class ParityFileTest {
    @TempDir
    Path tmp;

    @Test
    void theJarsParityFileHoldsAndItsRowsAreTheKitsVectors() throws IOException, GoldenVectors.VectorException {
        ParityFile.Reading reading = ParityFile.load();
        assertEquals(List.of(), reading.problems());
        assertEquals(9, reading.probes().size());
        assertEquals("synthetic_kcp13_value_test_model.onnx", reading.model());
        GoldenVectors.VectorFile kit = GoldenVectors.load("kcp-13");
        for (ParityFile.Probe probe : reading.probes()) {
            float[] mine = kit.probe(probe.id()).features();
            for (int i = 0; i < mine.length; i++) {
                assertEquals(Float.floatToRawIntBits(mine[i]), Float.floatToRawIntBits(probe.features()[i]), probe.id());
            }
            assertTrue(probe.output() > 0 && probe.output() < 1, probe.id());
        }
    }

    @Test
    void theJarsParityFileDeclaresTheToleranceItsOutputsAreComparedWith() throws IOException {
        ParityFile.Reading reading = ParityFile.load();
        assertEquals("1.1.0", reading.formatVersion());
        ParityFile.Tolerance tolerance = reading.tolerance();
        assertEquals(1e-6, tolerance.absolute()); // the engine's Kcp13ParitySpec tolerance (spec/contract.md 8.2)
        assertEquals("1e-06", tolerance.text());
        assertTrue(tolerance.reason().contains("Kcp13ParitySpec"), tolerance.reason());
        assertFalse(tolerance.measuredOn().isEmpty());
        for (ParityFile.Measurement measured : tolerance.measuredOn()) {
            assertTrue(measured.runtime().startsWith("onnxruntime "), measured.runtime());
            assertTrue(measured.maxAbsoluteDifference() <= tolerance.absolute(), measured.runtime());
        }
        double output = reading.probes().get(0).output();
        assertTrue(tolerance.agrees(output + 9e-7, output));
        assertFalse(tolerance.agrees(output + 2e-6, output));
    }

    @Test
    void aFileWithoutAToleranceIsTheEnginesFormatAndReadsAsBefore() throws IOException {
        // the engine's recording (golden/recorded/manifests/), which predates formatVersion and the tolerance
        Path file = tmp.resolve("synthetic_kcp13_value_parity.json");
        Files.write(file, KitData.resource("golden/recorded/manifests/synthetic_kcp13_value_parity.json"));
        ParityFile.Reading reading = ParityFile.read(file, "p.json");
        assertEquals(List.of(), reading.problems());
        assertEquals(9, reading.probes().size());
        assertEquals("1.0.0", reading.formatVersion());
        assertNull(reading.tolerance());
        Files.writeString(file, new String(KitData.resource(ParityFile.KIT_FILE), StandardCharsets.UTF_8)
            .replace("\"absolute\": 1e-06", "\"absolute\": -1e-06"));
        assertEquals(List.of("p.json: tolerance/output/absolute: -1e-06 is less than the minimum of 0 "
            + "(schema/parity.schema.json)"), ParityFile.read(file, "p.json").problems());
    }

    @Test
    void aChangedFeatureIsNamedByProbeAndColumnWithBothBitPatterns() throws IOException {
        Path file = tmp.resolve("synthetic_kcp13_value_parity.json");
        String text = new String(KitData.resource(ParityFile.KIT_FILE), StandardCharsets.UTF_8);
        Files.writeString(file, text.replaceFirst("78\\.0", "78.5"));
        ParityFile.Reading reading = ParityFile.read(file, "p.json");
        assertEquals(List.of("p.json: probe start-w: column total_material: the file has 429d0000, the kit's kcp-13 "
            + "vector 429c0000"), reading.problems());
    }

    @Test
    void aModelBesideItWithAnotherDigestIsNamed() throws IOException {
        Path file = tmp.resolve("synthetic_kcp13_value_parity.json");
        Files.write(file, KitData.resource(ParityFile.KIT_FILE));
        Files.writeString(tmp.resolve("synthetic_kcp13_value_test_model.onnx"), "not the graph");
        ParityFile.Reading reading = ParityFile.read(file, "p.json");
        assertTrue(reading.modelChecked());
        assertEquals(1, reading.problems().size());
        assertTrue(reading.problems().get(0).startsWith("p.json: its model synthetic_kcp13_value_test_model.onnx has "
            + "SHA-256 "), reading.problems().get(0));
    }

    @Test
    void aFileThatBreaksTheSchemaGetsJsonschemasWordsInItsOrder() throws IOException {
        // the expected lines are what the Python kit's golden check (contract.golden.validation) printed for this file
        Path file = tmp.resolve("p.json");
        Files.writeString(file, "{\"schema\": \"kcp-13\", \"probes\": [{\"id\": \"x\", \"output\": 1.5, \"side\": \"z\", "
            + "\"fen\": \"8/8/8/8/8/8/8/8 w - -\", \"features\": [1, true]}], \"perspective\": \"side-to-move\", "
            + "\"model\": \"m.onnx\", \"modelSha256\": \"" + "0".repeat(64) + "\", \"generator\": \"\", \"runtime\": \"\", "
            + "\"featureSource\": \"\", \"columns\": []}");
        ParityFile.Reading reading = ParityFile.read(file, "p.json");
        assertFalse(reading.holds());
        String columns = "['p_diff', 'n_diff', 'b_diff', 'r_diff', 'q_diff', 'material_diff', 'total_material', "
            + "'mobility_diff', 'king_safety_diff', 'king_capture_attack', 'king_capture_danger', "
            + "'queen_capture_attack', 'queen_capture_danger'] was expected";
        assertEquals(List.of(
            "p.json: columns: " + columns + " (schema/parity.schema.json)",
            "p.json: probes/0/features: [1, True] is too short (schema/parity.schema.json)",
            "p.json: probes/0/features/1: True is not of type 'number' (schema/parity.schema.json)",
            "p.json: probes/0/output: 1.5 is greater than the maximum of 1 (schema/parity.schema.json)",
            "p.json: probes/0/side: 'z' is not one of ['w', 'b'] (schema/parity.schema.json)"), reading.problems());
        Files.writeString(file, "{\"a\": 1, \"a\": 2}");
        assertTrue(ParityFile.read(file, "p.json").problems().get(0).startsWith("p.json: not valid JSON"));
    }
}
