/**
 * Licence strings (SPDX ids, expressions, other names) as the licenseChoice shape of each spec version:
 * 1.2–1.4 and 1.7 take a list mixing licences and expressions; 1.5 and 1.6 take either licences or exactly
 * one expression.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { schemaPlace } from './schema-place.js';

type FixupSpdxId = (id: string) => string | undefined;
let fixup: FixupSpdxId | undefined;

/**
 * The CycloneDX library's SPDX id lookup, loaded on first use: it brings the whole SPDX list and ~70 KB of
 * library code, which every CLI start would otherwise pay for although only authoring needs it.
 */
function fixupSpdxId(id: string): string | undefined {
  fixup ??= (createRequire(import.meta.url)('@cyclonedx/cyclonedx-library/SPDX') as { fixupSpdxId: FixupSpdxId })
    .fixupSpdxId;
  return fixup(id);
}

let ids: readonly string[] | undefined;

/** The SPDX licence ids: the enum of the SPDX schema the CycloneDX library ships (read, never copied). */
function spdxIds(): readonly string[] {
  if (ids === undefined) {
    const load = createRequire(import.meta.url);
    const root = path.dirname(load.resolve('@cyclonedx/cyclonedx-library/package.json'));
    const schema = load(path.join(root, 'res/schema/spdx.SNAPSHOT.schema.json')) as { enum?: unknown };
    ids = Array.isArray(schema.enum) ? schema.enum.filter((id): id is string => typeof id === 'string') : [];
  }
  return ids;
}

/** SPDX ids compared without case and punctuation: `Apache2.0` and `apache-2.0` both mean `Apache-2.0`. */
const spdxKey = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The SPDX ids nearest to a licence string that is not one. */
function nearestSpdxIds(text: string): string[] {
  // Tighter than for names: a licence name is not a typo of an id a few letters away (`My Licence`, `Unlicense`).
  return nearestNames(text, spdxIds(), { key: spdxKey, maxEdits: (length) => (length >= 10 ? 2 : 1), prefixes: false });
}

/** Operators, parentheses, `+` and LicenseRef-/DocumentRef- only occur in expressions. */
const EXPRESSION = /\s(?:AND|OR|WITH)\s|[()]|\+$|^(?:LicenseRef|DocumentRef)-/;

/**
 * One licence string as a licenseChoice item: a known SPDX id (case fixed up), an expression, or a name. A
 * string that is near an SPDX id but not one (`Apache2`) is refused with the id, since a misspelt id would
 * silently become a named licence that no licence policy recognises; `names` are taken as names as they are.
 */
function licenseItem(text: string, asName: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'A licence must not be empty');
  const id = fixupSpdxId(trimmed);
  if (id !== undefined) return { license: { id } };
  if (EXPRESSION.test(trimmed)) return { expression: trimmed };
  const near = nearestSpdxIds(trimmed);
  if (near.length > 0)
    throw new BomwrightError(
      'E_USAGE',
      `${JSON.stringify(trimmed)} is not an SPDX licence id${didYouMean(near)}; a licence without an SPDX id is given as a name ${asName.replaceAll('NAME', JSON.stringify(trimmed).slice(1, -1))}`,
    );
  return { license: { name: trimmed } };
}

function nameItem(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'A licence name must not be empty');
  return { license: { name: trimmed } };
}

export function licenseChoice(
  licenses: readonly string[],
  format: SpecFormat,
  names: readonly string[] = [],
  /** How the caller gives a licence name instead, for the refusal of a near-miss id (NAME stands for the text). */
  asName = '(--license-name NAME)',
): Record<string, unknown>[] {
  const items = [...licenses.map((text) => licenseItem(text, asName)), ...names.map(nameItem)];
  if (format.licenseExpressionAlone && items.length > 1 && items.some((item) => 'expression' in item)) {
    throw new BomwrightError(
      'E_USAGE',
      `CycloneDX ${format.specVersion} takes either licence ids and names or one expression, not both; join them into one expression (e.g. "MIT AND Apache-2.0")`,
    );
  }
  return items;
}

/**
 * A string (`MIT`, `MIT OR Apache-2.0`) or a list of strings is shorthand for licences; anything else is taken as
 * the JSON the caller means.
 */
export function licensesValue(value: unknown, format: SpecFormat): unknown {
  // `set` takes no --license-name: a name is given as the JSON it becomes.
  const asName = `as JSON: '[{"license":{"name":"NAME"}}]'`;
  if (typeof value === 'string') return licenseChoice([value], format, [], asName);
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')
    ? licenseChoice(value as string[], format, [], asName)
    : value;
}

export const LICENSE_ACKNOWLEDGEMENTS = ['declared', 'concluded'] as const;
export type LicenseAcknowledgement = (typeof LICENSE_ACKNOWLEDGEMENTS)[number];

/**
 * Licence items marked as `declared` (by the component's own metadata) or `concluded` (by whoever wrote the BOM),
 * CycloneDX 1.6+: on the `license` object, or beside an `expression`. Refused for an older version, which has no
 * place for it, rather than dropped.
 */
export function withAcknowledgement(
  items: Record<string, unknown>[],
  acknowledgement: LicenseAcknowledgement | undefined,
  format: SpecFormat,
): Record<string, unknown>[] {
  if (acknowledgement === undefined) return items;
  if (!(LICENSE_ACKNOWLEDGEMENTS as readonly string[]).includes(acknowledgement))
    throw new BomwrightError(
      'E_USAGE',
      `A licence acknowledgement is ${LICENSE_ACKNOWLEDGEMENTS.join(' or ')}, not ${JSON.stringify(acknowledgement)}`,
    );
  if (!hasAcknowledgement(format))
    throw new BomwrightError(
      'E_USAGE',
      `CycloneDX ${format.specVersion} has no licence acknowledgement (it came with 1.6); convert the document first (bomwright convert FILE -o OUT --spec-version 1.6)`,
    );
  return items.map((item) => {
    const license = item.license;
    if (license !== null && typeof license === 'object' && !Array.isArray(license))
      return { ...item, license: { ...license, acknowledgement } };
    return { ...item, acknowledgement };
  });
}

/** Whether the version's schema has a licence acknowledgement (asked of the schema, not of a version list). */
function hasAcknowledgement(format: SpecFormat): boolean {
  try {
    return schemaPlace(format, ['components', '0', 'licenses', '0', 'license', 'acknowledgement']) !== undefined;
  } catch {
    return false;
  }
}
