import { BomwrightError } from '../../errors.js';
import type { JsfAlgorithm } from '../../jsf/algorithms.js';
import type { KeyMaterial } from '../../jsf/keys.js';
import { signDocumentCounted } from '../../jsf/sign-document.js';
import { resolveAlgorithm, type SignMode } from '../../jsf/sign.js';
import { loadEditable, reportErrors, writeEditable } from '../../node/editable.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { loadKeyFile } from '../../node/key-files.js';

export interface SignCommandOptions {
  file: string;
  key: string;
  algorithm?: JsfAlgorithm;
  keyId?: string;
  publicKey?: boolean;
  certChain?: string;
  noKeyInfo: boolean;
  targets: string[];
  mode: SignMode;
  output?: string;
  property: string;
  excludes: string[];
  passphrase?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The signing key: a JWKS entry is chosen by --key-id; any other file must hold exactly one key. */
export function chooseKey(file: string, keyId: string | undefined, passphrase: string | undefined): KeyMaterial {
  const keys = loadKeyFile(file, passphrase === undefined ? {} : { passphrase });
  const candidates = keys.length > 1 && keyId !== undefined ? keys.filter((k) => k.keyId === keyId) : keys;
  if (candidates.length !== 1) {
    throw new BomwrightError(
      'E_KEY',
      keys.length > 1 ? `${file} holds ${keys.length} keys; choose one with --key-id` : `${file} holds no key`,
    );
  }
  return candidates[0]!;
}

export async function runSign(options: SignCommandOptions): Promise<number> {
  // The same strict read as every rewriting command: one parse, layout kept, unsafe numbers refused.
  const document = await loadEditable(options.file);
  const value = document.value;
  if (('bomFormat' in value || 'specVersion' in value) && !document.valid) {
    // A signature vouches for a document: refuse to vouch for an invalid one.
    const count = reportErrors(options.file, document.diagnostics, options.stderr);
    options.stderr(`bomwright: refusing to sign ${options.file}: ${count} validation error${count === 1 ? '' : 's'}\n`);
    return EXIT_INVALID;
  }

  const key = chooseKey(options.key, options.keyId, options.passphrase);
  const certificatePath =
    options.certChain === undefined ? undefined : loadKeyFile(options.certChain).flatMap((k) => k.certificates ?? []);
  if (certificatePath !== undefined && certificatePath.length === 0)
    throw new BomwrightError('E_KEY', `${options.certChain} holds no certificate`);
  const embedPublicKey = options.noKeyInfo
    ? false
    : (options.publicKey ?? (options.keyId === undefined && certificatePath === undefined && key.family !== 'oct'));
  const { document: signed, signed: count } = signDocumentCounted(value, {
    key,
    ...(options.algorithm ? { algorithm: options.algorithm } : {}),
    publicKey: embedPublicKey,
    ...(options.keyId !== undefined && !options.noKeyInfo ? { keyId: options.keyId } : {}),
    ...(certificatePath !== undefined && !options.noKeyInfo ? { certificatePath } : {}),
    mode: options.mode,
    property: options.property,
    excludes: options.excludes,
    targets: options.targets,
  });

  const target = writeEditable(document, signed, options.output);
  const algorithm = resolveAlgorithm(key, options.algorithm).name;
  options.stdout(
    `Signed ${count} object${count === 1 ? '' : 's'} (${options.targets.join(', ')}) of ${options.file} with ${algorithm}${target === options.file ? '' : ` → ${target}`}\n`,
  );
  return EXIT_OK;
}
