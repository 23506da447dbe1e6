/**
 * Licence strings (SPDX ids, expressions, other names) as the licenseChoice shape of each spec version:
 * 1.2–1.4 and 1.7 take a list mixing licences and expressions; 1.5 and 1.6 take either licences or exactly
 * one expression.
 */
import { createRequire } from 'node:module';
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';

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

/** Operators, parentheses, `+` and LicenseRef-/DocumentRef- only occur in expressions. */
const EXPRESSION = /\s(?:AND|OR|WITH)\s|[()]|\+$|^(?:LicenseRef|DocumentRef)-/;

/** One licence string as a licenseChoice item: a known SPDX id (case fixed up), an expression, or a name. */
function licenseItem(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'A licence must not be empty');
  const id = fixupSpdxId(trimmed);
  if (id !== undefined) return { license: { id } };
  if (EXPRESSION.test(trimmed)) return { expression: trimmed };
  return { license: { name: trimmed } };
}

export function licenseChoice(licenses: readonly string[], format: SpecFormat): Record<string, unknown>[] {
  const items = licenses.map(licenseItem);
  if (format.licenseExpressionAlone && items.length > 1 && items.some((item) => 'expression' in item)) {
    throw new BomwrightError(
      'E_USAGE',
      `CycloneDX ${format.specVersion} takes either licence ids and names or one expression, not both; join them into one expression (e.g. "MIT AND Apache-2.0")`,
    );
  }
  return items;
}

/** A list of strings is shorthand for licences; anything else is taken as the JSON the caller means. */
export function licensesValue(value: unknown, format: SpecFormat): unknown {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')
    ? licenseChoice(value as string[], format)
    : value;
}
