"use strict";
/**
 * The contract's check table (schema/check-table.json) and the manifest's fields
 * (schema/manifest-fields.json), read once: codes, fields, message templates and check order are data,
 * shared with the Python kit. A template's {name} is replaced by the value the check names; a field
 * pointer's {name} by its RFC 6901 reference token.
 */

const { readVersioned, schemaDir } = require("./data");

const SCHEMA_DIR = schemaDir(); // the checkout's schema/, or the packed data/schema
// A placeholder {name}, or an escaped brace {{ / }} (a literal { / }).
const TOKEN = /\{\{|\}\}|\{([A-Za-z]+)\}/g;

// schema/NAME.json, refused unless its formatVersion is one this package reads (data.js)
const readJson = (name) => readVersioned(name.replace(/\.json$/, ""), "schema", name);

let table = null;
let fields = null;
let registry = null;

function checkTable() {
  if (table === null) table = readJson("check-table.json");
  return table;
}

function manifestFields() {
  if (fields === null) fields = readJson("manifest-fields.json");
  return fields;
}

function featureSchemas() {
  if (registry === null) {
    registry = new Map(readJson("feature-schemas.json").schemas.map((s) => [s.id, s.width]));
  }
  return registry;
}

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function fill(template, values, escape) {
  return template.replace(TOKEN, (token, name) => {
    if (name === undefined) return token[0];
    if (!own(values, name)) throw new Error(`check-table template '${template}' needs a value for {${name}}`);
    return escape(String(values[name]));
  });
}

const render = (template, values) => fill(template, values, (text) => text);
const pointer = (template, values) => fill(template, values, (text) => text.replace(/~/g, "~0").replace(/\//g, "~1"));

/** The checks of one family, in order. */
function family(name) {
  return checkTable().families[name].checks;
}

function* flatten(entries) {
  for (const entry of entries) {
    if (entry.each !== undefined) yield* flatten(entry.checks);
    else yield entry;
  }
}

/** The table's entry for a code, in whichever family states it. */
function entry(code) {
  for (const name of Object.keys(checkTable().families)) {
    for (const candidate of flatten(family(name))) if (candidate.code === code) return candidate;
  }
  throw new Error(`check-table.json states no check '${code}'`);
}

/** {code, message, field} of a failed check. */
function refusal(code, values = {}) {
  const found = entry(code);
  return {
    code,
    message: render(found.message, values),
    field: found.field === undefined ? null : pointer(found.field, values),
  };
}

/**
 * Fail closed: throw unless every code this implementation interprets is a check of the family, so a table
 * with an entry deleted (edited, or stale) is refused when the module loads instead of losing the check.
 */
function requireCodes(name, implemented) {
  const stated = new Set([...flatten(family(name))].map((entry) => entry.code));
  const missing = implemented.filter((code) => !stated.has(code));
  if (missing.length > 0) {
    throw new Error(`schema/check-table.json: the ${name} family lacks the check '${missing[0]}' ` +
      `(${missing.length} missing): the table is edited or stale, and nothing is served without it`);
  }
}

/** The name a message gives the type of a value: null, undefined, array, or its typeof. */
const typeName = (value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** The api.argument.type refusal of a public function given `value` for `argument`, or null when it is a string. */
function notAString(argument, value, optional = false) {
  if (typeof value === "string" || (optional && (value === null || value === undefined))) return null;
  return refusal("api.argument.type", {
    argument,
    expected: optional ? "a string or null" : "a string",
    got: typeName(value),
  });
}

module.exports = { requireCodes, notAString, typeName, checkTable, manifestFields, featureSchemas, family, entry, refusal, render, pointer, own, SCHEMA_DIR };
