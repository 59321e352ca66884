"use strict";
// The public API, through the package's own name (exports), on the kit's example package and corpus.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const contract = require("dicechess-contract");

const CHECKOUT = path.resolve(__dirname, "..", "..");
const golden = (...parts) => path.join(CHECKOUT, "golden", ...parts);

test("evaluate follows the engine's outcomes and messages", () => {
  const satisfied = contract.evaluate(">=0.12.0 <1.0.0", "0.12.0");
  assert.deepStrictEqual([satisfied.outcome, satisfied.message], ["satisfied", null]);
  const excluded = contract.evaluate(">=0.12.0 <1.0.0", "1.0.0");
  assert.strictEqual(excluded.outcome, "excluded");
  assert.strictEqual(excluded.message, "engineCompatibility '>=0.12.0 <1.0.0' does not include engine version '1.0.0'");
  assert.strictEqual(excluded.code, "engineCompatibility.excluded");
});

test("the example package's manifest is accepted, and refused for an engine it excludes", () => {
  const text = fs.readFileSync(golden("example-package", "manifest.json"), "utf8");
  assert.strictEqual(contract.readManifest(text, "0.12.0").verdict, "accepted");
  const refused = contract.readManifest(text, "2.0.0");
  assert.strictEqual(refused.verdict, "refused");
  assert.match(refused.message, /does not include engine version '2.0.0'/);
});

test("every manifest case of the conformance corpus gets its canonical verdict", () => {
  const { cases } = JSON.parse(fs.readFileSync(golden("conformance", "manifests.json"), "utf8"));
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const got = contract.readManifest(c.manifest, c.engineVersion, c.expectedRole);
    assert.strictEqual(got.verdict, c.verdict, `${c.id}: ${JSON.stringify(got)}`);
    if (c.message !== null && c.messageMatch === "exact") assert.strictEqual(got.message, c.message, c.id);
    else if (c.message !== null) assert.ok(got.message.startsWith(c.message), `${c.id}: ${got.message}`);
  }
});

test("the evaluator agrees with the corpus and node-semver (differential)", () => {
  const done = spawnSync(process.execPath, [path.join(__dirname, "differential.js")], { encoding: "utf8" });
  assert.strictEqual(done.status, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /0 disagreement\(s\)/);
});

test("wrong types are refused with the kit's message, never thrown", () => {
  for (const wrong of [12, null, undefined, {}, ["1.2.3"], true, 1n]) {
    const manifest = contract.readManifest(wrong, "0.12.0");
    assert.strictEqual(manifest.verdict, "refused");
    assert.strictEqual(manifest.code, "api.argument.type");
    assert.match(manifest.message, /^text must be a string, not /);
    const constraint = contract.evaluate(wrong, "0.12.0");
    assert.deepStrictEqual([constraint.outcome, constraint.code], ["invalid-constraint", "api.argument.type"]);
    assert.match(constraint.message, /^constraint must be a string, not /);
    const host = contract.evaluate(">=0.12.0", wrong);
    assert.deepStrictEqual([host.outcome, host.code], ["invalid-engine-version", "api.argument.type"]);
    assert.strictEqual(contract.parseConstraint(wrong), null);
    assert.deepStrictEqual(contract.parseHostVersion(wrong), { error: "api.argument.type" });
  }
  assert.strictEqual(contract.readManifest({ manifestVersion: "1.0.0" }, "0.12.0").message,
    "text must be a string, not object");
  assert.strictEqual(contract.evaluate(12, "0.12.0").message, "constraint must be a string, not number");
  const text = fs.readFileSync(golden("example-package", "manifest.json"), "utf8");
  assert.strictEqual(contract.readManifest(text, "0.12.0", 5).message, "expectedRole must be a string or null, not number");
  assert.strictEqual(contract.readManifest(text, "0.12.0", null).verdict, "accepted");
});

test("a host engine version that is not a string is refused, never thrown, for a valid manifest (review H6)", () => {
  const text = fs.readFileSync(golden("example-package", "manifest.json"), "utf8");
  for (const wrong of [5, null, undefined, {}, ["0.12.0"], true]) {
    const got = contract.readManifest(text, wrong);
    assert.deepStrictEqual([got.verdict, got.code, got.message],
      ["refused", "manifest.engineVersion.notString", "engine version must be a string"], String(wrong));
  }
});

test("exported results are JSON-serialisable: versions are Numbers", () => {
  const comparators = contract.parseConstraint(">=0.12.0 <2147483647.0.1");
  assert.strictEqual(JSON.stringify(comparators),
    '[{"op":">=","version":[0,12,0]},{"op":"<","version":[2147483647,0,1]}]');
  assert.strictEqual(JSON.stringify(contract.parseHostVersion("2147483647.0.0")), '{"version":[2147483647,0,0]}');
  assert.deepStrictEqual(contract.parseHostVersion("2147483648.0.0"), { error: "engineCompatibility.engineVersion.range" });
  assert.strictEqual(contract.parseConstraint(">=2147483648.0.0"), null);
});

test("index.d.ts declares every export, and a consumer of all of them compiles under tsc --strict", () => {
  const declared = new Set([...fs.readFileSync(path.join(__dirname, "..", "index.d.ts"), "utf8")
    .matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]));
  assert.deepStrictEqual([...declared].sort(), Object.keys(contract).sort());
  const tsc = require.resolve("typescript/bin/tsc");
  const done = spawnSync(process.execPath, [tsc, "-p", path.join(__dirname, "types", "tsconfig.json")],
    { encoding: "utf8" });
  assert.strictEqual(done.status, 0, done.stdout + done.stderr);
});

test("a check table lacking a check this package implements is refused when the package loads (fail closed)", () => {
  const os = require("os");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dicechess-js-table-"));
  try {
    for (const dir of ["schema", "grammar"]) fs.cpSync(path.join(CHECKOUT, dir), path.join(scratch, dir), { recursive: true });
    for (const part of ["src", "generated", "package.json"]) {
      fs.cpSync(path.join(__dirname, "..", part), path.join(scratch, "js", part), { recursive: true });
    }
    fs.symlinkSync(path.join(__dirname, "..", "node_modules"), path.join(scratch, "js", "node_modules"));
    const tablePath = path.join(scratch, "schema", "check-table.json");
    const document = JSON.parse(fs.readFileSync(tablePath, "utf8"));
    const drop = new Set(["manifest.modelRole.cannotServe", "manifest.engineCompatibility"]); // reproducer 25
    document.families.manifest.checks = document.families.manifest.checks.filter((c) => !drop.has(c.code));
    fs.writeFileSync(tablePath, JSON.stringify(document, null, 2));
    const done = spawnSync(process.execPath, ["-e", "require('./js/src/index.js').readManifest('{}', '0.12.0')"],
      { cwd: scratch, encoding: "utf8" });
    assert.notStrictEqual(done.status, 0);
    assert.match(done.stderr, /schema\/check-table\.json: the manifest family lacks the check 'manifest\.engineCompatibility' \(2 missing\)/);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
