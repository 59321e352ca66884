"use strict";
/**
 * prepack: copy the contract files the package reads (schema/*.json, grammar/*.lark) from the checkout
 * into data/, so the packed tarball is self-contained (src/data.js reads them there once installed).
 * postpack (`node tools/copy-data.js --remove`) deletes data/ again: in a checkout the files are read
 * from schema/ and grammar/ directly, never from a stale copy.
 */

const fs = require("fs");
const path = require("path");

const PACKAGE_DIR = path.resolve(__dirname, "..");
const CHECKOUT = path.resolve(PACKAGE_DIR, "..");
const TARGET = path.join(PACKAGE_DIR, "data");
const COPIED = [["schema", /\.json$/], ["grammar", /\.lark$/]];

function main() {
  fs.rmSync(TARGET, { recursive: true, force: true });
  if (process.argv.includes("--remove")) return;
  const staged = `${TARGET}.tmp-${process.pid}`;
  fs.rmSync(staged, { recursive: true, force: true });
  let count = 0;
  for (const [dir, pattern] of COPIED) {
    const source = path.join(CHECKOUT, dir);
    if (!fs.existsSync(source)) throw new Error(`${source} is missing: npm pack runs in a dicechess-contract checkout`);
    fs.mkdirSync(path.join(staged, dir), { recursive: true });
    for (const name of fs.readdirSync(source).filter((n) => pattern.test(n)).sort()) {
      fs.copyFileSync(path.join(source, name), path.join(staged, dir, name));
      count += 1;
    }
  }
  fs.renameSync(staged, TARGET);
  console.log(`copy-data: ${count} contract files into ${path.relative(process.cwd(), TARGET) || TARGET}`);
}

main();
