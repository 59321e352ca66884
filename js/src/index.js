"use strict";
/**
 * The public API of the dicechess-contract npm package:
 *   evaluate(constraint, engineVersion) -> {outcome, message}   (engineCompatibility, spec §3.3)
 *   readManifest(text, engineVersion, expectedRole?) -> {verdict: "accepted"|"refused", message, ...}
 *   dataPath(...parts): where the vendored schemas and grammar are (schema/, grammar/)
 */

const { evaluate, parseConstraint, parseHostVersion, ParserStale } = require("./compatibility");
const { readManifest } = require("./manifest");
const { dataPath, readJson } = require("./data");

module.exports = { evaluate, parseConstraint, parseHostVersion, ParserStale, readManifest, dataPath, readJson };
