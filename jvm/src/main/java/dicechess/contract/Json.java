package dicechess.contract;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259) for the contract's own files: objects keep their key order and refuse a repeated
 * key, numbers keep their text ({@link Number}) and must fit in a double, nesting is limited to {@link #MAX_DEPTH}. A
 * text that is not such a
 * JSON value raises {@link JsonException} with the offset of the problem.
 */
public final class Json {
    /** More nested arrays and objects than this are refused, as contract/core/strictjson.py refuses them. */
    public static final int MAX_DEPTH = 64;

    /** A JSON number, kept as its text. */
    public record Number(String text) {
        /** The value the golden files mean: the text read as a double, then rounded to float32. */
        public float float32() {
            return (float) Double.parseDouble(text);
        }

        /** The number the Python kit's reader makes of the text, exactly: an integer literal as that integer, any
         * other (a fraction or an exponent) as the double it rounds to, so {@code 1.0000000000000001} is 1. */
        public java.math.BigDecimal value() {
            return PyRepr.isInteger(text) ? new java.math.BigDecimal(text)
                : new java.math.BigDecimal(Double.parseDouble(text));
        }
    }

    /** A text that is not valid JSON. */
    public static final class JsonException extends Exception {
        private static final long serialVersionUID = 1L;

        JsonException(String message) {
            super(message);
        }
    }

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /**
     * The value of UTF-8 {@code data}, refused as contract/core/strictjson.py refuses bytes, with its texts: a
     * byte-order mark, bytes that are not UTF-8 (the offset of the first), nesting deeper than {@link #MAX_DEPTH}
     * (the offset of the first bracket too many), then everything {@link #parse} refuses.
     */
    public static Object parseUtf8(byte[] data) throws JsonException {
        if (data.length >= 3 && (data[0] & 0xff) == 0xef && (data[1] & 0xff) == 0xbb && (data[2] & 0xff) == 0xbf) {
            throw new JsonException("not valid JSON: starts with a UTF-8 byte-order mark");
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(data);
        CharBuffer out = CharBuffer.allocate(data.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new JsonException("not valid JSON: not UTF-8 text (byte " + in.position() + ")");
        }
        String text = out.flip().toString();
        checkDepth(text);
        return parse(text);
    }

    /** Python's pre-scan: brackets outside strings counted, the offset in characters (code points). */
    private static void checkDepth(String text) throws JsonException {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        int index = 0;
        for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i)), index++) {
            int c = text.codePointAt(i);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                if (++depth > MAX_DEPTH) {
                    throw new JsonException("not valid JSON: nesting deeper than " + MAX_DEPTH + " levels at character "
                        + index);
                }
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
    }

    /** The value of {@code text}: a Map (insertion order), List, String, Number, Boolean or null. */
    public static Object parse(String text) throws JsonException {
        Json reader = new Json(text);
        reader.space();
        Object value = reader.value(0);
        reader.space();
        if (reader.at != text.length()) {
            throw reader.error("unexpected text after the JSON value");
        }
        return value;
    }

    private JsonException error(String what) {
        return new JsonException("not valid JSON: " + what + " at " + at);
    }

    private void space() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private Object value(int depth) throws JsonException {
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{':
                nest(depth);
                return object(depth);
            case '[':
                nest(depth);
                return array(depth);
            case '"':
                return string();
            case 't':
                return word("true", Boolean.TRUE);
            case 'f':
                return word("false", Boolean.FALSE);
            case 'n':
                return word("null", null);
            default:
                return number();
        }
    }

    /** A container inside {@code depth} others: refused past {@link #MAX_DEPTH} (the Python kit's limit). */
    private void nest(int depth) throws JsonException {
        if (depth + 1 > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
    }

    private Object word(String word, Object value) throws JsonException {
        if (!text.startsWith(word, at)) {
            throw error("unexpected character");
        }
        at += word.length();
        return value;
    }

    private Map<String, Object> object(int depth) throws JsonException {
        Map<String, Object> map = new LinkedHashMap<>();
        String repeated = null;
        at++;
        space();
        if (at < text.length() && text.charAt(at) == '}') {
            at++;
            return Collections.unmodifiableMap(map);
        }
        while (true) {
            space();
            if (at >= text.length() || text.charAt(at) != '"') {
                throw error("expected a string key");
            }
            String key = string();
            space();
            expect(':');
            space();
            Object value = value(depth + 1);
            if (map.containsKey(key)) {
                repeated = repeated == null ? key : repeated;
            } else {
                map.put(key, value);
            }
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect('}');
            if (repeated != null) {  // when the object is whole, as Python's object_pairs_hook sees it
                throw new JsonException("not valid JSON: duplicate key " + PyRepr.string(repeated));
            }
            return Collections.unmodifiableMap(map);
        }
    }

    private List<Object> array(int depth) throws JsonException {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (at < text.length() && text.charAt(at) == ']') {
            at++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            space();
            list.add(value(depth + 1));
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect(']');
            return Collections.unmodifiableList(list);
        }
    }

    private void expect(char c) throws JsonException {
        if (at >= text.length() || text.charAt(at) != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private String string() throws JsonException {
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("unterminated escape");
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    String hex = text.substring(at, at + 4);
                    if (!hex.chars().allMatch(h -> Character.digit(h, 16) >= 0 && h < 0x80)) {
                        throw error("bad \\u escape");
                    }
                    out.append((char) Integer.parseInt(hex, 16));
                    at += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Number number() throws JsonException {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') {
            at++;
        }
        if (at < text.length() && text.charAt(at) == '0') {
            at++;
        } else if (!digits()) {
            at = start;
            throw error("unexpected character");
        }
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            if (!digits()) {
                throw error("a fraction needs digits");
            }
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            if (!digits()) {
                throw error("an exponent needs digits");
            }
        }
        String literal = text.substring(start, at);
        if (Double.isInfinite(Double.parseDouble(literal))) {
            throw new JsonException("not valid JSON: number " + literal + " does not fit in a 64-bit float");
        }
        return new Number(literal);
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at > start;
    }

    /** {@code value} as JSON text in the layout of Python's {@code json.dumps(indent=2, ensure_ascii=False)}. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int depth) {
        String pad = "  ".repeat(depth + 1);
        String close = "  ".repeat(depth);
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(pad);
                quote(out, String.valueOf(entry.getKey()));
                out.append(": ");
                write(out, entry.getValue(), depth + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(close).append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(pad);
                write(out, list.get(i), depth + 1);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(close).append(']');
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Number n) {
            out.append(n.text());
        } else if (value instanceof Integer || value instanceof Long || value instanceof Boolean) {
            out.append(value);
        } else if (value == null) {
            out.append("null");
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /** {@code value} as Python's {@code json.dumps(value, ensure_ascii=False)} writes it (one line). */
    public static String dumps(Object value) {
        StringBuilder out = new StringBuilder();
        dumps(out, value);
        return out.toString();
    }

    private static void dumps(StringBuilder out, Object value) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(i++ > 0 ? ", " : "");
                quote(out, String.valueOf(entry.getKey()));
                out.append(": ");
                dumps(out, entry.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? ", " : "");
                dumps(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof Number n) {
            out.append(PyRepr.number(n.text()));  // an int's digits, a float's repr
        } else {
            write(out, value, 0);
        }
    }

    private static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
