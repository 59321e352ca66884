package dicechess.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify DIR --public-key PUB.pem} on packages the OpenSSF reference signer signed (recorded in
 * {@code src/test/resources/signed/}, its verdicts in the README there), and on hostile statements signed here.
 */
class PackageSignatureTest {
    @TempDir
    Path tmp;

    static Path resource(String name) {
        try {
            return Path.of(PackageSignatureTest.class.getClassLoader().getResource("signed/" + name).toURI());
        } catch (URISyntaxException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The example package plus the recorded card and signature of {@code which} (p256 or p384), in a fresh copy. */
    Path signed(String which) throws IOException {
        Path copy = Files.createDirectories(tmp.resolve(which + "-" + System.nanoTime()));
        for (String name : List.of("model.onnx", "manifest.json")) {
            Files.copy(Data.root().resolve("golden/example-package/" + name), copy.resolve(name));
        }
        for (String name : List.of("model-card.md", "model.sig")) {
            Files.copy(resource(which + "/" + name), copy.resolve(name));
        }
        return copy;
    }

    static int run(List<String> args, StringBuilder printed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        printed.append(out.toString(StandardCharsets.UTF_8));
        return code;
    }

    static String verify(Path directory, String key, int expected) {
        StringBuilder printed = new StringBuilder();
        int code = run(List.of("verify", directory.toString(), "--public-key", resource("keys/" + key).toString()),
            printed);
        assertEquals(expected, code, printed.toString());
        assertEquals(1, printed.toString().split("\n").length, printed.toString());
        return printed.toString().strip();
    }

    @Test
    void theReferenceSignersPackagesVerifyAndEveryTamperingIsNamed() throws IOException {
        assertTrue(verify(signed("p256"), "p256.pub.pem", 0).endsWith(": OK: 3 file(s) signed by the key (secp256r1)"));
        assertTrue(verify(signed("p384"), "p384.pub.pem", 0).endsWith(": OK: 3 file(s) signed by the key (secp384r1)"));
        assertTrue(verify(signed("p256"), "other-p256.pub.pem", 1).contains("FAIL signature.otherKey: "));
        assertTrue(verify(signed("p384"), "p256.pub.pem", 1).contains("FAIL signature.otherKey: "));
        for (String name : List.of("manifest.json", "model.onnx", "model-card.md")) {
            Path copy = signed("p256");
            Files.write(copy.resolve(name), new byte[] {'x'}, java.nio.file.StandardOpenOption.APPEND);
            assertTrue(verify(copy, "p256.pub.pem", 1).endsWith("FAIL signature.fileChanged: " + name
                + " changed since it was signed (its SHA-256 is not the signed one)"));
        }
        Path added = signed("p256");
        Files.writeString(added.resolve("extra.txt"), "extra\n");
        assertTrue(verify(added, "p256.pub.pem", 1).endsWith(
            "FAIL signature.notCovered: extra.txt is in the package but not signed"));
        Path removed = signed("p256");
        Files.delete(removed.resolve("model-card.md"));
        assertTrue(verify(removed, "p256.pub.pem", 1).endsWith(
            "FAIL signature.coveredMissing: model-card.md is signed but missing"));
        Path unsigned = signed("p256");
        Files.delete(unsigned.resolve("model.sig"));
        assertTrue(verify(unsigned, "p256.pub.pem", 1).contains("FAIL signature.missing: "));
        Path linked = signed("p256");
        Files.createSymbolicLink(linked.resolve("link.onnx"), linked.resolve("model.onnx"));
        assertTrue(verify(linked, "p256.pub.pem", 1).contains("FAIL signature.package.link: link.onnx is a symbolic link"));
    }

    @Test
    void aKeyOfAnotherCurveOrKindOrNoKeyIsOneLineExitTwo() throws IOException {
        Path copy = signed("p256");
        assertTrue(verify(copy, "p521.pub.pem", 2).contains("is not a P-256 or P-384 key"));
        assertTrue(verify(copy, "ed25519.pub.pem", 2).contains("is not an elliptic-curve public key"));
        Path notKey = tmp.resolve("not-a-key.pem");
        Files.writeString(notKey, "hello\n");
        assertThrows(PackageSignature.KeyException.class, () -> PackageSignature.publicKey(notKey));
        assertThrows(PackageSignature.KeyException.class, () -> PackageSignature.publicKey(tmp.resolve("none.pem")));
        assertEquals(2, run(List.of("verify", copy.toString()), new StringBuilder()));
    }

    /** A bundle over {@code resources} signed here with {@code pair} (the reference's layout and PAE). */
    static String bundle(KeyPair pair, List<Map<String, Object>> resources, String rootDigest)
            throws GeneralSecurityException {
        Map<String, Object> statement = new LinkedHashMap<>();
        statement.put("_type", PackageSignature.STATEMENT_TYPE);
        statement.put("subject", List.of(Map.of("name", "pkg", "digest", Map.of("sha256", rootDigest))));
        statement.put("predicateType", PackageSignature.PREDICATE_TYPE);
        statement.put("predicate", Map.of("resources", resources, "serialization", Map.of("method", "files")));
        byte[] payload = Json.write(statement).getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(pair.getPrivate());
        signer.update(PackageSignature.pae(PackageSignature.PAYLOAD_TYPE, payload));
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("payload", Base64.getEncoder().encodeToString(payload));
        envelope.put("payloadType", PackageSignature.PAYLOAD_TYPE);
        envelope.put("signatures", List.of(Map.of("sig", Base64.getEncoder().encodeToString(signer.sign()))));
        Map<String, Object> bundle = new LinkedHashMap<>();
        bundle.put("mediaType", PackageSignature.BUNDLE_TYPE);
        bundle.put("verificationMaterial", Map.of("publicKey", Map.of("hint",
            PackageSignature.hint((ECPublicKey) pair.getPublic())), "tlogEntries", List.of()));
        bundle.put("dsseEnvelope", envelope);
        return Json.write(bundle);
    }

    static Map<String, Object> resource(String name, String digest) {
        return Map.of("name", name, "algorithm", "sha256", "digest", digest);
    }

    static String root(List<String> digests) throws GeneralSecurityException {
        MessageDigest root = MessageDigest.getInstance("SHA-256");
        digests.forEach(d -> root.update(HexFormat.of().parseHex(d)));
        return HexFormat.of().formatHex(root.digest());
    }

    @Test
    void aHostileStatementIsRefusedInOneLine() throws IOException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = generator.generateKeyPair();
        ECPublicKey key = (ECPublicKey) pair.getPublic();
        Path copy = Files.createDirectories(tmp.resolve("pkg"));
        Files.writeString(copy.resolve("a.txt"), "a");
        String a = Lock.sha256(copy.resolve("a.txt"));
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("signature.pathOutside", bundle(pair, List.of(resource("a.txt", a), resource("../x", a)),
            root(List.of(a, a))));
        cases.put("signature.pathOutside ", bundle(pair, List.of(resource("/etc/passwd", a)), root(List.of(a))));
        cases.put("signature.duplicate", bundle(pair, List.of(resource("a.txt", a), resource("a.txt", a)),
            root(List.of(a, a))));
        cases.put("signature.emptySet", bundle(pair, List.of(), root(List.of())));
        cases.put("signature.subjectDigest", bundle(pair, List.of(resource("a.txt", a)), root(List.of(a, a))));
        cases.put("signature.notJson", "not json");
        cases.put("signature.notJson ", "[" .repeat(100) + "]".repeat(100));
        cases.put("signature.notBundle", bundle(pair, List.of(resource("a.txt", a)), root(List.of(a)))
            .replace(PackageSignature.BUNDLE_TYPE, "application/json"));
        for (Map.Entry<String, String> entry : cases.entrySet()) {
            Files.writeString(copy.resolve("model.sig"), entry.getValue());
            PackageSignature.Verdict verdict = PackageSignature.verify(copy, key);
            assertEquals(entry.getKey().strip(), verdict.code(), verdict.message());
        }
        Files.writeString(copy.resolve("model.sig"), bundle(pair, List.of(resource("a.txt", a)), root(List.of(a))));
        assertTrue(PackageSignature.verify(copy, key).holds());
        byte[] huge = new byte[PackageSignature.MAX_BUNDLE + 1];
        Files.write(copy.resolve("model.sig"), huge);
        assertEquals("signature.tooLarge", PackageSignature.verify(copy, key).code());
    }
}
