// SPDX-License-Identifier: Apache-2.0
package dicechesscontract.engine;

import java.io.ByteArrayOutputStream;

/**
 * The bytes of a manifest case, from the request's {@code manifest} text, exactly as the kit's adapter makes
 * them (Python's {@code text.encode("utf-8", "surrogatepass")}): every code point as UTF-8, a surrogate pair as
 * its four-byte form, and a lone surrogate as its own three-byte form (U+D800 alone is {@code ED A0 80}).
 *
 * <p>{@code String.getBytes(UTF_8)} is not that: it replaces a lone surrogate with {@code ?}, so a case about a
 * manifest that is not UTF-8 would reach the engine as a valid one. A JSON text can carry such bytes only as a
 * {@code \\uD800} escape, which is how the protocol sends them.
 */
final class ManifestBytes {
    private ManifestBytes() {}

    static byte[] of(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int code = c;
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                code = Character.toCodePoint(c, text.charAt(++i));
            }
            if (code < 0x80) {
                out.write(code);
            } else if (code < 0x800) {
                out.write(0xC0 | (code >> 6));
                out.write(0x80 | (code & 0x3F));
            } else if (code < 0x10000) { // a lone surrogate too, as surrogatepass writes it
                out.write(0xE0 | (code >> 12));
                out.write(0x80 | ((code >> 6) & 0x3F));
                out.write(0x80 | (code & 0x3F));
            } else {
                out.write(0xF0 | (code >> 18));
                out.write(0x80 | ((code >> 12) & 0x3F));
                out.write(0x80 | ((code >> 6) & 0x3F));
                out.write(0x80 | (code & 0x3F));
            }
        }
        return out.toByteArray();
    }
}
