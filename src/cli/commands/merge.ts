/**
 * `bomwright merge FILE... -o OUT`: many BOMs into one valid BOM (src/author/merge.ts). Not `merge-reports`, which
 * joins validation reports. Operands as validate takes them (files, folders, patterns, `-`); `-o -` writes to
 * standard output. Each input is read strictly and must be valid, and its signatures are checked as verify checks
 * them; the result is validated, optionally signed, and written atomically. Exit 0 when written; 1 when an input
 * or the result is invalid, an input signature is refused, or inputs conflict (unless `--on-conflict first`); 2
 * for usage and I/O errors. Nothing is written unless the exit is 0. The summary goes to standard output, written
 * or not (standard error when the BOM goes to standard output).
 */
import path from 'node:path';
import {
  merge,
  type BomMergeInput,
  type BomMergeResult,
  type DifferencePolicy,
  type MemberPolicy,
} from '../../author/merge.js';
import { describeInputSignature, refusedSignatures, type InputSignature } from '../../author/merge-signatures.js';
import { gatePolicy, type GatePolicy } from '../../jsf/judge.js';
import type { TrustStore } from '../../jsf/trust.js';
import { describedComponent } from '../../author/init.js';
import { changeLines } from './convert.js';
import type { ComponentFields } from '../../author/elements.js';
import { BomwrightError } from '../../errors.js';
import { formatRefusal } from '../../format/refusal.js';
import { SPEC_FORMATS } from '../../formats/formats.js';
import { signDocument } from '../../jsf/sign-document.js';
import { describeProblems, loadBaselineFile, loadEditable, loadJsonFile } from '../../node/documents.js';
import { chooseKey, loadTrustStore } from '../../node/keys.js';
import { resolveInputs, STDIN } from '../../node/discover.js';
import { displayPath, refuseOverwriting } from '../../node/paths.js';
import { isOwnStream, writeFileAtomic } from '../../node/write.js';
import { isRecord } from '../../values.js';
import { outputSyntax, SYNTAXES, type Syntax } from '../../document/syntax.js';
import { writeJsonModel, writeXmlModel } from '../../document/write.js';
import { signXmlText } from '../../xml/sign.js';
import { warnDropped } from '../xml-resign.js';
import { defineCommand, type CliContext } from '../command.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import {
  componentVersion,
  componentVersionOptions,
  gateTrustOptions,
  keyOptions,
  passphraseFrom,
  restoreStdin,
} from '../options.js';

const ON_CONFLICT = ['fail', 'first'] as const;

interface MergeCommandOptions {
  files: string[];
  output: string;
  hierarchical: boolean;
  root?: Partial<ComponentFields>;
  from?: string;
  specVersion?: string;
  baseline?: string;
  key?: string;
  keyId?: string;
  passphrase?: string;
  onConflict: (typeof ON_CONFLICT)[number];
  /** Per member: `fail` (a conflict) or `first` (keep the earlier value); see BomMergeOptions.onDifference. */
  onDifference?: MemberPolicy;
  /** How components with purls are matched (see BomMergeOptions.match). */
  match?: 'purl' | 'coordinates';
  /** Keys that make the inputs' signatures trusted (as for verify). */
  trust?: TrustStore;
  /** With --key: inputs whose signatures are valid but not trusted may be merged and re-signed. */
  allowUntrusted?: boolean;
  /** What fails among the inputs' signatures, as for verify (gatePolicy of the same flags). */
  signaturePolicy?: Pick<GatePolicy, 'requireTrusted' | 'allowUnverifiable'>;
  /** JSF `excludes` names accepted in the inputs' signatures, as for verify. */
  allowExcludes?: string[];
  format: 'text' | 'json';
  to?: Syntax;
}

export const mergeCommand = defineCommand({
  command: 'merge <files..>',
  describe: 'Merge BOMs into one valid BOM: duplicates combined, bom-refs unique, the dependency graph whole',
  builder: (y) =>
    keyOptions(
      componentVersionOptions(
        // The inputs' signatures are checked as verify checks them, under its trust options.
        gateTrustOptions(y).positional('files', {
          type: 'string',
          array: true,
          demandOption: true,
          coerce: restoreStdin,
          describe: 'The BOMs to merge: files, directories, glob patterns, - for standard input',
        }),
        "The merged product's version (the root component's, not bomwright's)",
      ),
      'Sign the merged BOM with this key (the inputs\u2019 signatures cannot survive a merge)',
    )
      .option('output', {
        alias: 'o',
        type: 'string',
        demandOption: true,
        describe: 'The merged BOM to write (- for standard output)',
      })
      .option('hierarchical', {
        type: 'boolean',
        default: false,
        describe: 'Each input becomes one component holding its components (needs --name or --from)',
      })
      .option('name', { type: 'string', describe: "The merged product's name (its root component)" })
      .option('group', { type: 'string', describe: "The merged product's group" })
      .option('type', { type: 'string', describe: "The root component's type (default application)" })
      .option('purl', { type: 'string', describe: "The merged product's package URL" })
      .option('from', { type: 'string', describe: 'Describe the merged product by this package.json' })
      .option('spec-version', {
        type: 'string',
        choices: SPEC_FORMATS.map((f) => f.specVersion),
        describe: "The output's spec version (required when the inputs' differ)",
      })
      .option('baseline', {
        type: 'string',
        describe: 'The previous merged BOM: keep its serialNumber and follow the version rule',
      })
      .option('on-conflict', {
        choices: ON_CONFLICT,
        default: 'fail' as const,
        describe: 'fail: write nothing when inputs disagree (exit 1); first: keep the earlier value, report, write',
      })
      .option('on-difference', {
        type: 'string',
        array: true,
        describe:
          'MEMBER=fail|first: whether two values of this member (e.g. description, supplier.name, hashes) are a conflict or the earlier is kept (default: free text first, hashes a set, the rest fail)',
      })
      .option('match', {
        choices: ['purl', 'coordinates'] as const,
        default: 'purl' as const,
        describe:
          'purl: one component per canonical purl (probable duplicates reported); coordinates: also combine purls that differ only in qualifiers or type spelling',
      })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Summary format' })
      .option('to', {
        choices: SYNTAXES,
        describe: "The syntax to write (default: the output's extension, .json or .xml, else the first input's)",
      })
      .conflicts('from', 'name'),
  handler: (argv, context) => {
    const version = componentVersion(argv);
    const root: Partial<ComponentFields> = {
      ...(argv.name === undefined ? {} : { name: argv.name }),
      ...(version === undefined ? {} : { version }),
      ...(argv.group === undefined ? {} : { group: argv.group }),
      ...(argv.type === undefined ? {} : { type: argv.type }),
      ...(argv.purl === undefined ? {} : { purl: argv.purl }),
    };
    return runMerge(
      {
        files: argv.files,
        output: restoreStdin([argv.output])[0]!,
        hierarchical: argv.hierarchical,
        ...(Object.keys(root).length > 0 ? { root } : {}),
        ...(argv.from === undefined ? {} : { from: argv.from }),
        ...(argv.specVersion === undefined ? {} : { specVersion: argv.specVersion }),
        ...(argv.baseline === undefined ? {} : { baseline: argv.baseline }),
        ...(argv.key === undefined ? {} : { key: argv.key }),
        ...(argv.keyId === undefined ? {} : { keyId: argv.keyId }),
        ...(argv.passphraseEnv === undefined ? {} : { passphrase: passphraseFrom(argv.passphraseEnv, context.env) }),
        onConflict: argv.onConflict,
        ...(argv.onDifference === undefined ? {} : { onDifference: memberPolicy(argv.onDifference) }),
        ...(argv.trust.length + argv.trustRoot.length > 0 ? { trust: loadTrustStore(argv.trust, argv.trustRoot) } : {}),
        signaturePolicy: gatePolicy({
          trustGiven: argv.trust.length + argv.trustRoot.length > 0,
          ...(argv.requireTrusted === undefined ? {} : { requireTrusted: argv.requireTrusted }),
          allowUntrusted: argv.allowUntrusted,
          allowUnverifiable: argv.allowUnverifiable,
        }),
        allowUntrusted: argv.allowUntrusted,
        ...(argv.allowExcludes.length > 0 ? { allowExcludes: argv.allowExcludes } : {}),
        match: argv.match,
        format: argv.format,
        ...(argv.to === undefined ? {} : { to: argv.to }),
      },
      context,
    );
  },
});

/** `MEMBER=fail|first` options into a policy; anything else is a usage error. */
function memberPolicy(values: readonly string[]): MemberPolicy {
  const policy: Record<string, DifferencePolicy> = {};
  for (const value of values) {
    const match = /^([^=]+)=(fail|first)$/.exec(value);
    if (match === null)
      throw new BomwrightError(
        'E_USAGE',
        `--on-difference takes MEMBER=fail or MEMBER=first, not ${JSON.stringify(value)}`,
      );
    policy[match[1]!] = match[2] === 'fail' ? 'fail' : 'first';
  }
  return policy;
}

function rootFields(
  options: MergeCommandOptions,
  cwd: string,
): (Partial<ComponentFields> & { name: string }) | undefined {
  let fields: Partial<ComponentFields> = { ...options.root };
  if (options.from !== undefined) {
    const file = path.resolve(cwd, options.from);
    const loaded = loadJsonFile(file);
    if ('problems' in loaded) throw describeProblems(options.from, loaded.problems);
    if (!isRecord(loaded.value)) throw new BomwrightError('E_INPUT', `${options.from} is not a JSON object`);
    fields = describedComponent(loaded.value, fields);
  }
  if (Object.keys(fields).length === 0) return undefined;
  if (typeof fields.name !== 'string' || fields.name === '')
    throw new BomwrightError('E_USAGE', 'The merged product needs a name: give --name (or --from package.json)');
  return { ...fields, name: fields.name };
}

/** The flag or key that would accept what was refused, as verify names it. */
function refusalHint(signature: InputSignature, signing: boolean): string {
  if (signature.status === 'unverifiable')
    return signing
      ? ' and the result would be signed (give --trust with its key)'
      : ' (give --trust with its key, or accept it unchecked with --allow-unverifiable)';
  if (signature.status !== 'untrusted') return '';
  return `${signing ? ' and the result would be signed' : ''} (give --trust with its key, or --allow-untrusted)`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryText(result: BomMergeResult, output: string, written: boolean): string {
  const s = result.summary;
  const lines: string[] = [];
  for (const c of s.conflicts)
    lines.push(`conflict: ${c.element}: ${c.member}: ${c.kept} (kept) vs ${c.other} (${c.input})`);
  if (s.differences.length > 0)
    lines.push(
      `note: ${plural(s.differences.length, 'difference')} in free text (or members chosen with --on-difference MEMBER=first): the earlier value kept${s.differences[0] === undefined ? '' : `, e.g. ${s.differences[0].element}: ${s.differences[0].member}`}`,
    );
  for (const group of s.sameDocument)
    lines.push(`same document: ${group.join(' and ')} have one serial number and version (the same BOM twice?)`);
  for (const group of s.probableDuplicates)
    lines.push(`probable duplicate: ${group.join(' and ')} (one package? combine with --match coordinates)`);
  lines.push(...changeLines(s));
  for (const r of s.renamed) lines.push(`renamed: ${r.input}: ${r.from} → ${r.to}`);
  const services = s.servicesIn > 0 ? `, services ${s.servicesIn} → ${s.servicesOut}` : '';
  const vulnerabilities =
    s.vulnerabilitiesIn > 0 ? `, vulnerabilities ${s.vulnerabilitiesIn} → ${s.vulnerabilitiesOut}` : '';
  lines.push(
    `${written ? `Merged ${plural(s.inputs.length, 'BOM')} into ${output}` : `Did not write ${output}`}: components ${s.componentsIn} → ${s.componentsOut}${s.rootAdded ? ` (and the new root ${s.root})` : ''}${services}${vulnerabilities}; ${plural(s.duplicatesCombined, 'duplicate')} combined, ${plural(s.renamed.length, 'bom-ref')} renamed, ${plural(s.conflicts.length, 'conflict')}${s.dropped.length > 0 ? `, ${plural(s.dropped.length, 'member')} dropped` : ''}${s.converted.length > 0 ? `, ${plural(s.converted.length, 'value')} converted` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The operands as validate takes them (files, folders, patterns, `-`), each with the name messages give it. A file
 * named twice is merged twice, and said so; standard input can be read once.
 */
async function mergeInputs(
  operands: readonly string[],
  context: CliContext,
): Promise<{ source: string; name: string }[]> {
  const found = await resolveInputs(operands, context.cwd, { keepRepeats: true });
  const named = found.map(({ source }) => ({
    source,
    name: source === STDIN ? STDIN_NAME : displayPath(source, context.cwd),
  }));
  const seen = new Set<string>();
  for (const { source, name } of named) {
    if (seen.has(source) && source === STDIN)
      throw new BomwrightError('E_USAGE', 'Standard input (-) can be read once: name it once among the BOMs to merge');
    if (seen.has(source)) context.stderr(`bomwright: warning: ${name} is named twice: it is merged with itself\n`);
    seen.add(source);
  }
  return named;
}

/** How standard input is named in messages. */
const STDIN_NAME = '<stdin>';

async function runMerge(options: MergeCommandOptions, context: CliContext): Promise<number> {
  const resolve = (file: string) => path.resolve(context.cwd, file);
  const toStdout = options.output === STDIN;
  const output = toStdout ? STDIN : resolve(options.output);
  const shown = toStdout ? 'standard output' : options.output;
  const files = await mergeInputs(options.files, context);
  if (!toStdout)
    refuseOverwriting(output, [
      ...files.map(({ source }) => ({ file: source, role: 'an input' })),
      ...(options.key === undefined ? [] : [{ file: resolve(options.key), role: 'the signing key' }]),
      ...(options.from === undefined ? [] : [{ file: resolve(options.from), role: 'the package.json it reads' }]),
    ]);
  const root = rootFields(options, context.cwd);
  // The key is read before any work, so a wrong one costs nothing.
  const key =
    options.key === undefined ? undefined : chooseKey(resolve(options.key), options.keyId, options.passphrase);
  const inputs: BomMergeInput[] = [];
  let firstSyntax: Syntax | undefined;
  for (const { source, name } of files) {
    // JSON and CycloneDX XML alike: each is read into the one model.
    const loaded = await loadEditable(source);
    if (!loaded.valid) {
      context.stderr(formatRefusal(name, loaded.diagnostics, (errors) => `refusing to merge ${name}: ${errors}`));
      return EXIT_INVALID;
    }
    firstSyntax ??= loaded.source.syntax;
    inputs.push({
      document: loaded.value,
      name,
      // An XML signature is not in the model: verified on the text it signs.
      ...(loaded.source.syntax === 'xml' && loaded.source.xmlSigned ? { xml: loaded.source.text } : {}),
    });
  }
  // Standard output has no extension: --to, else the first input's syntax.
  const syntax = outputSyntax({ to: options.to, output: toStdout ? undefined : options.output, input: firstSyntax });
  const baseline = options.baseline === undefined ? undefined : loadBaselineFile(resolve(options.baseline));
  const result = await merge(inputs, {
    hierarchical: options.hierarchical,
    ...(root === undefined ? {} : { root }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(options.onDifference === undefined ? {} : { onDifference: options.onDifference }),
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.allowExcludes === undefined ? {} : { allowExcludes: options.allowExcludes }),
    ...(options.match === undefined ? {} : { match: options.match }),
    toolVersion: context.toolVersion,
    // Parsed here for the merge alone: no need to copy them.
    consumeInputs: true,
  });
  const signatures = result.summary.removedSignatures;
  if (signatures.length > 0)
    context.stderr(
      `bomwright: warning: ${plural(signatures.length, 'signature')} of the inputs cannot survive a merge: ${signatures.map(describeInputSignature).join(', ')}${key === undefined ? '; sign the result with --key' : ''}\n`,
    );
  const refused = refusedSignatures(signatures, {
    ...options.signaturePolicy,
    signing: key !== undefined,
    allowUntrusted: options.allowUntrusted === true,
  });
  for (const signature of refused)
    context.stderr(
      `bomwright: refusing to merge ${signature.input}: its signature ${signature.pointer} is ${signature.status}${refusalHint(signature, key !== undefined)}\n`,
    );
  const conflicted = result.summary.conflicts.length > 0 && options.onConflict === 'fail';
  let document: unknown = result.document;
  const written = result.valid && !conflicted && refused.length === 0;
  if (written) {
    let text: string;
    if (syntax === 'xml') {
      text = writeXmlModel(document, { onDrop: warnDropped(context.stderr) });
      if (key !== undefined)
        text = signXmlText(text, {
          key,
          ...(options.keyId === undefined ? { publicKey: true } : { keyId: options.keyId }),
        }).text;
    } else {
      if (key !== undefined)
        document = signDocument(document, {
          key,
          ...(options.keyId === undefined ? { publicKey: key.family !== 'oct' } : { keyId: options.keyId }),
        });
      text = writeJsonModel(document);
    }
    if (toStdout) context.stdout(text);
    else writeFileAtomic(output, text);
  }
  // The summary (a report of the run, written or not) goes to standard output, where a CI step pipes it, unless
  // the merged BOM goes there: then to standard error. Where it goes depends on -o alone, never on the outcome.
  const say = toStdout || isOwnStream(output) ? context.stderr : context.stdout;
  if (!result.valid)
    context.stderr(
      formatRefusal(shown, result.diagnostics, (errors) => `refusing to write ${shown}: the merged BOM has ${errors}`),
    );
  if (options.format === 'json')
    say(
      `${JSON.stringify({ output: options.output, written, valid: result.valid, signed: written && key !== undefined, ...result.summary }, null, 2)}\n`,
    );
  else {
    say(summaryText(result, shown, written));
    if (conflicted)
      context.stderr(
        `bomwright: refusing to write ${shown}: the inputs disagree (${plural(result.summary.conflicts.length, 'conflict')}); fix the inputs, or keep the earlier value of each with --on-conflict first\n`,
      );
  }
  return written ? EXIT_OK : EXIT_INVALID;
}
