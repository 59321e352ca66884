package dicechess.contract;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * JSON values written as the Python kit writes them in its messages: {@link #repr} is Python's {@code repr()} of the
 * value {@code contract/core/strictjson.py} reads (an integer literal is an int, any other number a float), the text
 * jsonschema puts in its error messages; {@link #floatText} is Python's float repr (also what {@code json.dumps}
 * writes for a float). Printability of non-ASCII characters follows this JVM's Unicode tables, which may be older
 * than the Python's: a character assigned only in a newer Unicode version is escaped here and printed there.
 */
final class PyRepr {
    private PyRepr() {
    }

    /** Python's {@code repr()} of a JSON value read by the kit. */
    static String repr(Object value) {
        StringBuilder out = new StringBuilder();
        repr(out, value);
        return out.toString();
    }

    private static void repr(StringBuilder out, Object value) {
        if (value == null) {
            out.append("None");
        } else if (value instanceof Boolean b) {
            out.append(b ? "True" : "False");
        } else if (value instanceof String s) {
            out.append(string(s));
        } else if (value instanceof Json.Number n) {
            out.append(number(n.text()));
        } else if (value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? ", " : "");
                repr(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(i++ > 0 ? ", " : "");
                repr(out, entry.getKey());
                out.append(": ");
                repr(out, entry.getValue());
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /** A JSON number's text as Python shows the value: an int's digits, else the float's repr. */
    static String number(String text) {
        if (isInteger(text)) {
            return new BigInteger(text).toString();
        }
        return floatText(Double.parseDouble(text));
    }

    /** True for an integer literal (no fraction, no exponent): Python reads it as an int. */
    static boolean isInteger(String text) {
        return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
    }

    /** Python's {@code repr(float)}: the shortest digits that read back as the same double. */
    static String floatText(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        BigDecimal exact = new BigDecimal(d);
        String digits = null;
        int point = 0;
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() == d) {
                BigDecimal stripped = rounded.stripTrailingZeros();
                digits = stripped.unscaledValue().abs().toString();
                point = digits.length() - stripped.scale();  // value = 0.DIGITS x 10^point
                break;
            }
        }
        if (digits == null) {
            throw new IllegalStateException("no repr for " + d);
        }
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (point <= -4 || point > 16) {
            int exponent = point - 1;
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            out.append(String.format("%02d", Math.abs(exponent)));
        } else if (point <= 0) {
            out.append("0.").append("0".repeat(-point)).append(digits);
        } else if (point >= digits.length()) {
            out.append(digits).append("0".repeat(point - digits.length())).append(".0");
        } else {
            out.append(digits, 0, point).append('.').append(digits, point, digits.length());
        }
        return out.toString();
    }

    /** Python's {@code repr(str)}. */
    static String string(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (c == quote || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c < ' ' || c == 0x7f) {
                out.append(String.format("\\x%02x", c));
            } else if (c < 0x7f || printable(c)) {
                out.appendCodePoint(c);
            } else if (c <= 0xff) {
                out.append(String.format("\\x%02x", c));
            } else if (c <= 0xffff) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append(String.format("\\U%08x", c));
            }
        }
        return out.append(quote).toString();
    }

    /** Python's {@code str.isprintable()} of one non-ASCII code point. */
    private static boolean printable(int c) {
        switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                 Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SPACE_SEPARATOR:
                return false;
            default:
                return true;
        }
    }
}
