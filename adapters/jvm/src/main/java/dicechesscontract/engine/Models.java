// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import com.google.gson.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The {@code engine-compatibility}, {@code manifest} and {@code tensor-contract} kinds, through the engine's
 * {@code dicechess.engine.model} package ({@code ModelManifest}, {@code ModelPackage}, {@code ModelRole},
 * {@code OnnxModelContract}). Releases without that package answer {@code unsupported}.
 */
final class Models {
    private static final String MODEL = "dicechess.engine.model.";

    private Models() {}

    record Verdict(String outcome, String message) {}

    /**
     * engine-compatibility: the engine's grammar is private ({@code EngineCompatibility}); its public door is
     * {@code ModelManifest.validate}, whose last check it is. So a manifest valid in every other field carries the
     * constraint, and the engine's message is mapped to the protocol's outcome by its fixed wording.
     */
    static Verdict compatibility(String constraint, String engineVersion) throws Scala.Missing {
        JsonObject probe = new JsonObject();
        probe.addProperty("manifestVersion", "1.1.0");
        probe.addProperty("modelId", "conformance-probe");
        probe.addProperty("modelSha256", "0".repeat(64));
        probe.addProperty("modelRole", "position-value");
        probe.addProperty("featureSchema", "kcp-13");
        probe.addProperty("featureCount", 13);
        probe.addProperty("perspective", "side-to-move");
        probe.addProperty("engineCompatibility", constraint);
        Object manifests = Scala.module(MODEL + "ModelManifest");
        Scala.Outcome parsed = Scala.either(
                Scala.call(manifests, "parse", new Class<?>[] {String.class}, probe.toString()));
        if (!parsed.ok()) {
            throw new IllegalStateException("the engine refused the probe manifest: " + parsed.error());
        }
        Class<?> manifestType = Scala.type(MODEL + "ModelManifest");
        Scala.Outcome checked = Scala.either(Scala.call(manifests, "validate",
                new Class<?>[] {manifestType, String.class}, parsed.value(), engineVersion));
        if (checked.ok()) {
            return new Verdict("satisfied", null);
        }
        String message = checked.error();
        if (message.startsWith("invalid engine version: ")) {
            return new Verdict("invalid-engine-version", message);
        }
        if (message.equals("engineCompatibility must not be blank")) {
            return new Verdict("blank", message);
        }
        if (message.startsWith("invalid engineCompatibility ")) {
            return new Verdict("invalid-constraint", message);
        }
        if (message.startsWith("engineCompatibility ") && message.contains(" does not include engine version ")) {
            return new Verdict("excluded", message);
        }
        throw new IllegalStateException("the engine refused the probe manifest for another reason: " + message);
    }

    /**
     * manifest: {@code ModelPackage.loadFiles(model, manifest, engineVersion, expectedRole)} on a temporary package.
     * Its last step is the model file's digest, which no manifest case is about: a refusal there means every manifest
     * check passed (accepted). Every other refusal loses the path prefix loadFiles adds.
     */
    static Verdict manifest(String text, String engineVersion, String expectedRole) throws Scala.Missing, IOException {
        Object packages = Scala.module(MODEL + "ModelPackage");
        Object role = null;
        if (expectedRole != null) {
            Scala.Outcome found = Scala.either(Scala.call(Scala.module(MODEL + "ModelRole"), "find",
                    new Class<?>[] {String.class}, expectedRole));
            if (!found.ok()) {
                throw new IllegalArgumentException("the engine has no role '" + expectedRole + "': " + found.error());
            }
            role = found.value();
        }
        Path directory = Files.createTempDirectory("dicechess-conformance-");
        try {
            Path manifestPath = directory.resolve("manifest.json");
            Path modelPath = directory.resolve("model.onnx");
            Files.write(manifestPath, ManifestBytes.of(text)); // the case's bytes, not re-encoded text
            Files.write(modelPath, new byte[0]);
            Scala.Outcome loaded = Scala.either(Scala.call(packages, "loadFiles",
                    new Class<?>[] {Path.class, Path.class, String.class, Scala.type("scala.Option")},
                    modelPath, manifestPath, engineVersion, Scala.option(role)));
            if (loaded.ok() || loaded.error().startsWith(modelPath + ": model SHA-256 mismatch")) {
                return new Verdict("accepted", null);
            }
            return new Verdict("refused", withoutPrefix(loaded.error(), manifestPath + ": "));
        } finally {
            delete(directory);
        }
    }

    /** tensor-contract: onnxruntime opens the graph, then {@code OnnxModelContract.validate(session, manifest)}. */
    static Verdict tensorContract(String graph, String manifestText) throws Scala.Missing {
        Object manifests = Scala.module(MODEL + "ModelManifest");
        Scala.Outcome parsed = Scala.either(
                Scala.call(manifests, "parse", new Class<?>[] {String.class}, manifestText));
        if (!parsed.ok()) {
            throw new IllegalArgumentException("the engine refused the case's manifest: " + parsed.error());
        }
        Object contract = Scala.module(MODEL + "OnnxModelContract");
        Class<?> sessionType = Scala.type("ai.onnxruntime.OrtSession");
        try (AutoCloseable session = Onnx.open(graph)) {
            Scala.Outcome checked = Scala.either(Scala.call(contract, "validate",
                    new Class<?>[] {sessionType, Scala.type(MODEL + "ModelManifest")}, session, parsed.value()));
            return checked.ok() ? new Verdict("accepted", null) : new Verdict("refused", checked.error());
        } catch (Scala.Missing | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing the onnxruntime session failed: " + e.getMessage(), e);
        }
    }

    private static String withoutPrefix(String message, String prefix) {
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
