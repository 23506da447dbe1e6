/**
 * The reports of verify, explain and the rewriting commands' refusals, and the neutralising of control characters,
 * through the library (the CLI tests run the bundle, which mutation testing cannot see): every line's shape.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { RULE_IDS, RULES } from '../../src/diagnostics/rules.js';
import { RULE_PAGES } from '../../src/diagnostics/rule-pages.js';
import { formatRuleList, formatRulePage } from '../../src/format/explain.js';
import { formatRefusal } from '../../src/format/refusal.js';
import { neutralizeControls } from '../../src/format/terminal.js';
import { formatVerify, type VerifyFileReport } from '../../src/format/verify.js';
import type { SignerReport } from '../../src/jsf/verify.js';

const signer = (over: Partial<SignerReport>): SignerReport => ({
  pointer: '/signature',
  signedPointer: '',
  shape: 'single',
  algorithm: 'ES256',
  keySource: 'publicKey',
  verdict: 'valid',
  trust: 'untrusted',
  ...over,
});

describe('verify reports', () => {
  const reports: VerifyFileReport[] = [
    {
      path: 'a.json',
      ok: true,
      signatures: [
        signer({ trust: 'trusted', trustReason: 'the embedded key is in the trust store' }),
        signer({ pointer: '/components/0/signature', keySource: 'keyId', keyId: 'k1', trust: 'untrusted' }),
      ],
    },
    {
      path: 'b.json',
      ok: false,
      signatures: [
        signer({ verdict: 'invalid', reason: 'the signature does not match the signed data', algorithm: undefined }),
        signer({ verdict: 'unverifiable' }),
      ],
      problems: [
        {
          ruleId: 'signature/unsafe-number',
          severity: 'error',
          message: 'A number beyond 2^53',
          pointer: '/n',
        } as Diagnostic,
      ],
    },
    { path: 'c.json', ok: false, failure: 'E_READ: cannot read c.json', signatures: [] },
  ];

  it('says each document, each signer and each problem on its line, then the totals', () => {
    expect(formatVerify('text', reports)).toBe(
      [
        'a.json: OK',
        '  /signature  ES256  publicKey  valid, trusted (the embedded key is in the trust store)',
        '  /components/0/signature  ES256  keyId "k1"  valid, untrusted',
        'b.json: FAILED',
        '  /signature  ?  publicKey  invalid: the signature does not match the signed data',
        '  /signature  ES256  publicKey  unverifiable: ',
        '  /n  error: A number beyond 2^53  signature/unsafe-number',
        'c.json: FAILED — E_READ: cannot read c.json',
        '4 signatures in 3 documents: 2 valid (1 trusted), 2 not valid',
        '',
      ].join('\n'),
    );
    expect(formatVerify('text', [reports[2]!])).toBe(
      'c.json: FAILED — E_READ: cannot read c.json\n0 signatures in 1 document: 0 valid (0 trusted), 0 not valid\n',
    );
  });

  it('gives the same reports as versioned JSON', () => {
    const text = formatVerify('json', reports);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ reportVersion: 1, documents: reports });
  });
});

describe('refusals', () => {
  const diagnostics: Diagnostic[] = [
    { ruleId: 'bom/version', severity: 'error', message: 'Bad version', pointer: '/version', line: 4, column: 14 },
    { ruleId: 'schema/required', severity: 'error', message: 'Missing name', pointer: '/components/0', line: 9 },
    { ruleId: 'schema/type', severity: 'error', message: 'Not an object', pointer: '' },
    { ruleId: 'bom/serial-number-nil', severity: 'warning', message: 'Nil serial', pointer: '/serialNumber' },
  ];

  it('lists the errors (not the warnings) with their place, then says what was refused and how many', () => {
    expect(formatRefusal('bom.json', diagnostics, (errors) => `refusing to sign bom.json: ${errors}`)).toBe(
      [
        'bom.json:4:14  error  Bad version at /version  bom/version',
        'bom.json:9:1  error  Missing name at /components/0  schema/required',
        'bom.json  error  Not an object  schema/type',
        'bomwright: refusing to sign bom.json: 3 errors',
        '',
      ].join('\n'),
    );
    expect(formatRefusal('x.json', diagnostics.slice(0, 1), (errors) => `refused: ${errors}`)).toBe(
      'x.json:4:14  error  Bad version at /version  bom/version\nbomwright: refused: 1 error\n',
    );
  });
});

describe('explain', () => {
  it('prints a page as written, ending with one newline, or as JSON with the registry entry', () => {
    const id = 'json/duplicate-key';
    const page = formatRulePage(id, 'text');
    expect(page).toBe(
      RULE_PAGES[id].markdown.endsWith('\n') ? RULE_PAGES[id].markdown : `${RULE_PAGES[id].markdown}\n`,
    );
    expect(page.endsWith('\n') && !page.endsWith('\n\n')).toBe(true);
    const json = JSON.parse(formatRulePage(id, 'json')) as Record<string, string>;
    expect(json).toEqual({
      id,
      severity: 'error',
      description: RULES[id].description,
      hint: RULES[id].hint,
      url: 'https://github.com/bomwright/bomwright/blob/main/docs/rules/json/duplicate-key.md',
      markdown: RULE_PAGES[id].markdown,
    });
  });

  it('lists every rule in registry order, ids and severities in aligned columns', () => {
    const lines = formatRuleList('text').split('\n');
    const width = Math.max(...RULE_IDS.map((id) => id.length));
    expect(lines.slice(0, RULE_IDS.length)).toEqual(
      RULE_IDS.map((id) => `${id.padEnd(width)}  ${RULES[id].severity.padEnd(7)}  ${RULES[id].description}`),
    );
    expect(lines.slice(RULE_IDS.length)).toEqual(['', 'Run "bomwright explain RULE-ID" for a rule\'s page.', '']);
    const json = JSON.parse(formatRuleList('json')) as { id: string }[];
    expect(json.map((r) => r.id)).toEqual(RULE_IDS);
  });
});

describe('control characters', () => {
  it('escapes C0 and C1 controls, DEL and bidirectional overrides; keeps line feeds, tabs and other text', () => {
    const escaped = [0x00, 0x08, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9f, 0x202a, 0x202e, 0x2066, 0x2069];
    for (const code of escaped)
      expect(neutralizeControls(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(
        `a\\u${code.toString(16).padStart(4, '0')}b`,
      );
    const kept = [0x09, 0x0a, 0x20, 0x7e, 0xa0, 0x2029, 0x2065, 0x206a, 0x202f, 0xe9];
    for (const code of kept) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(neutralizeControls(text), code.toString(16)).toBe(text);
    }
    expect(neutralizeControls('\u001b[2J\u001b[31mred')).toBe('\\u001b[2J\\u001b[31mred');
  });
});
