"use strict";
/**
 * The Node implementation's adapter: JSON request lines on stdin, one JSON answer line each on stdout
 * (schema/adapter-protocol.schema.json). A request whose formatVersion names a protocol major this package
 * does not speak gets an "error" answer naming the version (docs/versioning.md). It answers engine-compatibility and manifest requests and says
 * "unsupported" to tensor-contract and features. A request that cannot be answered (a stale parser, a
 * schema that disagrees with the ordered checks) gets an "error" answer naming why; the adapter keeps
 * serving until stdin closes.
 */

const readline = require("readline");
const { evaluate } = require("./compatibility");
const { readManifest } = require("./manifest");
const { formatVersionProblem } = require("./data");

const HANDLERS = {
  "engine-compatibility": (r) => {
    const { outcome, message, code } = evaluate(r.constraint, r.engineVersion);
    return { outcome, message, code };
  },
  manifest: (r) => {
    const { verdict, message, code } = readManifest(r.manifest, r.engineVersion, r.expectedRole);
    return { verdict, message, code };
  },
};

function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return { id: "?", status: "error", message: `request is not JSON: ${err.message}` };
  }
  if (request === null || typeof request !== "object" || typeof request.id !== "string") {
    return { id: "?", status: "error", message: "request is not an object with a string id" };
  }
  const version = formatVersionProblem(request, "adapter-protocol");
  if (version !== null) return { id: request.id, status: "error", message: `request: ${version}` };
  const handler = HANDLERS[request.kind];
  if (handler === undefined) {
    return { id: request.id, status: "unsupported", message: `the js implementation has no ${request.kind}` };
  }
  try {
    return { id: request.id, status: "ok", ...handler(request) };
  } catch (err) {
    return { id: request.id, status: "error", message: `${err.name}: ${err.message}` };
  }
}

function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    process.stdout.write(`${JSON.stringify(answer(line))}\n`);
  });
}

if (require.main === module) main();

module.exports = { answer };
