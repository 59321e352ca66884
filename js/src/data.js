"use strict";
/**
 * Where this package finds the language-neutral contract files (schemas, grammar, corpus): the one place
 * that knows, so every module reads the same files.
 *
 * In a checkout of dicechess-contract, js/ sits beside schema/, grammar/ and golden/, and those are read
 * directly (nothing to keep in sync). In an installed npm package they are the copies under data/ that
 * `npm pack` put there (tools/copy-data.js, run by the prepack script): schema/ and grammar/. The
 * checkout wins when both exist, as in the Python kit (contract/core/resources.py).
 */

const fs = require("fs");
const path = require("path");

const PACKAGE_DIR = path.resolve(__dirname, "..");
const CHECKOUT = path.resolve(PACKAGE_DIR, "..");
const PACKED = path.join(PACKAGE_DIR, "data");

let root = null;

/** The directory holding schema/ and grammar/ (and, in a checkout, golden/). */
function dataRoot() {
  if (root !== null) return root;
  if (fs.existsSync(path.join(CHECKOUT, "schema", "feature-schemas.json"))) root = CHECKOUT;
  else if (fs.existsSync(path.join(PACKED, "schema", "feature-schemas.json"))) root = PACKED;
  else throw new Error(`no contract data: neither ${CHECKOUT}/schema nor ${PACKED}/schema holds feature-schemas.json`);
  return root;
}

/** Absolute path of a contract file, e.g. dataPath("schema", "manifest-1.1.0.schema.json"). */
function dataPath(...parts) {
  return path.join(dataRoot(), ...parts);
}

const schemaDir = () => dataPath("schema");

/** A JSON file of the contract, parsed: readJson("schema", "feature-schemas.json"). */
function readJson(...parts) {
  return JSON.parse(fs.readFileSync(dataPath(...parts), "utf8"));
}

/**
 * The major version of each contract file (named by its JSON Schema, schema/NAME.schema.json) and of the
 * adapter protocol that this package reads. A file says its own version in "formatVersion"
 * (docs/versioning.md); this package reads every minor and patch of these majors and refuses any other.
 * This is what this implementation's code understands, stated here: the Python kit states its own in
 * contract/core/formatversion.py, and tests/conformance/test_conformance_js.py compares the two.
 */
const FORMAT_MAJORS = Object.freeze({
  "feature-schemas": 1,
  "check-table": 1,
  "manifest-fields": 1,
  "conformance-engine-compatibility": 1,
  "adapter-protocol": 1,
});
const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** Why `document` carries no version of `name` this package reads, or null. */
function formatVersionProblem(document, name) {
  const known = FORMAT_MAJORS[name];
  const found = document !== null && typeof document === "object" && !Array.isArray(document)
    ? document.formatVersion : undefined;
  if (found === undefined) return `no formatVersion (this package reads ${name} format ${known}.x)`;
  if (typeof found !== "string" || !SEMVER.test(found)) {
    return `formatVersion ${JSON.stringify(found)} is not a MAJOR.MINOR.PATCH version`;
  }
  if (Number(SEMVER.exec(found)[1]) !== known) {
    return `formatVersion ${found} is not one this package reads: it reads ${name} format ${known}.x (docs/versioning.md)`;
  }
  return null;
}

/** A versioned contract file, parsed; an Error naming the file when its formatVersion is not one this package reads. */
function readVersioned(name, ...parts) {
  const document = readJson(...parts);
  const problem = formatVersionProblem(document, name);
  if (problem !== null) throw new Error(`${parts.join("/")}: ${problem}`);
  return document;
}

/** The generated lark-js parser and its stamp ship inside the package, beside src/. */
const generatedDir = () => path.join(PACKAGE_DIR, "generated");

module.exports = {
  dataRoot, dataPath, schemaDir, readJson, readVersioned, formatVersionProblem, FORMAT_MAJORS, generatedDir, PACKAGE_DIR,
};
