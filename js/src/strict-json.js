"use strict";
/**
 * Strict JSON, as the kit reads a manifest: one text means one thing, or it is refused.
 *
 * JSON.parse keeps the *last* of duplicate keys and turns 1e999 into Infinity; this reader refuses
 * duplicate keys, numbers that do not fit a 64-bit float, nesting deeper than 64, a UTF-8 byte-order
 * mark and texts above 1 MiB. Every refusal is a JsonRefusal whose message starts with
 * "not valid JSON:" (except the size cap). Objects are plain objects built with defineProperty, so a
 * "__proto__" key is an ordinary own property.
 */

const MAX_DEPTH = 64;
const MAX_BYTES = 1024 * 1024;

const table = require("./checktable");

class JsonRefusal extends Error {
  constructor(code, values) {
    const refusal = table.refusal(code, values);
    super(refusal.message);
    this.refusal = refusal;
  }
}

function refuse(detail) {
  throw new JsonRefusal("json.syntax", { detail });
}

// A UTF-16 code unit of a surrogate pair's half that has no partner: text no UTF-8 file can hold.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function parse(text) {
  if (Buffer.byteLength(text, "utf8") > MAX_BYTES) {
    throw new JsonRefusal("json.textTooLarge", { limit: MAX_BYTES });
  }
  if (text.startsWith("\ufeff")) throw new JsonRefusal("json.byteOrderMark", {});
  const lone = LONE_SURROGATE.exec(text);
  if (lone !== null) {
    // as the kit reads the same text written out as bytes: the offset of the first byte not UTF-8
    throw new JsonRefusal("json.notUtf8", { offset: Buffer.byteLength(text.slice(0, lone.index), "utf8") });
  }
  let pos = 0;

  const where = () => `at character ${pos}`;
  const skip = () => {
    while (pos < text.length && " \t\n\r".includes(text[pos])) pos += 1;
  };

  function string() {
    pos += 1; // opening quote
    let out = "";
    for (;;) {
      if (pos >= text.length) refuse(`unterminated string ${where()}`);
      const ch = text[pos];
      if (ch === '"') {
        pos += 1;
        return out;
      }
      if (ch === "\\") {
        const esc = text[pos + 1];
        if (esc === "u") {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) refuse(`invalid \\u escape ${where()}`);
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else if (esc in ESCAPES) {
          out += ESCAPES[esc];
          pos += 2;
        } else {
          refuse(`invalid escape ${where()}`);
        }
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) refuse(`control character in a string ${where()}`);
      out += ch;
      pos += 1;
    }
  }

  function value(depth) {
    skip();
    if (pos >= text.length) refuse(`expecting a value ${where()}`);
    const ch = text[pos];
    if (ch === "{" || ch === "[") {
      if (depth + 1 > MAX_DEPTH) throw new JsonRefusal("json.tooDeep", { limit: MAX_DEPTH, offset: pos });
      return ch === "{" ? object(depth + 1) : array(depth + 1);
    }
    if (ch === '"') return string();
    for (const [word, result] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return result;
      }
    }
    for (const name of ["NaN", "Infinity", "-Infinity"]) {
      if (text.startsWith(name, pos)) throw new JsonRefusal("json.notANumber", { name });
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match === null) refuse(`expecting a value ${where()}`);
    const number = Number(match[0]);
    if (!Number.isFinite(number)) throw new JsonRefusal("json.numberRange", { text: match[0] });
    pos += match[0].length;
    return number;
  }

  function object(depth) {
    pos += 1;
    const out = {};
    const seen = new Set();
    skip();
    if (text[pos] === "}") {
      pos += 1;
      return out;
    }
    for (;;) {
      skip();
      if (text[pos] !== '"') refuse(`expecting a property name ${where()}`);
      const key = string();
      skip();
      if (text[pos] !== ":") refuse(`expecting ':' ${where()}`);
      pos += 1;
      const item = value(depth);
      if (seen.has(key)) throw new JsonRefusal("json.duplicateKey", { key: `'${key}'` });
      seen.add(key);
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      skip();
      if (text[pos] === ",") {
        pos += 1;
        continue;
      }
      if (text[pos] === "}") {
        pos += 1;
        return out;
      }
      refuse(`expecting ',' or '}' ${where()}`);
    }
  }

  function array(depth) {
    pos += 1;
    const out = [];
    skip();
    if (text[pos] === "]") {
      pos += 1;
      return out;
    }
    for (;;) {
      out.push(value(depth));
      skip();
      if (text[pos] === ",") {
        pos += 1;
        continue;
      }
      if (text[pos] === "]") {
        pos += 1;
        return out;
      }
      refuse(`expecting ',' or ']' ${where()}`);
    }
  }

  const result = value(0);
  skip();
  if (pos !== text.length) refuse(`extra data ${where()}`);
  return result;
}

module.exports = { parse, JsonRefusal, MAX_DEPTH, MAX_BYTES };
