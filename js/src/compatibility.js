"use strict";
/**
 * engineCompatibility in Node: the lark-js parser generated from grammar/engine_compatibility.lark,
 * plus what a grammar cannot say (a component must fit in a 32-bit Int; a host version is exactly
 * MAJOR.MINOR.PATCH in ASCII digits), in the engine's order: host version, blank, every comparator
 * parsed, then all must hold. Messages are the engine's texts (spec/contract.md §3.3).
 *
 * The parser is js/generated/engine_compatibility_parser.js (or $DICECHESS_JS_PARSER). Its stamp
 * records the SHA-256 of the grammar it was generated from; a parser generated from another grammar
 * is refused (ParserStale) rather than used.
 */

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const table = require("./checktable");

const { dataPath, generatedDir } = require("./data");

const GRAMMAR = dataPath("grammar", "engine_compatibility.lark");
const GENERATED = generatedDir();
const DEFAULT_PARSER = path.join(GENERATED, "engine_compatibility_parser.js");
const STAMP = path.join(GENERATED, "engine_compatibility_parser.stamp.json");
const INT_MAX = 2147483647n;
const HOST_VERSION = /^[0-9]+\.[0-9]+\.[0-9]+$/; // JS $ is the end of input, never before a "\n"
const BLANK = /^[\x00-\x20]*$/; // what the engine's String.trim drops

class ParserStale extends Error {}

function grammarSha256() {
  return crypto.createHash("sha256").update(fs.readFileSync(GRAMMAR)).digest("hex");
}

let cached = null;

function parser() {
  if (cached !== null) return cached;
  const file = process.env.DICECHESS_JS_PARSER || DEFAULT_PARSER;
  const stampFile = process.env.DICECHESS_JS_PARSER ? `${file.replace(/\.js$/, "")}.stamp.json` : STAMP;
  if (!fs.existsSync(file) || !fs.existsSync(stampFile)) {
    throw new ParserStale(`${file} (or its stamp) is missing: run \`tox -e js-parser -- --write\``);
  }
  const stamp = JSON.parse(fs.readFileSync(stampFile, "utf8"));
  const actual = grammarSha256();
  if (stamp.grammarSha256 !== actual) {
    throw new ParserStale(
      `${file} was generated from a grammar with SHA-256 ${stamp.grammarSha256}, but ${GRAMMAR} now has ` +
        `${actual}: regenerate it with \`tox -e js-parser -- --write\``,
    );
  }
  cached = require(file).get_parser();
  return cached;
}

/** {version} of a host version, or {error}: the code of the check it fails. */
function parseHostVersion(text) {
  if (typeof text !== "string") return { error: "api.argument.type" };
  if (!HOST_VERSION.test(text)) return { error: "engineCompatibility.engineVersion.syntax" };
  const parts = text.split(".").map((p) => BigInt(p));
  if (parts.some((p) => p > INT_MAX)) return { error: "engineCompatibility.engineVersion.range" };
  return { version: parts.map(Number) }; // within 0..2147483647: exact as Numbers, and JSON-serialisable
}

// A whitespace run with a character above U+0020 on each side: in a valid constraint it can only be the
// separator between two comparators (edges are characters <= U+0020 at the ends, comparators hold no
// whitespace). So a constraint is valid exactly when each stretch between some such runs is valid on its
// own, and the stretches' comparators, in order, are the whole's.
const INNER_SEPARATOR = /(?<=[^\x00-\x20])[ \t\n\x0b\x0c\r]+(?=[^\x00-\x20])/;
// lark-js reduces a long comparator list recursively and runs out of stack (about 150,000 comparators
// fit in a 1 MiB manifest, which the kit accepts): parse at most this many comparators at a time.
const CHUNK = 1000;

/** Every comparator of a non-blank constraint as {op, version}; null when the constraint is invalid. */
function parseConstraint(text) {
  if (typeof text !== "string") return null;
  const pieces = text.split(INNER_SEPARATOR);
  const comparators = [];
  for (let start = 0; start < pieces.length; start += CHUNK) {
    const part = parseStretch(pieces.slice(start, start + CHUNK).join(" "));
    if (part === null) return null;
    comparators.push(...part);
  }
  return comparators.length > 0 ? comparators : null;
}

function parseStretch(text) {
  let tree;
  try {
    tree = parser().parse(text);
  } catch (err) {
    if (err instanceof ParserStale) throw err;
    return null;
  }
  const comparators = [];
  for (const node of tree.children) {
    if (!node || node.data !== "comparator") continue;
    let op = "=";
    let version = null;
    for (const child of node.children) {
      if (child && child.type === "OP") op = child.value;
      else if (child && child.data === "version") version = child.children.map((tok) => BigInt(tok.value));
    }
    if (version === null || version.length !== 3 || version.some((p) => p > INT_MAX)) return null;
    comparators.push({ op, version: version.map(Number) });
  }
  return comparators.length > 0 ? comparators : null;
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

const HOLDS = {
  "=": (c) => c === 0,
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
};

// What each kind of check in the table's engineCompatibility family tests; the order is the table's.
// A test returns the template's values when the check fails, undefined when it passes.
const TESTS = {
  hostSyntax: (q) => (HOST_VERSION.test(q.engineVersion) ? undefined : { version: q.engineVersion }),
  hostRange: (q) => {
    const host = parseHostVersion(q.engineVersion);
    if (host.error) return { version: q.engineVersion };
    q.host = host.version;
    return undefined;
  },
  blank: (q) => (BLANK.test(q.constraint) ? {} : undefined),
  grammar: (q) => {
    q.comparators = parseConstraint(q.constraint);
    return q.comparators === null ? { constraint: q.constraint } : undefined;
  },
  holds: (q) =>
    q.comparators.every(({ op, version }) => HOLDS[op](compare(q.host, version)))
      ? undefined
      : { constraint: q.constraint, version: q.engineVersion },
};

// The checks this module implements (the table orders and words them); a table without one is refused.
table.requireCodes("engineCompatibility", [
  "engineCompatibility.engineVersion.syntax", "engineCompatibility.engineVersion.range", "engineCompatibility.blank",
  "engineCompatibility.invalid", "engineCompatibility.excluded",
]);

/** {outcome, message, code}: outcome in satisfied | excluded | blank | invalid-constraint | invalid-engine-version. */
function evaluate(constraint, engineVersion) {
  // a wrong type is refused as the value it stands for, the host version first (as the engine reads it)
  const wrongHost = table.notAString("engineVersion", engineVersion);
  if (wrongHost !== null) return { outcome: "invalid-engine-version", ...wrongHost };
  const wrongConstraint = table.notAString("constraint", constraint);
  if (wrongConstraint !== null) return { outcome: "invalid-constraint", ...wrongConstraint };
  const question = { constraint, engineVersion, host: null, comparators: null };
  for (const check of table.family("engineCompatibility")) {
    const values = TESTS[check.kind](question);
    if (values !== undefined) {
      return { outcome: check.outcome, ...table.refusal(check.code, values) };
    }
  }
  return { outcome: "satisfied", message: null, code: null, field: null };
}

module.exports = { evaluate, parseConstraint, parseHostVersion, grammarSha256, ParserStale, GRAMMAR, STAMP };
