package dicechess.contract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A model package's signature checked with the JDK alone: {@code DIR/model.sig}, an OpenSSF model-signing (OMS v1.0)
 * bundle made by the key method — a Sigstore bundle ({@code application/vnd.dev.sigstore.bundle.v0.3+json}) holding a
 * DSSE envelope whose payload is an in-toto Statement v1 with predicate type
 * {@code https://model_signing/signature/v1.0}, listing each file's SHA-256 — signed with ECDSA on P-256 (SHA-256) or
 * P-384 (SHA-384). It holds when the envelope's signature verifies under the given public key, the bundle's key hint
 * (when present) is that key's, the statement's subject digest is the SHA-256 of its resources' digests in order,
 * every resource is a plain relative name inside DIR, listed once, whose file has that digest, and every regular file
 * of DIR but the signature is listed. Refused: a link or a special file in DIR, a bundle over 16 MiB, not JSON, of
 * another media or payload type, without exactly one signature, a statement of another type, an empty file set.
 * Nothing is written. The codes and messages are the Python kit's check table's {@code signature} family
 * (schema/check-table.json; docs/signing.md).
 */
public final class PackageSignature {
    /** The signature's name inside the package. */
    public static final String SIGNATURE = "model.sig";
    static final String BUNDLE_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json";
    static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";
    static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
    static final String PREDICATE_TYPE = "https://model_signing/signature/v1.0";
    static final int MAX_BUNDLE = 16 * 1024 * 1024;
    static final int MAX_KEY = 64 * 1024;
    static final int MAX_FILES = 100_000;

    /** Why the signature does not hold: a stable code and one line (null code: it holds, the line says what). */
    public record Verdict(String code, String message, int files) {
        public boolean holds() {
            return code == null;
        }
    }

    /** A public key that cannot be used: not readable, not PEM, not EC, or of a curve the method does not sign with. */
    public static final class KeyException extends Exception {
        private static final long serialVersionUID = 1L;

        KeyException(String message) {
            super(message);
        }
    }

    private PackageSignature() {
    }

    /** The EC public key of a PEM file ({@code -----BEGIN PUBLIC KEY-----}, SubjectPublicKeyInfo), P-256 or P-384. */
    public static ECPublicKey publicKey(Path pem) throws KeyException {
        byte[] data;
        try (InputStream in = Files.newInputStream(pem)) {
            data = in.readNBytes(MAX_KEY + 1);
        } catch (IOException ex) {
            throw new KeyException("cannot be read (" + ex.getMessage() + ")");
        }
        if (data.length > MAX_KEY) {
            throw new KeyException("larger than " + MAX_KEY + " bytes: not a public key");
        }
        String text = new String(data, StandardCharsets.US_ASCII);
        int begin = text.indexOf("-----BEGIN PUBLIC KEY-----");
        int end = text.indexOf("-----END PUBLIC KEY-----");
        if (begin < 0 || end < begin) {
            throw new KeyException("is not a PEM public key (no -----BEGIN PUBLIC KEY----- block)");
        }
        PublicKey key;
        try {
            byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + 26, end));
            key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
        } catch (IllegalArgumentException | GeneralSecurityException ex) {
            throw new KeyException("is not an elliptic-curve public key this JVM reads (" + ex.getMessage() + ")");
        }
        if (!(key instanceof ECPublicKey ec) || curve(ec) == null) {
            throw new KeyException("is not a P-256 or P-384 key (the key method signs with those)");
        }
        return ec;
    }

    /** "secp256r1" or "secp384r1" when the key is on that curve, else null. */
    static String curve(ECPublicKey key) {
        for (String name : List.of("secp256r1", "secp384r1")) {
            try {
                AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
                parameters.init(new ECGenParameterSpec(name));
                ECParameterSpec spec = parameters.getParameterSpec(ECParameterSpec.class);
                ECParameterSpec mine = key.getParams();
                if (spec.getCurve().equals(mine.getCurve()) && spec.getGenerator().equals(mine.getGenerator())
                        && spec.getOrder().equals(mine.getOrder())) {
                    return name;
                }
            } catch (GeneralSecurityException ex) {
                return null;
            }
        }
        return null;
    }

    /** The key hint model-signing records: the SHA-256 of the key's PEM text as it writes it. */
    static String hint(ECPublicKey key) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded());
        String pem = "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n";
        return HexFormat.of().formatHex(sha256(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    /** The package in {@code directory} checked against its {@code model.sig} and {@code key}. */
    public static Verdict verify(Path directory, ECPublicKey key) {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return fail("signature.package.notDirectory", "is not a directory (or is a symbolic link)");
        }
        Path bundlePath = directory.resolve(SIGNATURE);
        if (!Files.exists(bundlePath, LinkOption.NOFOLLOW_LINKS)) {
            return fail("signature.missing", SIGNATURE + " is missing: the package is not signed");
        }
        if (!Files.isRegularFile(bundlePath, LinkOption.NOFOLLOW_LINKS)) {
            return fail("signature.notFile", SIGNATURE + " is not a regular file");
        }
        Object statement;
        try {
            statement = statement(bundlePath, key);
        } catch (Refused refused) {
            return fail(refused.code, refused.getMessage());
        }
        Map<?, ?> doc = (Map<?, ?>) statement;
        Map<String, String> resources;
        try {
            resources = resources(doc);
        } catch (Refused refused) {
            return fail(refused.code, refused.getMessage());
        }
        TreeSet<String> present = new TreeSet<>(SchemaSubset::codePointCompare);
        String[] walkProblem = walk(directory, present);
        if (walkProblem != null) {
            return fail(walkProblem[0], walkProblem[1]);
        }
        present.remove(SIGNATURE);
        for (Map.Entry<String, String> resource : resources.entrySet()) {
            String name = resource.getKey();
            if (!present.contains(name)) {
                return fail("signature.coveredMissing", Messages.consoleText(name) + " is signed but missing");
            }
            String actual;
            try {
                actual = Lock.sha256(FileNames.child(directory, name));
            } catch (IOException ex) {
                return fail("signature.fileUnreadable", Messages.consoleText(name) + " cannot be read (" + ex.getMessage()
                    + ")");
            }
            if (!actual.equals(resource.getValue())) {
                return fail("signature.fileChanged", Messages.consoleText(name)
                    + " changed since it was signed (its SHA-256 is not the signed one)");
            }
        }
        for (String name : present) {
            if (!resources.containsKey(name)) {
                return fail("signature.notCovered", Messages.consoleText(name) + " is in the package but not signed");
            }
        }
        return new Verdict(null, resources.size() + " file(s) signed by the key (" + curve(key) + ")",
            resources.size());
    }

    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        Refused(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    /** The signed in-toto statement of the bundle, once its signature verifies under {@code key}. */
    private static Object statement(Path bundlePath, ECPublicKey key) throws Refused {
        byte[] data;
        try (InputStream in = Files.newInputStream(bundlePath, LinkOption.NOFOLLOW_LINKS)) {
            data = in.readNBytes(MAX_BUNDLE + 1);
        } catch (IOException ex) {
            throw new Refused("signature.unreadable", SIGNATURE + " cannot be read (" + ex.getMessage() + ")");
        }
        if (data.length > MAX_BUNDLE) {
            throw new Refused("signature.tooLarge", SIGNATURE + " is larger than " + MAX_BUNDLE + " bytes");
        }
        Object bundle = json(data, SIGNATURE, "signature.notJson");
        if (!(bundle instanceof Map<?, ?> doc) || !BUNDLE_TYPE.equals(doc.get("mediaType"))) {
            throw new Refused("signature.notBundle", SIGNATURE + " is not a Sigstore bundle (mediaType "
                + BUNDLE_TYPE + ")");
        }
        if (doc.get("verificationMaterial") instanceof Map<?, ?> material
                && material.get("publicKey") instanceof Map<?, ?> publicKey
                && publicKey.get("hint") instanceof String hint && !hint.isEmpty() && !hint.equals(hint(key))) {
            throw new Refused("signature.otherKey", SIGNATURE + " was made with another key (its key hint is not "
                + "this key's)");
        }
        if (!(doc.get("dsseEnvelope") instanceof Map<?, ?> envelope)
                || !(envelope.get("payload") instanceof String payloadText)
                || !PAYLOAD_TYPE.equals(envelope.get("payloadType"))
                || !(envelope.get("signatures") instanceof List<?> signatures) || signatures.size() != 1
                || !(signatures.get(0) instanceof Map<?, ?> signature)
                || !(signature.get("sig") instanceof String sigText)) {
            throw new Refused("signature.noEnvelope", SIGNATURE + " holds no DSSE envelope of an in-toto statement with "
                + "exactly one signature");
        }
        byte[] payload;
        byte[] sig;
        try {
            payload = Base64.getDecoder().decode(payloadText);
            sig = Base64.getDecoder().decode(sigText);
        } catch (IllegalArgumentException ex) {
            throw new Refused("signature.notBase64", SIGNATURE + ": its payload or signature is not base64");
        }
        boolean valid;
        try {
            Signature verifier = Signature.getInstance("secp384r1".equals(curve(key)) ? "SHA384withECDSA"
                : "SHA256withECDSA");
            verifier.initVerify(key);
            verifier.update(pae(PAYLOAD_TYPE, payload));
            valid = verifier.verify(sig);
        } catch (GeneralSecurityException ex) {
            valid = false;
        }
        if (!valid) {
            throw new Refused("signature.notVerified", SIGNATURE + " does not verify under this key (another key, or an "
                + "edited signature)");
        }
        Object statement = json(payload, SIGNATURE + "'s statement", "signature.statementNotJson");
        if (!(statement instanceof Map<?, ?> doc2) || !STATEMENT_TYPE.equals(doc2.get("_type"))
                || !PREDICATE_TYPE.equals(doc2.get("predicateType"))) {
            throw new Refused("signature.notStatement", SIGNATURE + "'s statement is not an in-toto Statement v1 of "
                + PREDICATE_TYPE);
        }
        return statement;
    }

    private static Object json(byte[] data, String what, String code) throws Refused {
        try {
            return Json.parseUtf8(data);
        } catch (Json.JsonException ex) {
            throw new Refused(code, what + " is " + ex.getMessage());
        }
    }

    /** The signed files: name -> lowercase hex SHA-256, checked against the subject's digest. */
    private static Map<String, String> resources(Map<?, ?> statement) throws Refused {
        if (!(statement.get("predicate") instanceof Map<?, ?> predicate)
                || !(predicate.get("resources") instanceof List<?> list)
                || !(statement.get("subject") instanceof List<?> subjects) || subjects.size() != 1
                || !(subjects.get(0) instanceof Map<?, ?> subject)
                || !(subject.get("digest") instanceof Map<?, ?> subjectDigest)
                || !(subjectDigest.get("sha256") instanceof String rootDigest)) {
            throw new Refused("signature.noResources", SIGNATURE + "'s statement has no resources or no one subject "
                + "with a sha256 digest");
        }
        if (list.isEmpty()) {
            throw new Refused("signature.emptySet", SIGNATURE + " signs an empty set of files");
        }
        Map<String, String> resources = new LinkedHashMap<>();
        MessageDigest root = digest();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> resource) || !(resource.get("name") instanceof String name)
                    || !"sha256".equals(resource.get("algorithm")) || !(resource.get("digest") instanceof String hex)
                    || !hex.matches("[0-9a-f]{64}")) {
                throw new Refused("signature.badResource", SIGNATURE + "'s statement lists a resource without a name "
                    + "and a sha256 digest");
            }
            String problem = nameProblem(name);
            if (problem != null) {
                throw new Refused("signature.pathOutside", SIGNATURE + " names " + PyRepr.repr(name) + ", " + problem);
            }
            if (resources.put(name, hex) != null) {
                throw new Refused("signature.duplicate", SIGNATURE + " lists " + PyRepr.repr(name) + " twice");
            }
            root.update(HexFormat.of().parseHex(hex));
        }
        if (!HexFormat.of().formatHex(root.digest()).equals(rootDigest)) {
            throw new Refused("signature.subjectDigest", SIGNATURE + "'s subject digest is not the digest of its "
                + "resources");
        }
        return resources;
    }

    /** Why a signed name is not a plain relative POSIX name inside the package (null: it is). */
    static String nameProblem(String name) {
        if (name.isEmpty() || name.startsWith("/")) {
            return "which is not a relative path inside the package";
        }
        if (name.indexOf('\\') >= 0 || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "which holds a backslash or a control character";
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return "a path leaving the package or with an empty, '.' or '..' part";
            }
        }
        return null;
    }

    /** Every regular file under {@code directory} (relative POSIX names) into {@code out}; why it cannot be (a link,
     * a special file, too many files), or null. */
    private static String[] walk(Path directory, TreeSet<String> out) {
        String[] problem = new String[2];
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String name = Lock.posix(directory.relativize(file));
                    if (attributes.isSymbolicLink()) {
                        problem[0] = "signature.package.link";
                        problem[1] = Messages.consoleText(name) + " is a symbolic link (a signed package holds none)";
                    } else if (!attributes.isRegularFile()) {
                        problem[0] = "signature.package.special";
                        problem[1] = Messages.consoleText(name)
                            + " is a special file (a signed package holds regular files only)";
                    } else if (out.size() >= MAX_FILES) {
                        problem[0] = "signature.package.tooMany";
                        problem[1] = "more than " + MAX_FILES + " files";
                    } else {
                        out.add(name);
                        return FileVisitResult.CONTINUE;
                    }
                    return FileVisitResult.TERMINATE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException ex) {
                    problem[0] = "signature.package.unlistable";
                    problem[1] = Messages.consoleText(Lock.posix(directory.relativize(file))) + " cannot be listed ("
                        + ex.getMessage() + ")";
                    return FileVisitResult.TERMINATE;
                }
            });
        } catch (IOException ex) {
            return new String[] {"signature.package.unlistable", ". cannot be listed (" + ex.getMessage() + ")"};
        }
        return problem[0] == null ? null : problem;
    }

    /** DSSE's pre-authentication encoding of a payload. */
    static byte[] pae(String type, byte[] payload) {
        byte[] head = ("DSSEv1 " + type.getBytes(StandardCharsets.UTF_8).length + " " + type + " " + payload.length
            + " ").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + payload.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(payload, 0, out, head.length, payload.length);
        return out;
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static byte[] sha256(byte[] data) {
        return digest().digest(data);
    }

    private static Verdict fail(String code, String message) {
        return new Verdict(code, message, 0);
    }
}
