// A consumer of every export of dicechess-contract, compiled by `tsc --strict` (test/types.test.js).
import {
  type CheckCode, type Comparator, type Compatibility, type HostVersion, type ManifestVerdict, type Outcome,
  type Version, ParserStale, dataPath, evaluate, parseConstraint, parseHostVersion, readJson, readManifest,
} from "dicechess-contract";

const verdict: Compatibility = evaluate(">=0.12.0 <1.0.0", "0.12.0");
const outcome: Outcome = verdict.outcome;
const code: CheckCode | null = verdict.code;
const comparators: Comparator[] | null = parseConstraint(">=0.12.0");
const first: Version | undefined = comparators?.[0]?.version;
const host: HostVersion = parseHostVersion("0.12.0");
const major: number | undefined = "version" in host ? host.version[0] : undefined;
const manifest: ManifestVerdict = readManifest("{}", "0.12.0", null);
const refused: boolean = readManifest("{}", "0.12.0", "position-value").verdict === "refused";
const schema: string = dataPath("schema", "manifest-1.1.0.schema.json");
const registry: unknown = readJson("schema", "feature-schemas.json");
const stale: Error = new ParserStale("stale");

console.log(JSON.stringify({ outcome, code, first, major, manifest, refused, schema, registry: typeof registry,
  stale: stale instanceof ParserStale }));
