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

/** The generated lark-js parser and its stamp ship inside the package, beside src/. */
const generatedDir = () => path.join(PACKAGE_DIR, "generated");

module.exports = { dataRoot, dataPath, schemaDir, readJson, generatedDir, PACKAGE_DIR };
