"use strict";
/**
 * Reading manifest.json in Node, from the vendored schemas: the same verdicts and messages as the kit.
 *
 * Everything a schema can say is read from schema/manifest-<v>.schema.json with ajv (draft 2020-12):
 * which versions exist, which fields a version requires or does not define, each field's type,
 * pattern and enum, and featureCount's width per featureSchema (the schema's if/then table). The only
 * things typed here are the engine's order of checks and its message texts (spec/contract.md §4.1
 * steps 3-6). After the ordered checks, the whole document is validated with ajv against its version's
 * schema and the two verdicts must agree; when they do not (a schema and the checks drifted apart)
 * the answer is an error naming both, never a silent pick.
 */

const fs = require("fs");
const path = require("path");
const Ajv2020 = require("ajv/dist/2020");
const strictJson = require("./strict-json");
const { evaluate } = require("./compatibility");

const SCHEMA_DIR = path.resolve(__dirname, "..", "..", "schema");
// allowUnionTypes: "type": ["number", "null"] is standard 2020-12; ajv's strict mode only asks to opt in.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });

// The engine's structural reading order (§4.1 step 3), after manifestVersion.
const FIELD_ORDER = [
  "modelId", "modelSha256", "modelRole", "featureSchema", "featureCount", "inputName", "outputName",
  "perspective", "engineCompatibility", "evaluationProfile", "calibration", "provenance",
];
const DEFAULTS = { modelRole: "position-value", perspective: "side-to-move", inputName: "input", outputName: "output" };

class Refused extends Error {
  constructor(message, schemaExpressible) {
    super(message);
    // true: the version's schema must reject the document too; false: it must accept it; null: unknown
    this.schemaExpressible = schemaExpressible;
  }
}

function compareVersions(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

let loaded = null;

function schemas() {
  if (loaded !== null) return loaded;
  const versions = {};
  for (const name of fs.readdirSync(SCHEMA_DIR)) {
    const match = /^manifest-([0-9]+\.[0-9]+\.[0-9]+)\.schema\.json$/.exec(name);
    if (!match) continue;
    const document = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, name), "utf8"));
    versions[match[1]] = { document, validate: ajv.compile(document), fields: {} };
  }
  const order = Object.keys(versions).sort(compareVersions);
  for (const v of order) {
    const { document } = versions[v];
    const required = new Set(document.required);
    for (const [field, spec] of Object.entries(document.properties)) {
      let rule = "optional";
      if (required.has(field)) rule = "required";
      else if (spec.type === "null") rule = "undefined";
      versions[v].fields[field] = { rule, spec, check: ajv.compile(spec) };
    }
  }
  loaded = { versions, order };
  return loaded;
}

/** The enum a field has in whichever version defines it (roles, perspectives, schema ids), sorted. */
function enumOf(field) {
  const { versions, order } = schemas();
  for (const v of order) {
    const spec = versions[v].document.properties[field];
    if (spec && Array.isArray(spec.enum)) return [...spec.enum].sort();
  }
  throw new Error(`no manifest schema enumerates ${field}`);
}

/** The width the schema ties to a featureSchema id (its allOf if/then table). */
function widthOf(document, schemaId) {
  for (const branch of document.allOf || []) {
    const ifConst = branch.if && branch.if.properties && branch.if.properties.featureSchema;
    if (ifConst && ifConst.const === schemaId) return branch.then.properties.featureCount.const;
  }
  return null;
}

/** The version that introduced ``field`` as required, if an earlier version does not define it. */
function introducedBy(version, field) {
  const { versions, order } = schemas();
  const earlier = order.filter((v) => compareVersions(v, version) < 0);
  return earlier.some((v) => versions[v].fields[field] && versions[v].fields[field].rule === "undefined");
}

const present = (raw, name) => Object.prototype.hasOwnProperty.call(raw, name) && raw[name] !== null;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function readAll(raw, engineVersion, expectedRole) {
  // --- step 3: structural, field by field
  if (!present(raw, "manifestVersion")) throw new Refused("missing required field 'manifestVersion'", true);
  const declared = raw.manifestVersion;
  if (typeof declared !== "string") throw new Refused("field 'manifestVersion' must be a string", true);
  const { versions, order } = schemas();
  if (!(declared in versions)) {
    throw new Refused(`unsupported manifestVersion '${declared}'; expected one of ${order.join(", ")}`, false);
  }
  const version = versions[declared];
  const values = {};
  for (const name of FIELD_ORDER) {
    const field = version.fields[name] || { rule: "optional", spec: {}, check: () => true };
    const here = present(raw, name);
    if (field.rule === "undefined" && here) {
      throw new Refused(`manifestVersion ${declared} does not define field '${name}'`, true);
    }
    if (field.rule === "required" && !here) {
      const text = introducedBy(declared, name)
        ? `manifestVersion ${declared} requires field '${name}'`
        : `missing required field '${name}'`;
      throw new Refused(text, true);
    }
    if (!here) {
      values[name] = DEFAULTS[name] !== undefined ? DEFAULTS[name] : null;
      continue;
    }
    const value = raw[name];
    if (name === "featureCount") {
      if (!field.check(value)) throw new Refused("field 'featureCount' must be a whole number", true);
    } else if (name === "calibration") {
      if (!isObject(value)) throw new Refused("field 'calibration' must be an object", true);
      const sub = field.spec.anyOf[0].properties;
      for (const key of Object.keys(sub)) {
        const subValue = value[key];
        if (subValue === undefined || subValue === null) continue;
        if (!ajv.validate(sub[key], subValue)) {
          const word = [].concat(sub[key].type).includes("number") ? "a number" : "a string";
          throw new Refused(`field '${key}' must be ${word}`, true);
        }
      }
    } else if (name === "provenance") {
      if (!isObject(value)) throw new Refused("field 'provenance' must be an object", true);
      const each = field.spec.anyOf[0].additionalProperties;
      for (const [key, item] of Object.entries(value)) {
        if (!ajv.validate(each, item)) {
          throw new Refused(`field 'provenance.${key}' must be a string, number or boolean`, true);
        }
      }
    } else if (typeof value !== "string") {
      throw new Refused(`field '${name}' must be a string`, true);
    }
    values[name] = value;
  }

  // --- step 4: values, each against its own property schema where the version defines it
  const valueOk = (name) => {
    const field = version.fields[name];
    if (!field || field.rule === "undefined" || !present(raw, name)) return true;
    const spec = field.spec.anyOf ? field.spec.anyOf[0] : field.spec;
    return ajv.validate(spec, values[name]);
  };
  if (!valueOk("modelId")) throw new Refused("modelId must not be blank", true);
  if (!valueOk("modelSha256")) throw new Refused("modelSha256 must be exactly 64 hexadecimal characters", true);
  const roles = enumOf("modelRole");
  if (!roles.includes(values.modelRole)) {
    throw new Refused(`unknown modelRole '${values.modelRole}'; known roles: ${roles.join(", ")}`, true);
  }
  const schemaIds = enumOf("featureSchema");
  if (!valueOk("featureSchema")) {
    throw new Refused(`unknown featureSchema '${values.featureSchema}'; known schemas: ${schemaIds.join(", ")}`, true);
  }
  const width = widthOf(version.document, values.featureSchema);
  if (width === null || values.featureCount !== width) {
    throw new Refused(
      `featureCount ${values.featureCount} does not match featureSchema '${values.featureSchema}' (${width} columns)`,
      true,
    );
  }
  if (!valueOk("inputName")) throw new Refused("inputName must not be blank", true);
  if (!valueOk("outputName")) throw new Refused("outputName must not be blank", true);
  const perspectives = enumOf("perspective");
  if (!perspectives.includes(values.perspective)) {
    throw new Refused(`unsupported perspective '${values.perspective}'; supported: ${perspectives.join(", ")}`, true);
  }
  const compatibility = evaluate(values.engineCompatibility, engineVersion);
  if (compatibility.message !== null) {
    // blank and invalid constraints are syntax the schema's pattern refuses; the others are not
    // (an invalid host version says nothing about the document: the schema may go either way)
    const byOutcome = { blank: true, "invalid-constraint": true, excluded: false, "invalid-engine-version": null };
    throw new Refused(compatibility.message, byOutcome[compatibility.outcome]);
  }
  // --- step 6: the expected-role gate
  if (expectedRole !== null && expectedRole !== undefined && values.modelRole !== expectedRole) {
    throw new Refused(`modelRole '${values.modelRole}' cannot serve as '${expectedRole}'`, false);
  }
  return values;
}

/** {verdict, message} for manifest text; throws only when the schema and the ordered checks disagree. */
function readManifest(text, engineVersion, expectedRole) {
  let raw;
  try {
    raw = strictJson.parse(text);
  } catch (err) {
    if (err instanceof strictJson.JsonRefusal) return { verdict: "refused", message: err.message };
    throw err;
  }
  if (!isObject(raw)) return { verdict: "refused", message: "manifest must be a JSON object" };
  let refusal = null;
  try {
    readAll(raw, engineVersion, expectedRole);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    refusal = err;
  }
  const { versions } = schemas();
  const version = typeof raw.manifestVersion === "string" ? versions[raw.manifestVersion] : undefined;
  if (version !== undefined) {
    const schemaValid = version.validate(raw);
    // every refusal that is not schema-expressible comes after all the schema-expressible checks passed
    const mustBeValid = refusal === null ? true : refusal.schemaExpressible === null ? null : !refusal.schemaExpressible;
    if (mustBeValid !== null && schemaValid !== mustBeValid) {
      const detail = schemaValid ? "ajv accepts it" : ajv.errorsText(version.validate.errors);
      throw new Error(
        `schema and ordered checks disagree: the checks say ${refusal ? `'${refusal.message}'` : "accepted"}, ` +
          `manifest-${raw.manifestVersion}.schema.json says ${detail}`,
      );
    }
  }
  return refusal === null ? { verdict: "accepted", message: null } : { verdict: "refused", message: refusal.message };
}

module.exports = { readManifest };
