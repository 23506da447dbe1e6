import { bumpDocument, bumpDue } from '../../author/bump.js';
import { BomwrightError } from '../../errors.js';
import { signDocumentCounted } from '../../jsf/sign-document.js';
import { loadEditable, reportErrors, writeEditable } from '../../node/editable.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { gitRoot, gitShow } from '../../node/git.js';
import { chooseKey } from './sign.js';

export interface BumpCommandOptions {
  file: string;
  /** Re-sign what was signed with this key. */
  key?: string;
  keyId?: string;
  passphrase?: string;
  dropSignatures: boolean;
  /** Only say whether a bump is due (against --baseline, or the file at --base-ref, default HEAD). */
  check: boolean;
  baseline?: string;
  baseRef?: string;
  output?: string;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function runBump(options: BumpCommandOptions): Promise<number> {
  const document = await loadEditable(options.file);
  if (options.check) {
    const baselineText =
      options.baseline !== undefined
        ? (await loadEditable(options.baseline)).value
        : parseOrUndefined(gitShow(options.baseRef ?? 'HEAD', options.file, gitRoot(options.cwd)));
    if (baselineText === undefined) {
      options.stdout(`${options.file}: no previous release to compare with; no bump due\n`);
      return EXIT_OK;
    }
    const verdict = bumpDue(baselineText, document.value);
    options.stdout(`${options.file}: ${verdict.due ? verdict.reason : 'no bump due'}\n`);
    return verdict.due ? EXIT_INVALID : EXIT_OK;
  }
  if (!document.valid) {
    const count = reportErrors(options.file, document.diagnostics, options.stderr);
    options.stderr(`bomwright: refusing to bump ${options.file}: ${count} validation error${count === 1 ? '' : 's'}\n`);
    return EXIT_INVALID;
  }
  const bumped = bumpDocument(document.value);
  let result: unknown = bumped.document;
  const signed = bumped.removedSignatures.map((pointer) => pointer.replace(/\/signature$/, '') || 'root');
  if (signed.length > 0) {
    if (options.key !== undefined) {
      // The old signatures cover the old version: sign the same objects again (innermost first, root last).
      const key = chooseKey(options.key, options.keyId, options.passphrase);
      result = signDocumentCounted(result, {
        key,
        targets: signed,
        ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
      }).document;
    } else if (!options.dropSignatures) {
      throw new BomwrightError(
        'E_USAGE',
        `${options.file} is signed (${signed.length} signature${signed.length === 1 ? '' : 's'}); bumping invalidates them: re-sign with --key, or remove them with --drop-signatures`,
      );
    } else {
      options.stderr(
        `bomwright: warning: removed ${signed.length} signature${signed.length === 1 ? '' : 's'} that no longer verif${signed.length === 1 ? 'ies' : 'y'} (${bumped.removedSignatures.join(', ')})\n`,
      );
    }
  }
  const target = writeEditable(document, result, options.output);
  const serial = bumped.addedSerialNumber ? ', added a serialNumber' : '';
  options.stdout(
    `Bumped ${target} to version ${bumped.version}${serial}${signed.length > 0 && options.key !== undefined ? `, re-signed ${signed.length} object${signed.length === 1 ? '' : 's'}` : ''}\n`,
  );
  return EXIT_OK;
}

function parseOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
