"use strict";
/**
 * Differential check: the grammar evaluator against node-semver on every valid constraint of the corpus.
 *
 * The kit's grammar is a strict subset of node-semver ranges (space-separated comparators, AND), so for
 * every case whose canonical outcome is satisfied or excluded, `semver.satisfies(engineVersion,
 * constraint)` must say the same, and the Node evaluator must reproduce the canonical outcome. Two
 * readings are known to differ and are skipped by *rule*, never by case id, and counted in the output:
 *   - leading zeros ("0012.0.0"): the engine reads them as their value; node-semver refuses numeric
 *     identifiers with leading zeros, so the range or the version is invalid to it;
 *   - control characters at the edges (U+0000-U+0008, U+000E-U+001F): the engine's String.trim drops
 *     every character <= U+0020; node-semver trims only JavaScript whitespace.
 * Any other difference fails (exit 1) with the case named. Before that, the Node evaluator must reproduce
 * the canonical outcome and message of every case, valid or not (so a freshly generated parser can be
 * tested with this script alone). Usage: node js/test/differential.js [corpus].
 */

const fs = require("fs");
const semver = require("semver");
const { evaluate } = require("../src/compatibility");

const { dataPath, formatVersionProblem } = require("../src/data");

const CORPUS = dataPath("golden", "conformance", "engine-compatibility.json"); // a checkout's corpus

const SKIPS = [
  ["leading zeros", (c) => /(^|[^0-9])0[0-9]/.test(`${c.constraint} ${c.engineVersion}`)],
  ["control characters at the edges", (c) => /[\x00-\x08\x0e-\x1f]/.test(c.constraint)],
];

function main() {
  const file = process.argv[2] || CORPUS;
  const corpus = JSON.parse(fs.readFileSync(file, "utf8"));
  const version = formatVersionProblem(corpus, "conformance-engine-compatibility");
  if (version !== null) {
    console.error(`${file}: ${version}`);
    process.exit(2);
  }
  const cases = corpus.cases;
  const skipped = Object.fromEntries(SKIPS.map(([reason]) => [reason, 0]));
  const failures = [];
  let compared = 0;
  for (const c of cases) { // first: the evaluator reproduces every canonical outcome and message
    const mine = evaluate(c.constraint, c.engineVersion);
    if (mine.outcome !== c.outcome || mine.message !== c.message) {
      failures.push(`${c.id}: evaluator says ${JSON.stringify(mine)}, canonical ${c.outcome} ${JSON.stringify(c.message)}`);
    }
  }
  for (const c of cases) {
    if (c.outcome !== "satisfied" && c.outcome !== "excluded") continue;
    const skip = SKIPS.find(([, applies]) => applies(c));
    if (skip) {
      skipped[skip[0]] += 1;
      continue;
    }
    compared += 1;
    const theirs = semver.satisfies(c.engineVersion, c.constraint);
    if (semver.validRange(c.constraint) === null) {
      failures.push(`${c.id}: node-semver finds ${JSON.stringify(c.constraint)} invalid`);
    } else if (theirs !== (c.outcome === "satisfied")) {
      failures.push(`${c.id}: node-semver says ${theirs} for ${JSON.stringify(c.engineVersion)} in ` +
        `${JSON.stringify(c.constraint)}, canonical ${c.outcome}`);
    }
  }
  const skips = Object.entries(skipped).map(([reason, n]) => `${n} skipped (${reason})`).join(", ");
  console.log(`evaluator: ${cases.length} corpus cases; node-semver ${require("semver/package.json").version} ` +
    `differential: ${compared} valid constraints ` +
    `compared, ${skips}, ${failures.length} disagreement(s)`);
  for (const f of failures) console.log(`  ${f}`);
  if (compared === 0) {
    console.log("  no valid constraint compared: the corpus is empty or unreadable");
    process.exitCode = 1;
  }
  if (failures.length > 0) process.exitCode = 1;
}

main();
