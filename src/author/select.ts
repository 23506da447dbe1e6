/**
 * Component selectors: which components an edit applies to, so one command can fix many. The components are the
 * ones compliance profiles check: metadata.component and every entry of `components`, nested ones included.
 *
 *   `*`                     every component
 *   `pkg:composer/symfony/*` a purl pattern: `*` is any run of characters; without `@` any version matches
 *   `PATH=VALUE`            some value at the member path (dot-separated, arrays entered) is VALUE (`*` as above):
 *                           `type=library`, `bom-ref=app`, `licenses.license.id=MIT`
 *   `PATH`                  the member is there, not empty
 *   `!PATH`                 the member is missing or empty: `!supplier`
 *
 * Several selectors must all hold. A member path the document's version does not have is refused with the
 * nearest ones, so a typo never silently selects nothing.
 */
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';
import { appendPointer } from '../json/pointer.js';
import { isRecord } from '../values.js';
import { schemaPlace } from './schema-place.js';

type Selector =
  | { kind: 'all'; text: string }
  | { kind: 'purl'; text: string; pattern: RegExp; withVersion: boolean }
  | { kind: 'member'; text: string; path: readonly string[]; value: RegExp | undefined; absent: boolean };

/** A component an edit applies to: its JSON pointer and the object itself (in the document given). */
export interface SelectedComponent {
  pointer: string;
  record: Record<string, unknown>;
}

function glob(text: string): RegExp {
  const source = text
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's');
}

/** One selector's text, read and checked against the document's version. */
export function parseSelector(text: string, format: SpecFormat): Selector {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'A component selector must not be empty');
  if (trimmed === '*') return { kind: 'all', text: trimmed };
  if (trimmed.startsWith('pkg:')) {
    const withVersion = trimmed.includes('@');
    return { kind: 'purl', text: trimmed, pattern: glob(trimmed), withVersion };
  }
  const absent = trimmed.startsWith('!');
  const body = absent ? trimmed.slice(1) : trimmed;
  const equals = body.indexOf('=');
  if (absent && equals !== -1)
    throw new BomwrightError(
      'E_USAGE',
      `${JSON.stringify(text)}: !PATH selects components without the member; it takes no value`,
    );
  const pathText = equals === -1 ? body : body.slice(0, equals);
  const path = pathText.split('.');
  if (path.some((segment) => segment === ''))
    throw new BomwrightError(
      'E_USAGE',
      `${JSON.stringify(text)} is not a component selector: *, a purl pattern (pkg:npm/*), PATH=VALUE, PATH or !PATH`,
    );
  // The member path must exist in a component of this version (the nearest are suggested).
  schemaPlace(format, ['components', '0', ...path], { where: '/components/N', skip: 2, enterArrays: true });
  return {
    kind: 'member',
    text: trimmed,
    path,
    value: equals === -1 ? undefined : glob(body.slice(equals + 1)),
    absent,
  };
}

/** The values at a member path below `value`, arrays entered on the way and at the end. */
function valuesAt(value: unknown, path: readonly string[], out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const item of value) valuesAt(item, path, out);
    return;
  }
  if (path.length === 0) {
    out.push(value);
    return;
  }
  if (isRecord(value) && Object.hasOwn(value, path[0]!)) valuesAt(value[path[0]!], path.slice(1), out);
}

const filled = (value: unknown) =>
  typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;

function scalarText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/** The purl without what a pattern does not name: the version (unless it names one), qualifiers and subpath. */
function purlPart(purl: string, withVersion: boolean): string {
  const end = purl.search(withVersion ? /[?#]/ : /[@?#]/);
  return end === -1 ? purl : purl.slice(0, end);
}

export function matches(record: Record<string, unknown>, selector: Selector): boolean {
  switch (selector.kind) {
    case 'all':
      return true;
    case 'purl':
      return typeof record.purl === 'string' && selector.pattern.test(purlPart(record.purl, selector.withVersion));
    case 'member': {
      const values: unknown[] = [];
      valuesAt(record, selector.path, values);
      if (selector.absent) return !values.some(filled);
      if (selector.value === undefined) return values.some(filled);
      const pattern = selector.value;
      return values.some((v) => {
        const text = scalarText(v);
        return text !== undefined && pattern.test(text);
      });
    }
  }
}

/** Every component of the document, in document order: metadata.component, then `components`, each with its nested. */
export function allComponents(document: Record<string, unknown>): SelectedComponent[] {
  const out: SelectedComponent[] = [];
  const visit = (record: Record<string, unknown>, pointer: string) => {
    out.push({ pointer, record });
    const nested = record.components;
    if (Array.isArray(nested))
      nested.forEach((child, i) => {
        if (isRecord(child)) visit(child, appendPointer(appendPointer(pointer, 'components'), i));
      });
  };
  const metadata = document.metadata;
  if (isRecord(metadata) && isRecord(metadata.component)) visit(metadata.component, '/metadata/component');
  if (Array.isArray(document.components))
    document.components.forEach((child, i) => {
      if (isRecord(child)) visit(child, `/components/${i}`);
    });
  return out;
}

/**
 * The components every selector matches. None is a usage error that names the selectors: an edit meant for
 * some components that reaches none is a mistake the user should see, not a silent success.
 */
export function selectComponents(
  document: Record<string, unknown>,
  selectors: readonly Selector[],
): SelectedComponent[] {
  const selected = allComponents(document).filter(({ record }) => selectors.every((s) => matches(record, s)));
  if (selected.length === 0)
    throw new BomwrightError(
      'E_USAGE',
      `No component matches ${selectors.map((s) => JSON.stringify(s.text)).join(' and ')}`,
    );
  return selected;
}
