/**
 * Every requirement of every built-in profile has a hint that names a bomwright command, and that command, run
 * as the finding prints it (in JSON and in XML), makes the finding go away. The documents below each fall short
 * of many requirements; for each requirement the first that does is used.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfiles, validate, writeDocumentFile, type Diagnostic } from '../../src/index.js';
import { BUILTIN_PROFILE_NAMES } from '../../src/node/builtin-profiles.js';
import { runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-hints-');
const profiles = loadProfiles([...BUILTIN_PROFILE_NAMES]);

const identity = { serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', version: 1 };
const app = { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0.0' };
const lib = { type: 'library', 'bom-ref': 'lib', name: 'lib', version: '2.0.0', purl: 'pkg:npm/lib@2.0.0' };

/** Documents that fall short in many ways, each a valid start for the hints' commands. */
const DOCUMENTS: Record<string, Record<string, unknown>> = {
  bare: {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    ...identity,
    metadata: { tools: { components: [{ type: 'application', name: 'gen' }] }, component: { ...app } },
    components: [{ type: 'library', 'bom-ref': 'lib', name: 'lib' }],
  },
  broken: {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    ...identity,
    metadata: { component: { ...app } },
    components: [{ ...lib }],
    dependencies: [{ ref: 'app', dependsOn: ['lib', 'ghost'] }],
    vulnerabilities: [{ id: 'CVE-2024-0001' }],
  },
  licences: {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    ...identity,
    metadata: { component: { ...app } },
    components: [
      {
        ...lib,
        licenses: [{ license: { name: 'Proprietary', acknowledgement: 'concluded' } }],
        externalReferences: [{ type: 'distribution', url: 'downloads/lib.tgz', hashes: [{ content: 'ab12' }] }],
        hashes: [{ content: 'ab12' }],
      },
      { type: 'library', 'bom-ref': 'other', name: 'other', licenses: [{ license: { name: 'Proprietary' } }] },
    ],
  },
  old: { bomFormat: 'CycloneDX', specVersion: '1.4', ...identity, metadata: { component: { ...app } } },
  unversioned: { bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: identity.serialNumber },
  unnamed: {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    ...identity,
    components: [{ type: 'library', 'bom-ref': 'lib' }],
  },
  'no-serial-urn': { bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: 'bom-1', version: 1 },
  cbom: {
    bomFormat: 'CBOM',
    specVersion: '1.4-cbom-1.0',
    ...identity,
    metadata: { component: { ...app } },
  },
};

/**
 * Requirements no document bomwright reads as a BOM can fail (it is CycloneDX or CBOM, with a spec version):
 * their hints still name a command, and the test checks that no document here fails them.
 */
const UNREACHABLE = new Set(['ntia-2021/format', 'cra/machine-readable', 'cisa-2026/sbom-format-version']);

/** Found only in a CBOM 1.4-cbom-1.0, which has no XML form: looked for in JSON only. */
const CBOM_ONLY = new Set(['cisa-2026/sbom-format-name']);

/** The words of a command as a POSIX shell splits them (single and double quotes). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The profile findings of a file, read as the CLI reads it (an XML signature is the document's signature). */
async function findings(file: string): Promise<Diagnostic[]> {
  return (await validate(readFileSync(file), { signatures: 'ignore', profiles })).diagnostics.filter((d) =>
    d.ruleId.startsWith('profile/'),
  );
}

const requirementIds = profiles.flatMap((p) => p.requirements.map((r) => `${p.name}/${r.id}`));

describe('built-in profile hints', () => {
  it('every requirement of every built-in profile names a bomwright command in its hint', () => {
    for (const profile of profiles)
      for (const requirement of profile.requirements) {
        const id = `${profile.name}/${requirement.id}`;
        expect(requirement.hint, id).toMatch(/`bomwright [a-z]+ [^`]+`/);
      }
  });

  for (const syntax of ['json', 'xml'] as const) {
    it(
      `the command each finding's hint names makes that finding go away (${syntax})`,
      { timeout: 600_000 },
      async () => {
        // The first finding of each requirement, in the first document that has one.
        const base = temp();
        const found = new Map<string, { document: string; diagnostic: Diagnostic }>();
        for (const [name, value] of Object.entries(DOCUMENTS)) {
          const file = path.join(base, `${name}.${syntax}`);
          if (syntax === 'xml' && name === 'cbom') continue;
          writeDocumentFile(file, value, { to: syntax });
          for (const diagnostic of await findings(file)) {
            const id = diagnostic.ruleId.slice('profile/'.length);
            if (!found.has(id)) found.set(id, { document: name, diagnostic });
          }
        }
        for (const id of UNREACHABLE) expect(found.has(id), id).toBe(false);
        const missing = requirementIds.filter(
          (id) => !found.has(id) && !UNREACHABLE.has(id) && !(syntax === 'xml' && CBOM_ONLY.has(id)),
        );
        expect(missing).toEqual([]);
        // One run per document and command: requirements that share a hint share its run.
        const runs = new Map<string, { document: string; words: string[]; ids: string[]; pointers: string[] }>();
        for (const [id, { document, diagnostic }] of found) {
          const command = /`(bomwright [^`]+)`/.exec(diagnostic.message)?.[1];
          expect(command, `${id}: ${diagnostic.message}`).toBeDefined();
          const words = shellWords(command!)
            .slice(1)
            .map((w) => (w === 'bom.json' ? `bom.${syntax}` : w === 'REF' ? 'lib' : w));
          const key = `${document}\u0000${words.join('\u0000')}`;
          const run = runs.get(key) ?? { document, words, ids: [], pointers: [] };
          run.ids.push(id);
          run.pointers.push(diagnostic.pointer);
          runs.set(key, run);
        }
        for (const { document, words, ids, pointers } of runs.values()) {
          const dir = temp();
          const file = path.join(dir, `bom.${syntax}`);
          writeDocumentFile(file, DOCUMENTS[document]!, { to: syntax });
          writeFileSync(path.join(dir, 'ARTEFACT'), 'the artefact');
          if (words.includes('KEY.pem')) await runCli(['keygen', '--out', 'KEY'], { cwd: dir });
          const args = words.map((w) => (w === 'KEY.pem' ? 'KEY.private.pem' : w));
          if (args.includes('PREVIOUS.json'))
            await runCli(['init', '-o', 'PREVIOUS.json', '--name', 'app', '--component-version', '1.0.0'], {
              cwd: dir,
            });
          const result = await runCli(args, { cwd: dir });
          expect(result.stderr, `${ids.join(', ')}: bomwright ${args.join(' ')}`).not.toMatch(/E_[A-Z]+/);
          const output = args.includes('-o') ? path.join(dir, args[args.indexOf('-o') + 1]!) : file;
          // That finding (the requirement at that place) is gone; other components may still fall short.
          const left = (await findings(output)).map((d) => `${d.ruleId.slice('profile/'.length)} ${d.pointer}`);
          ids.forEach((id, i) =>
            expect(left, `${id} after bomwright ${args.join(' ')}`).not.toContain(`${id} ${pointers[i]!}`),
          );
        }
      },
    );
  }
});
