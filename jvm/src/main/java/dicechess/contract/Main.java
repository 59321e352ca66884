package dicechess.contract;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command: {@code java -jar dicechess-contract-jvm-VERSION.jar check DIR} (= {@code dicechess-contract vendor
 * --check DIR}) and {@code vectors SCHEMA} (each golden probe's vector as float32 bit patterns). Exit 0 matches, 1
 * differs or refused, 2 usage, 130 interrupted.
 */
public final class Main {
    static final int OK = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;
    static final String PROG = "dicechess-contract-jvm";
    static final String EXIT_CODES = "exit codes: 0 matches, 1 differs or refused (each problem named), 2 usage error, "
        + "130 interrupted";
    static final String USAGE_TEXT = "usage: " + PROG + " check DIR | vectors SCHEMA | parity FILE | verify DIR --public-key PUB.pem | --version | --help";

    /** Each command and the operands it takes, in the order the usage lists them. */
    static final Map<String, String> OPERANDS = new LinkedHashMap<>();

    static {
        OPERANDS.put("check", "DIR");
        OPERANDS.put("vectors", "SCHEMA");
        OPERANDS.put("parity", "FILE");
        OPERANDS.put("verify", "DIR --public-key PUB.pem");
    }

    private Main() {
    }

    static String commandUsage(String command) {
        return "usage: " + PROG + " " + command + " " + OPERANDS.get(command);
    }

    /** What is wrong with arguments no command takes, said as the kit's argparse says it (never a Java list). */
    static String usageProblem(List<String> args) {
        String commands = String.join(", ", OPERANDS.keySet());
        if (args.isEmpty()) {
            return "a command is required (choose from " + commands + ")";
        }
        String command = args.get(0);
        if (!OPERANDS.containsKey(command)) {
            return "invalid command " + PyRepr.repr(command) + " (choose from " + commands + ")";
        }
        List<String> given = args.subList(1, args.size());
        if (given.isEmpty()) {
            return command + ": the following arguments are required: "
                + OPERANDS.get(command).replace(" PUB.pem", "").replace(" ", ", ");
        }
        if (command.equals("verify")) {
            return "verify takes DIR --public-key PUB.pem; got " + String.join(" ", given);
        }
        return command + " takes one " + OPERANDS.get(command) + "; unrecognized arguments: "
            + String.join(" ", given.subList(1, given.size()));
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        List<String> arguments = List.of(args);
        int code;
        try {
            code = run(arguments, FileNames.rawArguments(arguments), out, err);
        } catch (RuntimeException ex) {  // never a stack trace: one line naming what failed
            err.println(PROG + ": internal error: " + ex);
            code = REFUSED;
        }
        System.exit(code);
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, null, out, err);
    }

    /** {@code raw}: the arguments' bytes as the process got them (null: unknown), for a name the JVM's file name
     * encoding cannot spell (any non-ASCII name under a C locale, invalid UTF-8 in any). */
    static int run(List<String> args, List<byte[]> raw, PrintStream out, PrintStream err) {
        if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
            out.println(USAGE_TEXT);
            out.println("  check DIR       check a vendored copy against its lock and this jar's kit (= vendor --check)");
            out.println("  vectors SCHEMA  print each golden probe's vector of SCHEMA as float32 bit patterns");
            out.println("  parity FILE     read a parity file (synthetic_kcp13_value_parity.json) and check what it says");
            out.println("  verify DIR --public-key PUB.pem");
            out.println("                  verify DIR/model.sig (OpenSSF model signing, OMS v1.0, key method) over DIR");
            out.println(EXIT_CODES);
            return OK;
        }
        if (args.size() == 1 && args.get(0).equals("--version")) {
            try {
                out.println(PROG + " " + VendorCheck.kitLock().kitVersion());
                return OK;
            } catch (IOException ex) {
                err.println(PROG + ": " + ex.getMessage());
                return REFUSED;
            }
        }
        if (args.size() == 2 && args.get(1).equals("--help") && OPERANDS.containsKey(args.get(0))) {
            out.println(commandUsage(args.get(0)));
            out.println(EXIT_CODES);
            return OK;
        }
        if (args.size() == 4 && args.get(0).equals("verify") && args.get(2).equals("--public-key")) {
            return verify(args.get(1), args.get(3), out);
        }
        if (args.size() != 2 || !List.of("check", "vectors", "parity").contains(args.get(0))) {
            boolean known = !args.isEmpty() && OPERANDS.containsKey(args.get(0));
            err.println(known ? commandUsage(args.get(0)) : USAGE_TEXT);
            err.println(Messages.consoleText(PROG + ": error: " + usageProblem(args)));
            return USAGE;
        }
        return switch (args.get(0)) {
            case "check" -> check(args.get(1), raw == null ? null : raw.get(1), out, err);
            case "parity" -> parity(args.get(1), out);
            default -> vectors(args.get(1), out, err);
        };
    }

    static int check(String argument, PrintStream out, PrintStream err) {
        return check(argument, null, out, err);
    }

    /** {@code vendor --check} of the directory {@code argument} names ({@code raw}: its bytes, when known). */
    static int check(String argument, byte[] raw, PrintStream out, PrintStream err) {
        boolean byBytes = argument.indexOf('\ufffd') >= 0 || !FileNames.spellable(argument);
        if (byBytes && raw == null) {
            out.println(Messages.say("line.checkRefused", "message", pythonPath(argument)
                + " cannot be named in this JVM's file name encoding " + FileNames.jnuCharset()
                + " (run java under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)"));
            return REFUSED;
        }
        String shown = pythonPath(byBytes ? FileNames.decode(raw) : argument);
        Path directory = byBytes ? FileNames.argument(raw) : Path.of(argument);
        if (directory == null) {
            out.println(Messages.say("line.checkRefused", "message",
                Messages.say("check.noDirectory", "directory", shown)));
            return REFUSED;
        }
        Lock kit;
        try {
            kit = VendorCheck.kitLock();
        } catch (IOException ex) {
            err.println(PROG + ": " + ex.getMessage());
            return REFUSED;
        }
        VendorCheck.Outcome outcome;
        try {
            outcome = VendorCheck.check(directory, shown, kit);
        } catch (java.io.UncheckedIOException ex) {
            err.println(PROG + ": " + ex.getMessage() + ": " + ex.getCause().getMessage());
            return REFUSED;
        }
        if (outcome.refusal() != null) {
            out.println(Messages.say("line.checkRefused", "message", outcome.refusal()));
            return REFUSED;
        }
        for (VendorCheck.Problem problem : outcome.problems()) {
            out.println(Messages.say("line.fail", "path", join(shown, problem.file()), "problem", problem.problem()));
        }
        if (!outcome.problems().isEmpty()) {
            out.println(Messages.say("line.summary", "count", outcome.problems().size(), "directory", shown));
            return REFUSED;
        }
        out.println(Messages.say("line.matches", "directory", shown));
        return OK;
    }

    static int vectors(String schema, PrintStream out, PrintStream err) {
        GoldenVectors.VectorFile file;
        try {
            file = GoldenVectors.load(schema);
        } catch (GoldenVectors.VectorException ex) {
            err.println(PROG + " vectors: " + ex.getMessage());
            return REFUSED;
        }
        for (GoldenVectors.Probe probe : file.probes()) {
            StringBuilder line = new StringBuilder(probe.id()).append('\t');
            for (float value : probe.features()) {
                line.append(String.format("%08x", Float.floatToRawIntBits(value)));
            }
            out.println(line);
        }
        return OK;
    }

    /** {@code parity FILE}: each probe (id, features as float32 bit patterns, output as float64 bit pattern) and one
     * line saying it holds (exit 0), or each problem and a count (exit 1). */
    static int parity(String argument, PrintStream out) {
        String shown = Messages.consoleText(pythonPath(argument));
        if (!FileNames.spellable(argument)) {
            out.println("parity: " + shown + " cannot be named in this JVM's file name encoding "
                + FileNames.jnuCharset() + " (run java under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)");
            return REFUSED;
        }
        ParityFile.Reading reading = ParityFile.read(Path.of(argument), shown);
        if (!reading.holds()) {
            reading.problems().forEach(problem -> out.println(Messages.consoleText(problem)));
            out.println("parity: " + reading.problems().size() + " problem(s) in " + shown);
            return REFUSED;
        }
        for (ParityFile.Probe probe : reading.probes()) {
            StringBuilder line = new StringBuilder(Messages.consoleText(probe.id())).append('\t');
            for (float value : probe.features()) {
                line.append(String.format("%08x", Float.floatToRawIntBits(value)));
            }
            out.println(line.append('\t').append(String.format("%016x", Double.doubleToRawLongBits(probe.output()))));
        }
        out.println("parity: " + shown + " holds: " + reading.probes().size()
            + " probes, each the kit's kcp-13 golden vector bit for bit; its model " + reading.model() + " "
            + (reading.modelChecked() ? "has the SHA-256 it states" : "is not beside it (its SHA-256 not checked)")
            + "; format " + reading.formatVersion() + ", " + (reading.tolerance() == null
                ? "no output tolerance declared"
                : "outputs to be compared within " + reading.tolerance().text() + " absolute"));
        return OK;
    }

    /** {@code verify DIR --public-key PUB.pem}: one line; exit 0 the signature holds, 1 it does not (a code and what is
     * wrong), 2 a key that cannot be used or a name this JVM cannot spell. */
    static int verify(String directory, String key, PrintStream out) {
        String shown = Messages.consoleText(pythonPath(directory));
        if (!FileNames.spellable(directory) || !FileNames.spellable(key)) {
            out.println("verify: " + shown + ": a name this JVM cannot spell in its file name encoding "
                + FileNames.jnuCharset() + " (run java under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)");
            return USAGE;
        }
        java.security.interfaces.ECPublicKey publicKey;
        try {
            publicKey = PackageSignature.publicKey(Path.of(key));
        } catch (PackageSignature.KeyException ex) {
            out.println("verify: " + Messages.consoleText(pythonPath(key)) + " " + ex.getMessage());
            return USAGE;
        }
        PackageSignature.Verdict verdict = PackageSignature.verify(Path.of(directory), publicKey);
        if (verdict.holds()) {
            out.println("verify: " + shown + ": OK: " + verdict.message());
            return OK;
        }
        out.println("verify: " + shown + ": FAIL " + verdict.code() + ": " + verdict.message());
        return REFUSED;
    }

    /** {@code directory / name} as pathlib joins them. */
    static String join(String directory, String name) {
        return directory.equals(".") ? name : directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    /** A path as Python's pathlib shows it: repeated slashes and '.' parts dropped, no trailing slash. */
    static String pythonPath(String text) {
        boolean absolute = text.startsWith("/");
        StringBuilder out = new StringBuilder(absolute ? "/" : "");
        for (String part : text.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (out.length() > (absolute ? 1 : 0)) {
                out.append('/');
            }
            out.append(part);
        }
        return out.length() == 0 ? "." : out.toString();
    }
}
