"use strict";
/**
 * Reading manifest.json in Node: the check table's manifest family (schema/check-table.json) in its
 * order, over the manifest's fields as data (schema/manifest-fields.json), first failure wins. The
 * same codes, fields and messages as the kit; only what each kind of check tests is code here.
 *
 * After the ordered checks, the whole document is validated with ajv (draft 2020-12) against its
 * version's generated schema (schema/manifest-<v>.schema.json) and the two verdicts must agree; when
 * they do not (a schema and the checks drifted apart) the answer is an error naming both, never a
 * silent pick.
 */

const fs = require("fs");
const path = require("path");
const Ajv2020 = require("ajv/dist/2020");
const strictJson = require("./strict-json");
const { evaluate } = require("./compatibility");
const table = require("./checktable");

const VERSION_FIELD = "manifestVersion";
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
// allowUnionTypes: "type": ["number", "null"] is standard 2020-12; ajv's strict mode only asks to opt in.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });

const { own } = table;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isNumber = (v) => typeof v === "number" && Number.isFinite(v);
const TYPE_TESTS = {
  manifestVersion: (v) => typeof v === "string",
  string: (v) => typeof v === "string",
  number: isNumber,
  wholeNumber: (v) => isNumber(v) && Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX,
  object: isObject,
  scalarMap: isObject,
};
const isScalar = (v) => typeof v === "string" || typeof v === "boolean" || isNumber(v);
const isBlank = (text) => /^[\x00-\x20]*$/.test(text);

function versionKey(version) {
  return version.split(".").map(Number);
}

function compareVersions(a, b) {
  const pa = versionKey(a);
  const pb = versionKey(b);
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

const versions = () => [...table.manifestFields().manifestVersions].sort(compareVersions);
const fieldSpec = (name) => table.manifestFields().fields.find((f) => f.name === name);

/** The rule of the latest version listed at or before ``version``; "undefined" when none is. */
function ruleOf(spec, version) {
  const listed = Object.keys(spec.rules).filter((v) => compareVersions(v, version) <= 0).sort(compareVersions);
  return listed.length === 0 ? "undefined" : spec.rules[listed[listed.length - 1]];
}

const introducedAfter = (spec, version) =>
  versions().some((v) => compareVersions(v, version) < 0 && ruleOf(spec, v) === "undefined");

function choices(listName) {
  const values = listName === "featureSchemas" ? [...table.featureSchemas().keys()] : table.manifestFields().lists[listName];
  return [...values].sort();
}

/** A field as read: its default when absent (null reads as absent), numbers as numbers. */
function valueOf(raw, spec) {
  const here = own(raw, spec.name) && raw[spec.name] !== null;
  if (!here) {
    if (spec.type === "object") return null;
    if (spec.type === "scalarMap") return {};
    return spec.default === undefined ? null : spec.default;
  }
  return raw[spec.name];
}

// One field of the reading (spec null for the checks on the whole document).
function at(reading, spec) {
  const present = spec !== null && own(reading.raw, spec.name) && reading.raw[spec.name] !== null;
  return {
    reading,
    spec,
    name: spec === null ? null : spec.name,
    present,
    rule: spec === null ? null : reading.version === null ? "required" : ruleOf(spec, reading.version),
    value: (name) => valueOf(reading.raw, name === undefined ? spec : fieldSpec(name)),
  };
}

const applies = (check, here) =>
  here.present && (check.appliesTo === undefined || check.appliesTo.includes(here.spec.type));

// What each kind of check tests: the template's values when it fails, undefined when it passes.
const KINDS = {
  document: () => (here) => (isObject(here.reading.raw) ? undefined : {}),
  hostType: () => (here) => (typeof here.reading.engineVersion === "string" ? undefined : {}),
  supportedVersion: () => (here) => {
    const value = here.reading.raw[VERSION_FIELD];
    if (!versions().includes(value)) return { value, versions: versions().join(", ") };
    here.reading.version = value;
    return undefined;
  },
  notDefined: () => (here) =>
    here.rule === "undefined" && here.present ? { version: here.reading.version, name: here.name } : undefined,
  requiredByVersion: () => (here) =>
    here.rule === "required" && !here.present && introducedAfter(here.spec, here.reading.version)
      ? { version: here.reading.version, name: here.name }
      : undefined,
  required: () => (here) => (here.rule === "required" && !here.present ? { name: here.name } : undefined),
  type: (check) => (here) =>
    applies(check, here) && !TYPE_TESTS[here.spec.type](here.reading.raw[here.name]) ? { name: here.name } : undefined,
  propertyType: (check) => (here) => {
    if (!applies(check, here)) return undefined;
    const block = here.reading.raw[here.name];
    for (const prop of here.spec.properties) {
      const item = own(block, prop.name) ? block[prop.name] : null;
      if (prop.type === check.propertyType && item !== null && !TYPE_TESTS[prop.type](item)) {
        return { name: here.name, property: prop.name };
      }
    }
    return undefined;
  },
  entryType: (check) => (here) => {
    if (!applies(check, here)) return undefined;
    for (const [key, item] of Object.entries(here.reading.raw[here.name])) {
      if (!isScalar(item)) return { name: here.name, key };
    }
    return undefined;
  },
  notBlank: () => (here) => (isBlank(here.value()) ? {} : undefined),
  pattern: () => (here) => (new RegExp(`^(?:${here.spec.pattern})$`).test(here.value()) ? undefined : {}),
  oneOf: () => (here) => {
    const known = choices(here.spec.oneOf);
    const value = here.value();
    return known.includes(value) ? undefined : { value, known: known.join(", ") };
  },
  width: () => (here) => {
    const schema = here.value(here.spec.widthOf);
    const width = table.featureSchemas().get(schema);
    const value = here.value();
    return value === width ? undefined : { value, schema, width };
  },
  expectedRole: () => (here) => {
    const expected = here.reading.expectedRole;
    const value = here.value();
    return expected !== null && expected !== undefined && value !== expected ? { value, expected } : undefined;
  },
};

// Whether the version's schema must reject a document a check refuses (true), accept it (false), or
// may go either way (null): the checks the schema cannot express come after all those it can. The host
// engine version is the caller's argument, not the document: no schema says anything about it (review H6).
const SCHEMA_EXPRESSIBLE = { supportedVersion: false, expectedRole: false, hostType: null };
const COMPATIBILITY_EXPRESSIBLE = { blank: true, "invalid-constraint": true, excluded: false, "invalid-engine-version": null };

class Refused extends Error {
  constructor(refusal, schemaExpressible) {
    super(refusal.message);
    this.refusal = refusal;
    this.schemaExpressible = schemaExpressible;
  }
}

function run(check, here) {
  if (check.kind === "compatibility") {
    const verdict = evaluate(here.value(), here.reading.engineVersion);
    if (verdict.code !== null) {
      const { code, message, field } = verdict;
      throw new Refused({ code, message, field }, COMPATIBILITY_EXPRESSIBLE[verdict.outcome]);
    }
    return;
  }
  const test = KINDS[check.kind];
  if (test === undefined) throw new Error(`check-table.json: the js implementation has no check kind '${check.kind}'`);
  const values = test(check)(here);
  if (values !== undefined) {
    const expressible = own(SCHEMA_EXPRESSIBLE, check.kind) ? SCHEMA_EXPRESSIBLE[check.kind] : true;
    throw new Refused(table.refusal(check.code, values), expressible);
  }
}

function readAll(reading) {
  for (const check of table.family("manifest")) {
    if (check.each === "field") {
      for (const spec of table.manifestFields().fields) {
        if (spec.name === VERSION_FIELD) continue;
        for (const sub of check.checks) run(sub, at(reading, spec));
      }
    } else {
      run(check, at(reading, check.of === undefined ? null : fieldSpec(check.of)));
    }
  }
}

// The checks this module implements (kinds bind them; the table orders and words them): fail closed.
table.requireCodes("manifest", [
  "manifest.notObject", "manifest.engineVersion.notString", "manifest.manifestVersion.missing",
  "manifest.manifestVersion.notString", "manifest.manifestVersion.unsupported",
  "manifest.field.notDefined", "manifest.field.requiredByVersion", "manifest.field.missing",
  "manifest.field.notString", "manifest.field.notWholeNumber", "manifest.field.notObject",
  "manifest.property.notNumber", "manifest.property.notString", "manifest.entry.notScalar",
  "manifest.modelId.blank", "manifest.modelSha256.pattern", "manifest.modelRole.unknown",
  "manifest.featureSchema.unknown", "manifest.featureCount.mismatch", "manifest.inputName.blank",
  "manifest.outputName.blank", "manifest.perspective.unsupported", "manifest.engineCompatibility",
  "manifest.modelRole.cannotServe",
]);

let compiled = null;

function validators() {
  if (compiled !== null) return compiled;
  compiled = new Map();
  for (const v of versions()) {
    const document = JSON.parse(fs.readFileSync(path.join(table.SCHEMA_DIR, `manifest-${v}.schema.json`), "utf8"));
    compiled.set(v, ajv.compile(document));
  }
  return compiled;
}

const answer = (refusal) =>
  refusal === null
    ? { verdict: "accepted", message: null, code: null, field: null }
    : { verdict: "refused", message: refusal.message, code: refusal.code, field: refusal.field };

/** {verdict, message, code, field} for manifest text; throws only when the schema and the ordered checks disagree. */
function readManifest(text, engineVersion, expectedRole) {
  const wrong = table.notAString("text", text) || table.notAString("expectedRole", expectedRole, true);
  if (wrong !== null) return answer(wrong);
  let raw;
  try {
    raw = strictJson.parse(text);
  } catch (err) {
    if (err instanceof strictJson.JsonRefusal) return answer(err.refusal);
    throw err;
  }
  const reading = { raw, engineVersion, expectedRole, version: null };
  let refused = null;
  try {
    readAll(reading);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    refused = err;
  }
  const declared = isObject(raw) ? raw[VERSION_FIELD] : undefined;
  const validate = typeof declared === "string" && validators().has(declared) ? validators().get(declared) : undefined;
  if (validate !== undefined) {
    const schemaValid = validate(raw);
    // every refusal that is not schema-expressible comes after all the schema-expressible checks passed
    const mustBeValid = refused === null ? true : refused.schemaExpressible === null ? null : !refused.schemaExpressible;
    if (mustBeValid !== null && schemaValid !== mustBeValid) {
      const detail = schemaValid ? "ajv accepts it" : ajv.errorsText(validate.errors);
      throw new Error(
        `schema and ordered checks disagree: the checks say ${refused ? `'${refused.message}'` : "accepted"}, ` +
          `manifest-${declared}.schema.json says ${detail}`,
      );
    }
  }
  return answer(refused === null ? null : refused.refusal);
}

module.exports = { readManifest };
