/**
 * Edits keep the file's layout (issue 46 item 5): `bump` and `sign` through the CLI on every sample an edit accepts
 * (the valid and warning samples, both syntaxes) and on a prettier-formatted and a minified real BOM change only
 * the lines of the members they change, plus the signature; `verify` passes after each signing edit. A full
 * rewrite of the prettier-formatted BOM (its compact arrays expanded) would change thousands of lines.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeDocument } from '../../src/author/normalize.js';
import { runCli, SAMPLES, ROOT, tempDirs } from '../helpers.js';
import { freshKeyTexts } from '../jsf/fixtures.js';
import { lineDiff } from '../line-diff.js';

const newDir = tempDirs('bomwright-layout-');
const REAL = path.join(ROOT, 'test/fixtures/real');
const EDITABLE = readdirSync(SAMPLES).filter((name) => /^(valid|warning)-.*\.(json|xml)$/.test(name));

let dir: string;
let key: string;
let trust: string;

beforeAll(async () => {
  dir = newDir();
  const { privateKey, trusted } = freshKeyTexts('ES256', 'layout');
  key = path.join(dir, 'layout.key');
  trust = path.join(dir, 'layout.trust');
  writeFileSync(key, privateKey);
  writeFileSync(trust, trusted);
  // prettier writes short objects and arrays on one line: what a full rewrite would expand.
  const minikube = JSON.stringify(
    JSON.parse(readFileSync(path.join(REAL, 'cyclonedx-gomod-bin-minikube-v1.23.1-1.5.json'), 'utf8')),
  );
  writeFileSync(path.join(dir, 'prettier-minikube.json'), await prettier.format(minikube, { parser: 'json' }));
  const trivy = JSON.parse(readFileSync(path.join(REAL, 'trivy-npm-1.7.json'), 'utf8')) as unknown;
  writeFileSync(path.join(dir, 'minified-trivy.json'), JSON.stringify(trivy));
});

/** Copies `source` to a fresh name in the temp folder, runs the command on it; the source text and the result. */
async function edit(source: string, args: (file: string) => string[]) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}-${path.basename(source)}`);
  copyFileSync(source, file);
  const result = await runCli(args(file), { cwd: dir });
  return { before: readFileSync(source, 'utf8'), after: readFileSync(file, 'utf8'), file, result };
}

const isSigned = (text: string) => /^\s*"signature": \{/m.test(text);
/** Several signatures on one object, which bump cannot re-sign with one key: it drops them (--drop-signatures). */
const isMultiple = (text: string) => /^\s*"(chain|signers)": \[/m.test(text);

/** The lines an edit may touch: the members it changes, and a bracket whose comma comes or goes. */
const BUMPED_JSON = /^\s*("version": \d+|"timestamp": "[^"]*"|"metadata": \{( "timestamp": "[^"]*" \})?|[}\]])(,)?$/;
const SIGNATURE_JSON =
  /^\s*("(signature|algorithm|keyId|publicKey|kty|crv|x|y|n|e|value|signers|chain)": .*|[}\]],?|\{)$/;
const BUMPED_XML = /(version="\d+"|<timestamp>[^<]*<\/timestamp>)/;

/**
 * The lines changed, without the pairs that differ by a trailing comma alone (a member added after the last one
 * puts a comma on that one's line: the line is not another member's change).
 */
function changedLines(before: string, after: string): string[] {
  const diff = lineDiff(before, after);
  expect(diff, 'more than 200 lines changed').toBeDefined();
  const removed = new Set(diff!.filter((line) => line.startsWith('- ')).map((line) => line.slice(2)));
  const commaAdded = new Set(
    diff!.filter((line) => line.startsWith('+ ') && removed.has(line.slice(2, -1))).map((line) => line.slice(2, -1)),
  );
  return diff!
    .filter((line) => !commaAdded.has(line.startsWith('- ') ? line.slice(2) : line.slice(2, -1)))
    .map((line) => line.slice(2));
}

describe('bump on every editable sample: the version, the timestamp (and re-signed signatures)', () => {
  it.each(EDITABLE)('%s', async (name) => {
    const source = path.join(SAMPLES, name);
    const text = readFileSync(source, 'utf8');
    const extra = isMultiple(text) ? ['--drop-signatures'] : isSigned(text) ? ['--key', key] : [];
    const { before, after, file, result } = await edit(source, (f) => ['bump', f, ...extra]);
    expect(result.stderr.replace(/^bomwright: warning: (dropped|removed \d+ signature).*\n/gm, '')).toBe('');
    expect(result.code).toBe(0);
    // A JSON byte-order mark is not written back (RFC 8259 §8.1): the first line loses it, nothing else changes.
    const lines = changedLines(before.replace(/^\uFEFF/, ''), after);
    if (name.endsWith('.xml')) {
      expect(lines.length).toBeLessThanOrEqual(4);
      for (const line of lines) expect(line).toMatch(BUMPED_XML);
    } else if (isMultiple(text)) {
      // The signatures dropped: its lines go, and the comma before it.
      for (const line of lines) expect(line).toMatch(new RegExp(`${BUMPED_JSON.source}|${SIGNATURE_JSON.source}`));
      expect(lines.filter((line) => BUMPED_JSON.test(line)).length).toBeGreaterThanOrEqual(4);
    } else if (isSigned(text)) {
      for (const line of lines) expect(line).toMatch(new RegExp(`${BUMPED_JSON.source}|^\\s*"(x|y|value)": "`));
      const verified = await runCli(['verify', file, '--trust', trust], { cwd: dir });
      expect(verified.stdout + verified.stderr).toMatch(/OK/);
      expect(verified.code).toBe(0);
    } else {
      expect(lines.length).toBeLessThanOrEqual(8);
      for (const line of lines) expect(line).toMatch(BUMPED_JSON);
    }
    expect(lines.some((line) => /"version": \d+|version="\d+"/.test(line))).toBe(true);
  });
});

describe('sign on every editable sample: the signature alone', () => {
  it.each(EDITABLE)('%s', async (name) => {
    const source = path.join(SAMPLES, name);
    const { before, after, file, result } = await edit(source, (f) => ['sign', f, '--key', key]);
    const signed = isSigned(before);
    if (/-1\.[23]\.json$/.test(name)) {
      // JSF begins with 1.4: refused, the file untouched.
      expect(result.stderr).toMatch(/E_USAGE: CycloneDX 1\.[23] has no signatures/);
      expect(after).toBe(before);
      return;
    }
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = changedLines(before.replace(/^\uFEFF/, ''), after);
    if (name.endsWith('.xml')) {
      // The enveloped signature goes before </bom>, on the line that closes it.
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*<\/Signature><\/bom>$/);
    } else {
      for (const line of lines) expect(line).toMatch(SIGNATURE_JSON);
      // Added: the signature's lines (a publicKey with x and y, so about ten), and a comma on the line before;
      // or the root's signature replaced (its signers or chain, or its key and value lines).
      if (!signed) expect(lines.filter((line) => line.includes('"signature": {'))).toHaveLength(1);
      expect(lines.length).toBeLessThanOrEqual(signed ? 40 : 12);
    }
    // Signatures the sample already had inside stay, made with keys not trusted here: valid, not trusted.
    const verified = await runCli(['verify', file, '--trust', trust, ...(signed ? ['--allow-untrusted'] : [])], {
      cwd: dir,
    });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});

describe('real BOMs as formatters and generators write them', () => {
  it('prettier-formatted (compact arrays): bump changes two lines, sign adds the signature', async () => {
    const source = path.join(dir, 'prettier-minikube.json');
    const bumped = await edit(source, (f) => ['bump', f]);
    expect(bumped.result.code).toBe(0);
    const lines = changedLines(bumped.before, bumped.after);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(BUMPED_JSON);
    const signed = await edit(source, (f) => ['sign', f, '--key', key]);
    expect(signed.result.code).toBe(0);
    const signedLines = changedLines(signed.before, signed.after);
    expect(signedLines.length).toBeLessThanOrEqual(12);
    for (const line of signedLines) expect(line).toMatch(SIGNATURE_JSON);
    const verified = await runCli(['verify', signed.file, '--trust', trust], { cwd: dir });
    expect(verified.code).toBe(0);
  });

  it('prettier-formatted: add and set add only their lines; normalize rewrites (that is its job)', async () => {
    const source = path.join(dir, 'prettier-minikube.json');
    const added = await edit(source, (f) => ['add', 'component', f, '--name', 'left-pad', '--version', '1.3.0']);
    expect(added.result.code).toBe(0);
    const addedLines = lineDiff(added.before, added.after)!;
    expect(addedLines.every((line) => line.startsWith('+ '))).toBe(true);
    expect(addedLines.join('\n')).toContain('"name": "left-pad"');
    const set = await edit(source, (f) => ['set', f, 'supplier', '{"name":"Acme"}']);
    expect(set.result.code).toBe(0);
    expect(lineDiff(set.before, set.after)).toEqual([
      '-     ]',
      '+     ],',
      '+     "supplier": {',
      '+       "name": "Acme"',
      '+     }',
    ]);
    const normalized = await edit(source, (f) => ['normalize', f]);
    expect(normalized.result.code).toBe(0);
    const model = normalizeDocument(JSON.parse(normalized.before));
    expect(normalized.after).toBe(`${JSON.stringify(model, null, 2)}\n`);
    expect(lineDiff(normalized.before, normalized.after, 10_000)!.length).toBeGreaterThan(1000);
  });

  it('minified: stays one line, changed only where the version, the timestamp and the signature are', async () => {
    const source = path.join(dir, 'minified-trivy.json');
    const bumped = await edit(source, (f) => ['bump', f]);
    expect(bumped.result.code).toBe(0);
    const timestamp = (JSON.parse(bumped.after) as { metadata: { timestamp: string } }).metadata.timestamp;
    expect(bumped.after).toBe(
      bumped.before
        .replace('"version":1,', '"version":2,')
        .replace(/"timestamp":"[^"]*"/, `"timestamp":"${timestamp}"`),
    );
    const signed = await edit(source, (f) => ['sign', f, '--key', key]);
    expect(signed.result.code).toBe(0);
    expect(signed.after.startsWith(`${signed.before.slice(0, -1)},"signature":{"algorithm":"ES256",`)).toBe(true);
    expect(signed.after.includes('\n')).toBe(false);
    const verified = await runCli(['verify', signed.file, '--trust', trust], { cwd: dir });
    expect(verified.code).toBe(0);
  });

  it('CRLF and tabs: a bump keeps both, with a timestamp added where there was none', async () => {
    const source = path.join(dir, 'crlf-tabs.json');
    const model = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
      version: 1,
      components: [],
    };
    writeFileSync(source, JSON.stringify(model, null, '\t').replaceAll('\n', '\r\n'));
    const bumped = await edit(source, (f) => ['bump', f]);
    expect(bumped.result.code).toBe(0);
    const timestamp = (JSON.parse(bumped.after) as { metadata: { timestamp: string } }).metadata.timestamp;
    expect(lineDiff(bumped.before, bumped.after)).toEqual([
      '- \t"version": 1,\r',
      '+ \t"version": 2,\r',
      '+ \t"metadata": {\r',
      `+ \t\t"timestamp": "${timestamp}"\r`,
      '+ \t},\r',
    ]);
  });
});
