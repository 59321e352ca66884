package dicechess.contract;

import java.util.Map;

/**
 * The texts of {@code vendor --check}: {@code schema/vendor-messages.json}, the one table the Python kit prints
 * from too (read from this jar). A placeholder {@code {name}} takes its value made safe to print (control, bidi,
 * separator and lone-surrogate characters shown as escapes, as contract/core/consoletext.py does); {@code {{} and
 * {@code }}} are literal braces.
 */
public final class Messages {
    private static Map<?, ?> table;

    private Messages() {
    }

    private static synchronized Map<?, ?> table() {
        if (table == null) {
            Object doc = KitData.json("schema/vendor-messages.json");
            if (!(doc instanceof Map<?, ?> map) || !(map.get("messages") instanceof Map<?, ?> messages)) {
                throw new IllegalStateException(VendorCheck.DATA + "schema/vendor-messages.json has no messages");
            }
            table = messages;
        }
        return table;
    }

    /** The text of {@code code}; {@code fields} alternate name, value. */
    public static String say(String code, Object... fields) {
        Object template = table().get(code);
        if (!(template instanceof String text)) {
            throw new IllegalStateException("schema/vendor-messages.json has no message " + code);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < text.length() && text.charAt(i + 1) == c) {
                out.append(c);
                i++;
            } else if (c == '{') {
                int end = text.indexOf('}', i);
                String name = text.substring(i + 1, end);
                out.append(consoleText(String.valueOf(field(fields, name, code))));
                i = end;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static Object field(Object[] fields, String name, String code) {
        for (int i = 0; i + 1 < fields.length; i += 2) {
            if (fields[i].equals(name)) {
                return fields[i + 1];
            }
        }
        throw new IllegalArgumentException(code + " needs the field " + name);
    }

    /** {@code text} with every character that could drive a terminal or reorder a line shown as an escape. */
    public static String consoleText(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean surrogate = Character.isSurrogate(c);
            if (surrogate && Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                out.append(String.format("\\x%02x", (int) c));
            } else if (surrogate || c == '\u061c' || c == '\u200e' || c == '\u200f' || c == '\u2028' || c == '\u2029'
                    || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
