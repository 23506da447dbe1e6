import { roundedIntegerLiteral } from '../json/numbers.js';
import { appendPointer, parsePointer, resolvePointer, toPointer } from '../json/pointer.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RuleId } from '../diagnostics/rules.js';
import { truncate } from '../values.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { refLinkMessage, type RefLinkKind } from './bom-link.js';

/** The subset of ajv's ErrorObject the precompiled validators produce (messages are off: we write our own). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

interface Pending {
  /** ajv's instancePath: where the failing keyword applied (the pointer may name a member below it). */
  at: string;
  pointer: string;
  ruleId: RuleId;
  message: string;
  /** What the value should have been, phrased to follow "must be"/"must": used to merge alternatives. */
  expectation: string;
  /** The value at `pointer`, where it has been looked up already. */
  found?: { value: unknown };
}

const MAX_LISTED_VALUES = 16;

/**
 * ajv errors → one readable diagnostic per location. oneOf/anyOf failures arrive as every branch's errors
 * followed by the composite error; they are folded into either the errors of the branch that got furthest into
 * the value or, when every branch fails at the value itself, one "must be A or B" message.
 */
export function schemaDiagnostics(errors: readonly SchemaError[], document: unknown): Diagnostic[] {
  const out: Pending[] = [];
  const enums = new EnumMessages();
  for (const error of errors) {
    if (error.keyword === 'if') continue; // its `then`/`else` errors say what is wrong
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf') {
      out.push(...collapse(error, takeBranchErrors(out, error.instancePath), document));
      continue;
    }
    out.push(describe(error, document, enums));
  }
  // The messages said at each pointer (not a set of pointer + message strings: one long key per finding).
  const said = new Map<string, string[]>();
  const diagnostics: Diagnostic[] = [];
  for (const p of out) {
    const messages = said.get(p.pointer);
    if (messages === undefined) said.set(p.pointer, [p.message]);
    else if (messages.includes(p.message)) continue;
    else messages.push(p.message);
    diagnostics.push({
      ruleId: p.ruleId,
      severity: 'error',
      message: p.message,
      pointer: p.pointer,
      ...valueField(document, p.pointer, p.ruleId, p.found),
    });
  }
  return diagnostics;
}

function isAtOrUnder(pointer: string, base: string): boolean {
  return pointer === base || (pointer.startsWith(base) && pointer.charCodeAt(base.length) === 0x2f);
}

function depth(pointer: string): number {
  let n = 0;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 0x2f) n++;
  return n;
}

/** Branch errors are the trailing run of errors at or below the composite's location. */
function takeBranchErrors(out: Pending[], base: string): Pending[] {
  let start = out.length;
  while (start > 0 && isAtOrUnder(out[start - 1]!.at, base)) start--;
  return out.splice(start);
}

function collapse(composite: SchemaError, branches: Pending[], document: unknown): Pending[] {
  const pointer = composite.instancePath;
  const passing = composite.params.passingSchemas;
  if (Array.isArray(passing)) {
    const which = passing.map((i: number) => i + 1).join(' and ');
    return [
      {
        at: pointer,
        pointer,
        ruleId: 'schema/alternatives',
        message: `Matches more than one of the allowed forms (forms ${which}); it must match exactly one`,
        expectation: 'exactly one allowed form',
      },
    ];
  }
  if (branches.length === 0) {
    return [
      {
        at: pointer,
        pointer,
        ruleId: 'schema/alternatives',
        message: 'Matches none of the allowed forms',
        expectation: 'an allowed form',
      },
    ];
  }
  // A BOM-Link where a branch takes only this document's elements says more than "none of the forms".
  const misplaced = branches.filter((b) => b.ruleId === 'ref/unresolved');
  if (misplaced.length > 0) return misplaced;
  const deepest = Math.max(...branches.map((b) => depth(b.at)));
  if (deepest > depth(pointer)) return branches.filter((b) => depth(b.at) === deepest);
  // Every alternative fails at the value itself: say what it may be instead.
  const expectations = [...new Set(branches.map((b) => b.expectation))];
  if (expectations.length === 1) return [branches[0]!];
  const members = expectations.map((e) => /^an object with member (".*")$/.exec(e)?.[1]);
  if (members.every((m) => m !== undefined)) {
    return [
      {
        at: pointer,
        pointer,
        ruleId: 'schema/required',
        message: `Must have exactly one of the members ${members.join(', ')}`,
        expectation: `an object with one of the members ${members.join(', ')}`,
      },
    ];
  }
  const expectation = expectations.join(', or ');
  return [
    {
      at: pointer,
      pointer,
      ruleId: 'schema/alternatives',
      message: `${subject(document, pointer)} must be ${expectation}`,
      expectation,
    },
  ];
}

function subject(document: unknown, pointer: string): string {
  const value = resolvePointer(document, pointer);
  return value === undefined || typeof value === 'object' ? 'The value' : truncate(JSON.stringify(value), 60);
}

function describe(error: SchemaError, document: unknown, enums: EnumMessages): Pending {
  const value = resolvePointer(document, error.instancePath);
  const described = describeKeyword(error, value, document, enums);
  return {
    at: error.instancePath,
    ...described,
    ...(described.pointer === error.instancePath ? { found: { value } } : {}),
  };
}

/**
 * An enumeration's message for a wrong value, worked out once per enumeration and value: a generator's one
 * misspelling repeats in every component (40,000 times), the nearest allowed value is an edit-distance search,
 * and one string for all of them is also one string to keep and compare.
 */
class EnumMessages {
  private readonly byEnum = new Map<readonly unknown[], { list: string; messages: Map<string, string> }>();

  private known(allowed: readonly unknown[]): { list: string; messages: Map<string, string> } {
    let known = this.byEnum.get(allowed);
    if (known === undefined) {
      known = { list: listValues(allowed), messages: new Map() };
      this.byEnum.set(allowed, known);
    }
    return known;
  }

  /** The allowed values, listed. */
  list(allowed: readonly unknown[]): string {
    return this.known(allowed).list;
  }

  /** `… is not one of …`, with ` (did you mean …?)` for a string near an allowed one. */
  message(allowed: readonly unknown[], value: unknown): string {
    const known = this.known(allowed);
    if (typeof value !== 'string') return `${shown(value)} is not one of ${known.list}`;
    let message = known.messages.get(value);
    if (message === undefined) {
      // `libary`, `sha256`: the value meant, by spelling, case and punctuation aside.
      const near = nearestNames(
        value,
        allowed.filter((a): a is string => typeof a === 'string'),
        // One letter in three may be wrong: "c" is not a typo of "a".
        { key: (name) => name.toLowerCase().replace(/[^a-z0-9]/g, ''), limit: 1, maxEdits: (n) => Math.floor(n / 3) },
      );
      message = `${shown(value)} is not one of ${known.list}${didYouMean(near, (n) => JSON.stringify(n))}`;
      known.messages.set(value, message);
    }
    return message;
  }
}

/** A value as messages quote it. */
function shown(value: unknown): string {
  return truncate(JSON.stringify(value) ?? 'undefined', 60);
}

/** Known unreadable patterns, named. */
function patternName(pattern: string): string | undefined {
  if (pattern.startsWith('^urn:cdx:')) return 'a BOM-Link (urn:cdx:<serial>/<version>[#<bom-ref>])';
  return undefined;
}

/** `value` is the one at the error's instancePath. */
function describeKeyword(
  error: SchemaError,
  value: unknown,
  document: unknown,
  enums: EnumMessages,
): Omit<Pending, 'at'> {
  const { instancePath: pointer, params } = error;
  switch (error.keyword) {
    case 'type': {
      const expected = String(params.type).replaceAll(',', ' or ');
      return {
        pointer,
        ruleId: 'schema/type',
        message: `Must be ${article(expected)}, not ${typeName(value)}`,
        expectation: article(expected),
      };
    }
    case 'refLink': {
      const kind = params.kind as RefLinkKind;
      return {
        pointer,
        ruleId: 'ref/unresolved',
        message: refLinkMessage(kind, String(value)),
        expectation: kind === 'document' ? 'a bom-ref of this document' : 'a bom-ref or a BOM-Link to an element',
      };
    }
    case 'integerText':
      return {
        pointer,
        ruleId: 'schema/type',
        message: `Must be an integer, not ${truncate(literalAt(document, pointer) ?? String(value), 60)} (a number with a fractional part that only reads as ${String(value)})`,
        expectation: 'an integer',
      };
    case 'required': {
      const name = JSON.stringify(params.missingProperty);
      return {
        pointer,
        ruleId: 'schema/required',
        message: `Missing required member ${name}`,
        expectation: `an object with member ${name}`,
      };
    }
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      return {
        pointer: appendPointer(pointer, name),
        ruleId: 'schema/additional-property',
        message: `Unknown member ${JSON.stringify(name)}`,
        expectation: `an object without member ${JSON.stringify(name)}`,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      if (error.schemaPath.includes('spdx')) {
        return {
          pointer,
          ruleId: 'schema/enum',
          message: `${shown(value)} is not an SPDX license identifier; use "name" for other licenses, or an "expression"`,
          expectation: 'an SPDX license identifier',
        };
      }
      return {
        pointer,
        ruleId: 'schema/enum',
        message: enums.message(allowed, value),
        expectation: `one of ${enums.list(allowed)}`,
      };
    }
    case 'const': {
      const expected = truncate(JSON.stringify(params.allowedValue), 80);
      return { pointer, ruleId: 'schema/const', message: `Must be ${expected}`, expectation: expected };
    }
    case 'format': {
      const format = String(params.format);
      return {
        pointer,
        ruleId: 'schema/format',
        message: `${shown(value)} is not a valid ${format}`,
        expectation: `a valid ${format}`,
      };
    }
    case 'pattern': {
      const named = patternName(String(params.pattern));
      const pattern = truncate(String(params.pattern), 100);
      const expectation = named ?? `a string matching ${pattern}`;
      return {
        pointer,
        ruleId: 'schema/pattern',
        message: named ? `${shown(value)} is not ${named}` : `${shown(value)} does not match ${pattern}`,
        expectation,
      };
    }
    case 'uniqueItems': {
      const { i, j } = params as { i: number; j: number };
      return {
        pointer: appendPointer(pointer, j),
        ruleId: 'schema/unique-items',
        message: `Item ${j} is equal to item ${i}; items must be unique`,
        expectation: 'an array of unique items',
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const bound = `${String(params.comparison)} ${String(params.limit)}`;
      return {
        pointer,
        ruleId: 'schema/bounds',
        message: `${shown(value)} must be ${bound}`,
        expectation: `a number ${bound}`,
      };
    }
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties': {
      const what = error.keyword.endsWith('Length')
        ? 'characters'
        : error.keyword.endsWith('Items')
          ? 'items'
          : 'members';
      const bound = `${error.keyword.startsWith('min') ? 'at least' : 'at most'} ${String(params.limit)} ${what}`;
      return { pointer, ruleId: 'schema/bounds', message: `Must have ${bound}`, expectation: `a value with ${bound}` };
    }
    case 'multipleOf':
      return {
        pointer,
        ruleId: 'schema/bounds',
        message: `${shown(value)} must be a multiple of ${String(params.multipleOf)}`,
        expectation: `a multiple of ${String(params.multipleOf)}`,
      };
    case 'dependencies':
    case 'dependentRequired': {
      const message = `Member ${JSON.stringify(params.property)} requires member ${JSON.stringify(params.missingProperty)}`;
      return { pointer, ruleId: 'schema/required', message, expectation: 'an object with its dependent members' };
    }
    case 'not':
      return {
        pointer,
        ruleId: 'schema/other',
        message: 'Must not match the excluded form',
        expectation: 'not the excluded form',
      };
    case 'false schema':
      return { pointer, ruleId: 'schema/other', message: 'Is not allowed here', expectation: 'absent' };
    default:
      return {
        pointer,
        ruleId: 'schema/other',
        message: `Fails schema keyword "${error.keyword}"`,
        expectation: `valid for "${error.keyword}"`,
      };
  }
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map((v) => JSON.stringify(v));
  const rest = values.length - shown.length;
  return shown.join(', ') + (rest > 0 ? ` (and ${rest} more)` : '');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'undefined') return 'missing';
  return `${article(typeof value)}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/** The offending value for reports; whole objects and arrays are left out to keep reports small. */
function valueField(
  document: unknown,
  pointer: string,
  ruleId: RuleId,
  found?: { value: unknown },
): { value?: string } {
  if (ruleId === 'schema/required' || ruleId === 'schema/additional-property') return {};
  const value = found === undefined ? resolvePointer(document, pointer) : found.value;
  if (value === undefined || (value !== null && typeof value === 'object')) return {};
  return { value: truncate(JSON.stringify(value), 120) };
}

/** The text of the number at `pointer` when JSON.parse rounded it to an integer. */
function literalAt(document: unknown, pointer: string): string | undefined {
  const segments = parsePointer(pointer);
  const key = segments.pop();
  return key === undefined ? undefined : roundedIntegerLiteral(resolvePointer(document, toPointer(segments)), key);
}
