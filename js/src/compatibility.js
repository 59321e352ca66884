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

const REPO = path.resolve(__dirname, "..", "..");
const GRAMMAR = path.join(REPO, "grammar", "engine_compatibility.lark");
const GENERATED = path.join(REPO, "js", "generated");
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

const msgVersionSyntax = (v) => `invalid engine version: invalid semantic version '${v}'; expected MAJOR.MINOR.PATCH`;
const msgVersionRange = (v) =>
  `invalid engine version: invalid semantic version '${v}'; a component does not fit in an Int`;
const MSG_BLANK = "engineCompatibility must not be blank";
const msgInvalid = (c) =>
  `invalid engineCompatibility '${c}'; expected space-separated comparators such as '>=0.12.0 <1.0.0'`;
const msgExcluded = (c, v) => `engineCompatibility '${c}' does not include engine version '${v}'`;

function parseHostVersion(text) {
  if (!HOST_VERSION.test(text)) return { error: msgVersionSyntax(text) };
  const parts = text.split(".").map((p) => BigInt(p));
  if (parts.some((p) => p > INT_MAX)) return { error: msgVersionRange(text) };
  return { version: parts };
}

/** Every comparator of a non-blank constraint as {op, version}; null when the constraint is invalid. */
function parseConstraint(text) {
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
    comparators.push({ op, version });
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

/** {outcome, message}: outcome in satisfied | excluded | blank | invalid-constraint | invalid-engine-version. */
function evaluate(constraint, engineVersion) {
  const host = parseHostVersion(engineVersion);
  if (host.error) return { outcome: "invalid-engine-version", message: host.error };
  if (BLANK.test(constraint)) return { outcome: "blank", message: MSG_BLANK };
  const comparators = parseConstraint(constraint);
  if (comparators === null) return { outcome: "invalid-constraint", message: msgInvalid(constraint) };
  if (comparators.every(({ op, version }) => HOLDS[op](compare(host.version, version)))) {
    return { outcome: "satisfied", message: null };
  }
  return { outcome: "excluded", message: msgExcluded(constraint, engineVersion) };
}

module.exports = { evaluate, parseConstraint, parseHostVersion, grammarSha256, ParserStale, GRAMMAR, STAMP };
