// Type declarations of the dicechess-contract npm package (src/index.js): every export, checked by
// `tsc --strict` against a consumer in test/types/ (npm test). Results are plain JSON-serialisable values.

/** A check-table code (schema/check-table.json), e.g. "engineCompatibility.excluded". */
export type CheckCode = string;

export type Outcome = "satisfied" | "excluded" | "blank" | "invalid-constraint" | "invalid-engine-version";

/** engineCompatibility against a host engine version; message, code and field are null exactly when satisfied. */
export interface Compatibility {
  outcome: Outcome;
  message: string | null;
  code: CheckCode | null;
  field: string | null;
}

/** A manifest's verdict; message, code and field are null exactly when accepted. */
export interface ManifestVerdict {
  verdict: "accepted" | "refused";
  message: string | null;
  code: CheckCode | null;
  /** The JSON pointer of the field the refusal concerns, e.g. "/featureCount". */
  field: string | null;
}

export type Operator = "=" | ">" | ">=" | "<" | "<=";

/** MAJOR, MINOR, PATCH, each within 0..2147483647 (Numbers, exact). */
export type Version = [number, number, number];

export interface Comparator {
  op: Operator;
  version: Version;
}

export type HostVersion = { version: Version } | { error: CheckCode };

/** Whether `constraint` admits `engineVersion` (spec §3.3); never throws for any argument. */
export function evaluate(constraint: string, engineVersion: string): Compatibility;

/** Every comparator of a valid, non-blank constraint; null when it is invalid (or not a string). */
export function parseConstraint(text: string): Comparator[] | null;

/** The host version, or the code of the check it fails. */
export function parseHostVersion(text: string): HostVersion;

/** Thrown when js/generated/ was generated from another grammar than the one shipped. */
export class ParserStale extends Error {}

/** The verdict of the engine (and the kit) on manifest text; never throws for any argument. */
export function readManifest(text: string, engineVersion: string, expectedRole?: string | null): ManifestVerdict;

/** Absolute path of a contract file of this package, e.g. dataPath("schema", "manifest-1.1.0.schema.json"). */
export function dataPath(...parts: string[]): string;

/** A JSON file of the contract, parsed. */
export function readJson(...parts: string[]): unknown;
