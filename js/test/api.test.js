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
  const done = spawnSync(process.execPath, [path.join(__dirname, "..", "src", "differential.js")], { encoding: "utf8" });
  assert.strictEqual(done.status, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /0 disagreement\(s\)/);
});
