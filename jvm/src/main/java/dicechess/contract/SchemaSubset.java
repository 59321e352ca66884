package dicechess.contract;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The few JSON Schema 2020-12 keywords the vendor layout schema ({@code schema/vendor-layout-1.schema.json}, read
 * from the jar) and the parity schema ({@code schema/parity.schema.json}) use, with the error texts and the order of Python's jsonschema, which the Python kit prints: keywords
 * in the schema's order, properties in the schema's order, {@link #first} the first error by instance path. A
 * keyword outside the subset is refused ({@link IllegalStateException}) rather than ignored, so a schema that grows
 * one cannot be half-checked here.
 */
final class SchemaSubset {
    /** Annotations: no effect on validity. */
    private static final List<String> ANNOTATIONS =
        List.of("$schema", "$id", "$comment", "title", "description", "default", "examples");

    /** One error: where in the instance (property names and item indices) and jsonschema's message. */
    record Error(List<Object> path, String message) {
        /** The path as the kit prints it: {@code /} then the parts joined by {@code /}. */
        String pointer() {
            StringBuilder out = new StringBuilder("/");
            for (int i = 0; i < path.size(); i++) {
                out.append(i > 0 ? "/" : "").append(path.get(i));
            }
            return out.toString();
        }
    }

    private SchemaSubset() {
    }

    /** Every error of {@code instance} under {@code schema}, in jsonschema's order. */
    static List<Error> errors(Map<?, ?> schema, Object instance) {
        List<Error> out = new ArrayList<>();
        validate(schema, instance, List.of(), out);
        return out;
    }

    /** Every error, ordered by instance path as the kit sorts them (a stable sort, as Python's sorted). */
    static List<Error> sorted(List<Error> errors) {
        List<Error> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparing(Error::path, SchemaSubset::comparePaths));
        return sorted;
    }

    /** The error the kit reports: the first by instance path (a stable sort, as Python's sorted). */
    static Error first(List<Error> errors) {
        List<Error> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparing(Error::path, SchemaSubset::comparePaths));
        return sorted.isEmpty() ? null : sorted.get(0);
    }

    private static int comparePaths(List<Object> a, List<Object> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = a.get(i) instanceof Integer x && b.get(i) instanceof Integer y ? Integer.compare(x, y)
                : codePointCompare(String.valueOf(a.get(i)), String.valueOf(b.get(i)));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** Python's order of strings: by code point (String.compareTo orders UTF-16 units). */
    static int codePointCompare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    private static List<Object> with(List<Object> path, Object part) {
        List<Object> longer = new ArrayList<>(path);
        longer.add(part);
        return List.copyOf(longer);
    }

    private static void validate(Map<?, ?> schema, Object instance, List<Object> path, List<Error> out) {
        for (Map.Entry<?, ?> keyword : schema.entrySet()) {
            String name = String.valueOf(keyword.getKey());
            Object value = keyword.getValue();
            switch (name) {
                case "type" -> type(value, instance, path, out);
                case "const" -> {
                    if (!equal(instance, value)) {
                        out.add(new Error(path, PyRepr.repr(value) + " was expected"));
                    }
                }
                case "pattern" -> {
                    if (instance instanceof String s
                            && !Pattern.compile((String) value, Pattern.UNIX_LINES).matcher(s).find()) {
                        out.add(new Error(path, PyRepr.repr(s) + " does not match " + PyRepr.repr(value)));
                    }
                }
                case "maxLength" -> {
                    int limit = integer(value);
                    if (instance instanceof String s && s.codePointCount(0, s.length()) > limit) {
                        out.add(new Error(path, PyRepr.repr(s) + (limit == 0 ? " is expected to be empty" : " is too long")));
                    }
                }
                case "minLength" -> {
                    int limit = integer(value);
                    if (instance instanceof String s && s.codePointCount(0, s.length()) < limit) {
                        out.add(new Error(path, PyRepr.repr(s) + (limit == 1 ? " should be non-empty" : " is too short")));
                    }
                }
                case "minItems" -> {
                    int limit = integer(value);
                    if (instance instanceof List<?> list && list.size() < limit) {
                        out.add(new Error(path, PyRepr.repr(list) + (limit == 1 ? " should be non-empty" : " is too short")));
                    }
                }
                case "maxItems" -> {
                    int limit = integer(value);
                    if (instance instanceof List<?> list && list.size() > limit) {
                        out.add(new Error(path, PyRepr.repr(list) + (limit == 0 ? " is expected to be empty" : " is too long")));
                    }
                }
                case "enum" -> {
                    if (((List<?>) value).stream().noneMatch(option -> equal(instance, option))) {
                        out.add(new Error(path, PyRepr.repr(instance) + " is not one of " + PyRepr.repr(value)));
                    }
                }
                case "minimum" -> {
                    if (instance instanceof Json.Number n && n.value().compareTo(((Json.Number) value).value()) < 0) {
                        out.add(new Error(path, PyRepr.repr(instance) + " is less than the minimum of " + PyRepr.repr(value)));
                    }
                }
                case "maximum" -> {
                    if (instance instanceof Json.Number n && n.value().compareTo(((Json.Number) value).value()) > 0) {
                        out.add(new Error(path, PyRepr.repr(instance) + " is greater than the maximum of "
                            + PyRepr.repr(value)));
                    }
                }
                case "items" -> {
                    if (instance instanceof List<?> list) {
                        for (int i = 0; i < list.size(); i++) {
                            validate((Map<?, ?>) value, list.get(i), with(path, i), out);
                        }
                    }
                }
                case "required" -> {
                    if (instance instanceof Map<?, ?> map) {
                        for (Object property : (List<?>) value) {
                            if (!map.containsKey(property)) {
                                out.add(new Error(path, PyRepr.repr(property) + " is a required property"));
                            }
                        }
                    }
                }
                case "properties" -> {
                    if (instance instanceof Map<?, ?> map) {
                        for (Map.Entry<?, ?> property : ((Map<?, ?>) value).entrySet()) {
                            if (map.containsKey(property.getKey())) {
                                validate((Map<?, ?>) property.getValue(), map.get(property.getKey()),
                                    with(path, property.getKey()), out);
                            }
                        }
                    }
                }
                case "additionalProperties" -> additional(schema, value, instance, path, out);
                default -> {
                    if (!ANNOTATIONS.contains(name)) {
                        throw new IllegalStateException("the schema uses " + name + ", a keyword this check lacks");
                    }
                }
            }
        }
    }

    private static void type(Object types, Object instance, List<Object> path, List<Error> out) {
        List<?> names = types instanceof List<?> list ? list : List.of(types);
        for (Object name : names) {
            if (isType(instance, (String) name)) {
                return;
            }
        }
        StringBuilder shown = new StringBuilder();
        for (Object name : names) {
            shown.append(shown.length() > 0 ? ", " : "").append(PyRepr.repr(name));
        }
        out.add(new Error(path, PyRepr.repr(instance) + " is not of type " + shown));
    }

    private static boolean isType(Object instance, String type) {
        return switch (type) {
            case "object" -> instance instanceof Map<?, ?>;
            case "array" -> instance instanceof List<?>;
            case "string" -> instance instanceof String;
            case "boolean" -> instance instanceof Boolean;
            case "null" -> instance == null;
            case "number" -> instance instanceof Json.Number;
            case "integer" -> instance instanceof Json.Number n && (PyRepr.isInteger(n.text())
                || n.value().stripTrailingZeros().scale() <= 0);
            default -> throw new IllegalStateException("the schema names the type " + type);
        };
    }

    private static void additional(Map<?, ?> schema, Object allowed, Object instance, List<Object> path,
                                   List<Error> out) {
        if (!(instance instanceof Map<?, ?> map)) {
            return;
        }
        if (schema.containsKey("patternProperties")) {
            throw new IllegalStateException("the schema uses patternProperties, a keyword this check lacks");
        }
        Map<?, ?> properties = schema.get("properties") instanceof Map<?, ?> p ? p : Map.of();
        TreeSet<String> extras = new TreeSet<>(SchemaSubset::codePointCompare);
        for (Object key : map.keySet()) {
            if (!properties.containsKey(key)) {
                extras.add((String) key);
            }
        }
        if (allowed instanceof Map<?, ?> subschema) {
            for (String extra : extras) {
                validate(subschema, map.get(extra), with(path, extra), out);
            }
        } else if (Boolean.FALSE.equals(allowed) && !extras.isEmpty()) {
            StringBuilder shown = new StringBuilder();
            for (String extra : extras) {
                shown.append(shown.length() > 0 ? ", " : "").append(PyRepr.repr(extra));
            }
            out.add(new Error(path, "Additional properties are not allowed (" + shown
                + (extras.size() == 1 ? " was" : " were") + " unexpected)"));
        }
    }

    /** jsonschema's equality: numbers by value (1 = 1.0), a boolean only equals a boolean. */
    static boolean equal(Object a, Object b) {
        if (a instanceof Json.Number x && b instanceof Json.Number y) {
            return x.value().compareTo(y.value()) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Object key : x.keySet()) {
                if (!equal(x.get(key), y.get(key))) {
                    return false;
                }
            }
            return true;
        }
        return a == null ? b == null : a.equals(b);
    }

    private static int integer(Object value) {
        return Integer.parseInt(((Json.Number) value).text());
    }
}
