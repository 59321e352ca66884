package dicechess.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * File names as the Python kit maps them: a name is the UTF-8 bytes of its text, a lone surrogate U+DC80–U+DCFF
 * standing for the one byte 0x80–0xFF it escapes (Python's {@code surrogateescape}, with the UTF-8 file system
 * encoding Python uses under a C or POSIX locale too). The JVM maps a path string through {@code sun.jnu.encoding},
 * which follows the locale: under a C locale no non-ASCII name can be spelled, and in any locale a lone surrogate
 * cannot. Such a name is found instead by listing its parent directory and comparing each entry's raw bytes (a
 * listed entry carries them, and its {@code file:} URI spells them); a name no entry has is absent. A name whose text
 * holds a surrogate no byte maps from (U+D800–U+DC7F alone) names no file at all.
 */
final class FileNames {
    private FileNames() {
    }

    /** The bytes Python's {@code os.fsencode} gives for {@code name} on a UTF-8 file system, or null when none. */
    static byte[] encode(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            if (cp >= 0xDC80 && cp <= 0xDCFF) {
                out.write(cp - 0xDC00);
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                return null;
            } else {
                byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(utf8, 0, utf8.length);
            }
        }
        return out.toByteArray();
    }

    /** {@code bytes} as Python's {@code os.fsdecode} shows them: UTF-8, each byte of an invalid sequence escaped. */
    static String decode(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer chars = CharBuffer.allocate(bytes.length * 2 + 2);
        while (in.hasRemaining()) {
            var result = decoder.decode(in, chars, true);
            if (result.isError()) {
                chars.flip();
                out.append(chars);
                chars.clear();
                for (int k = 0; k < result.length(); k++) {
                    out.append((char) (0xDC00 + (in.get() & 0xFF)));
                }
            } else {
                break;
            }
        }
        decoder.flush(chars);
        chars.flip();
        out.append(chars);
        return out.toString();
    }

    /** {@code directory/name} ({@code name} one segment or a relative POSIX path), or null when no such file can
     * exist: a segment the JVM cannot spell that no entry of its directory has. */
    static Path child(Path directory, String name) {
        Path current = directory;
        for (String part : name.split("/", -1)) {
            current = segment(current, part);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    private static Path segment(Path directory, String part) {
        try {
            return directory.resolve(part);
        } catch (InvalidPathException ex) {
            byte[] wanted = encode(part);
            return wanted == null ? null : listed(directory, wanted);
        }
    }

    /** The entry of {@code directory} whose name is {@code wanted} byte for byte (null: none, or not listable). */
    private static Path listed(Path directory, byte[] wanted) {
        if (!Files.isDirectory(directory, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                if (Arrays.equals(rawName(entry), wanted)) {
                    return entry;
                }
            }
        } catch (IOException | RuntimeException ex) {
            return null;
        }
        return null;
    }

    /** The bytes of a listed entry's last name, read from its {@code file:} URI (which percent-escapes them). */
    static byte[] rawName(Path entry) {
        String raw = entry.toUri().getRawPath();
        if (raw.endsWith("/")) {
            raw = raw.substring(0, raw.length() - 1);
        }
        return unescape(raw.substring(raw.lastIndexOf('/') + 1));
    }

    private static byte[] unescape(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length()) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(utf8, 0, utf8.length);
            }
        }
        return out.toByteArray();
    }

    /** The path a command-line argument names, reached from the current directory or the root by its bytes, or null
     * when it cannot be reached that way (a segment that does not exist, or no bytes to go by). */
    static Path argument(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return null;
        }
        String text = decode(bytes);
        boolean absolute = text.startsWith("/");
        Path current = absolute ? Path.of("/") : Path.of(".");
        List<String> parts = new ArrayList<>();
        for (String part : text.split("/")) {
            if (!part.isEmpty() && !part.equals(".")) {
                parts.add(part);
            }
        }
        for (String part : parts) {
            current = segment(current, part);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    /**
     * The raw bytes of this process's last {@code count} command-line arguments (Linux {@code /proc/self/cmdline}),
     * each checked against the argument the JVM decoded from it; null when they cannot be had or do not match.
     */
    static List<byte[]> rawArguments(List<String> decoded) {
        byte[] all;
        try (InputStream in = Files.newInputStream(Path.of("/proc/self/cmdline"))) {
            all = in.readNBytes(1 << 20);
        } catch (IOException | RuntimeException ex) {
            return null;
        }
        List<byte[]> fields = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == 0) {
                fields.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        if (fields.size() < decoded.size()) {
            return null;
        }
        List<byte[]> last = fields.subList(fields.size() - decoded.size(), fields.size());
        Charset jnu = jnuCharset();
        for (int i = 0; i < decoded.size(); i++) {
            if (!new String(last.get(i), jnu).equals(decoded.get(i))) {
                return null;
            }
        }
        return List.copyOf(last);
    }

    /** Whether the JVM can spell {@code text} as a file name. */
    static boolean spellable(String text) {
        try {
            Path.of(text);
            return true;
        } catch (InvalidPathException ex) {
            return false;
        }
    }

    static Charset jnuCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException ex) {
            return Charset.defaultCharset();
        }
    }
}
