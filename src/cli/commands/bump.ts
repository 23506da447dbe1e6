import { adoptBaseline, bumpDocument, type AdoptResult, type BumpResult } from '../../author/bump.js';
import { BomwrightError } from '../../errors.js';
import { formatRefusal } from '../../format/refusal.js';
import {
  describeProblems,
  editSyntax,
  loadBaselineFile,
  loadDocument,
  loadEditable,
  writeEditable,
} from '../../node/documents.js';
import { gitRoot, gitShow, headCommit, previousPaths, resolveCommit } from '../../node/git.js';
import path from 'node:path';
import { chooseKey, loadKeyFile } from '../../node/keys.js';
import { resignRemoved } from '../../jsf/resign.js';
import { signDocument } from '../../jsf/sign-document.js';
import type { Syntax } from '../../document/syntax.js';
import { warnDropped, xmlSignatureStep } from '../xml-resign.js';
import { parsedBaseline, versionRule, type Baseline } from '../../validate/version-rule.js';
import { refuseOverwriting } from '../../node/paths.js';
import { isOwnStream } from '../../node/write.js';
import { defineCommand } from '../command.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { dropSignaturesOption, keyOptions, passphraseFrom, rewriteOptions } from '../options.js';

interface BumpCommandOptions {
  file: string;
  /** Re-sign what was signed with this key. */
  key?: string;
  keyId?: string;
  certChain?: string;
  passphrase?: string;
  dropSignatures: boolean;
  /** Only say whether a bump is due (against --baseline, or the file at --base-ref, default HEAD). */
  check: boolean;
  baseline?: string;
  baseRef?: string;
  output?: string;
  to?: Syntax;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const bumpCommand = defineCommand({
  command: 'bump <file>',
  describe: 'Increment the version (timestamp refreshed, serial number kept), in place',
  builder: (y) =>
    rewriteOptions(
      dropSignaturesOption(
        keyOptions(
          y.positional('file', { type: 'string', demandOption: true }),
          'Re-sign what was signed with this key',
        ),
        'Remove the signatures the bump invalidates',
      ),
    )
      .option('cert-chain', {
        type: 'string',
        describe: 'With --key: the PEM certificate path for signatures that carried one',
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'Only say whether a bump is due (exit 1 when it is, 2 when the document cannot be read)',
      })
      .option('baseline', {
        type: 'string',
        describe: 'The previous release: take over its serialNumber and continue its version (with --check: compare)',
      })
      .option('base-ref', {
        type: 'string',
        describe: 'The previous release is the file at this git revision (as --baseline; with --check, default HEAD)',
      })
      .conflicts('baseline', 'base-ref'),
  handler: (argv, context) =>
    runBump({
      file: argv.file,
      key: argv.key,
      keyId: argv.keyId,
      certChain: argv.certChain,
      passphrase: passphraseFrom(argv.passphraseEnv, context.env),
      dropSignatures: argv.dropSignatures,
      check: argv.check,
      baseline: argv.baseline,
      baseRef: argv.baseRef,
      output: argv.output,
      to: argv.to,
      cwd: context.cwd,
      stdout: context.stdout,
      stderr: context.stderr,
    }),
});

/** The previous release: the --baseline file, or the file at --base-ref (default HEAD); undefined when new. */
function previousRelease(options: BumpCommandOptions): Baseline | undefined {
  if (options.baseline !== undefined)
    return {
      document: loadBaselineFile(options.baseline),
      name: options.baseline,
      adoptWith: `--baseline ${options.baseline}`,
    };
  const root = gitRoot(options.cwd);
  // An explicit --base-ref must exist; the default HEAD may not yet (a repository without commits).
  const commit = options.baseRef === undefined ? headCommit(root) : resolveCommit(options.baseRef, root);
  if (commit === undefined) return undefined;
  // A renamed file continues the file it came from.
  const from = previousPaths(commit, root, false, [options.file]).get(path.resolve(options.file));
  const text = gitShow(commit, from ?? options.file, root);
  return text === undefined
    ? undefined
    : { document: parsedBaseline(text), name: commit.name, adoptWith: `--base-ref ${commit.name}` };
}

/** `bump --check`: the version rule against the previous release, as validate applies it (either syntax, either side). */
async function checkDue(options: BumpCommandOptions): Promise<number> {
  const baseline = previousRelease(options);
  if (baseline === undefined) {
    options.stdout(`${options.file}: no previous release to compare with; no bump due\n`);
    return EXIT_OK;
  }
  // Only the version rule is asked about: a strict read, not a full validation. Exit 1 says "bump due" and
  // nothing else: a document that cannot be read is trouble (2), as for diff(1).
  const current = await loadDocument(options.file);
  if ('problems' in current)
    throw new BomwrightError('E_READ', describeProblems(options.file, current.problems).message);
  const findings = versionRule(current.model, baseline);
  options.stdout(
    findings.length === 0
      ? `${options.file}: no bump due\n`
      : findings.map((d) => `${options.file}: ${d.message}\n`).join(''),
  );
  return findings.length === 0 ? EXIT_OK : EXIT_INVALID;
}

function baselineName(options: BumpCommandOptions): string {
  return options.baseline ?? `${options.file} at ${options.baseRef ?? 'HEAD'}`;
}

async function runBump(options: BumpCommandOptions): Promise<number> {
  if (options.check) return checkDue(options);
  if (options.output !== undefined && options.key !== undefined)
    refuseOverwriting(options.output, [{ file: options.key, role: 'the signing key' }]);
  const document = await loadEditable(options.file);
  const adopting = options.baseline !== undefined || options.baseRef !== undefined;
  // Continuing a previous release replaces the serial number: one that is malformed does not stand in the way.
  const blocking = adopting
    ? document.diagnostics.filter(
        (d) => d.severity !== 'error' || (d.pointer !== '/serialNumber' && d.pointer !== '/bom/@serialNumber'),
      )
    : document.diagnostics;
  if (!document.valid && blocking.some((d) => d.severity === 'error')) {
    options.stderr(formatRefusal(options.file, blocking, (errors) => `refusing to bump ${options.file}: ${errors}`));
    return EXIT_INVALID;
  }
  let bumped: BumpResult | AdoptResult;
  if (adopting) {
    const baseline = previousRelease(options);
    if (baseline === undefined)
      throw new BomwrightError(
        'E_USAGE',
        `${options.file} does not exist at ${options.baseRef ?? 'HEAD'}: there is no previous release to continue`,
      );
    bumped = adoptBaseline(document.value, baseline.document);
  } else bumped = bumpDocument(document.value);
  if ('unchanged' in bumped && bumped.unchanged) {
    options.stdout(`${options.file} already is version ${bumped.version} of ${baselineName(options)}; nothing to do\n`);
    return EXIT_OK;
  }
  let result: unknown = bumped.document;
  const syntax = editSyntax(document, { output: options.output, to: options.to });
  // JSF signatures are members of the model; an XML signature covers the whole text and is not.
  const signed = [
    ...bumped.removedSignatures.map((pointer) => pointer.replace(/\/signature$/, '') || 'root'),
    ...(document.source.xmlSigned ? ['root'] : []),
  ];
  const key =
    signed.length > 0 && options.key !== undefined
      ? chooseKey(options.key, options.keyId, options.passphrase)
      : undefined;
  const certificatePath =
    key === undefined || options.certChain === undefined
      ? undefined
      : loadKeyFile(options.certChain).flatMap((k) => k.certificates ?? []);
  if (signed.length > 0) {
    if (key !== undefined) {
      if (syntax === 'json' && bumped.removedSignatures.length > 0)
        // The old signatures cover the old version: sign the same objects again (innermost first, root last), each
        // in its old shape and with its old kind of key information.
        result = resignRemoved(result, document.value, bumped.removedSignatures, key, {
          ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
          ...(certificatePath === undefined ? {} : { certificatePath }),
        }).document;
      else if (syntax === 'json')
        // An XML signature covered the whole document: the JSON has one over its root.
        result = signDocument(result, {
          key,
          ...(options.keyId === undefined ? { publicKey: key.family !== 'oct' } : { keyId: options.keyId }),
          ...(certificatePath === undefined ? {} : { certificatePath }),
        });
    } else if (!options.dropSignatures) {
      throw new BomwrightError(
        'E_USAGE',
        `${options.file} is signed (${signed.length} signature${signed.length === 1 ? '' : 's'}); bumping invalidates them: re-sign with --key, or remove them with --drop-signatures`,
      );
    } else {
      const where = [...bumped.removedSignatures, ...(document.source.xmlSigned ? ['the XML signature'] : [])];
      options.stderr(
        `bomwright: warning: removed ${signed.length} signature${signed.length === 1 ? '' : 's'} that no longer verif${signed.length === 1 ? 'ies' : 'y'} (${where.join(', ')})\n`,
      );
    }
  }
  const target = writeEditable(document, result, {
    output: options.output,
    to: options.to,
    // Made again with --key or dropped with --drop-signatures (else refused above).
    signaturesHandled: true,
    onDrop: warnDropped(options.stderr),
    // As XML, what was signed is signed again over the whole document (or its stale signature removed).
    ...(signed.length > 0
      ? {
          finish: xmlSignatureStep(document.source.syntax === 'xml' ? document.source.text : undefined, {
            ...(key === undefined ? {} : { key }),
            ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
            ...(certificatePath === undefined ? {} : { certificatePath }),
          }),
        }
      : {}),
  });
  const serial = bumped.addedSerialNumber ? ', added a serialNumber' : '';
  const what =
    'changed' in bumped
      ? `${target} continues ${baselineName(options)}: its serialNumber, version ${bumped.version} (${bumped.changed ? 'content changed' : 'content unchanged: the same release'})`
      : `Bumped ${target} to version ${bumped.version}`;
  (isOwnStream(target) ? options.stderr : options.stdout)(
    `${what}${serial}${signed.length > 0 && key !== undefined ? `, re-signed ${signed.length} object${signed.length === 1 ? '' : 's'}` : ''}\n`,
  );
  return EXIT_OK;
}
