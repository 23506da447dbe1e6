import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { BomwrightError } from '../../errors.js';
import { algorithmInfo, JSF_ALGORITHMS, type JsfAlgorithm } from '../../jsf/algorithms.js';
import { defineCommand } from '../command.js';
import { encodeBase64url } from '../../jsf/base64url.js';
import { publicJwk } from '../../jsf/keys.js';
import { EXIT_OK } from '../exit-codes.js';

interface KeygenCommandOptions {
  algorithm: JsfAlgorithm;
  /** Path prefix of the written files. */
  out: string;
  keyId?: string;
  force: boolean;
  stdout: (text: string) => void;
}

function generate(algorithm: JsfAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  const info = algorithmInfo(algorithm)!;
  switch (info.family) {
    case 'EC':
      return generateKeyPairSync('ec', { namedCurve: info.curve! });
    case 'RSA':
      return generateKeyPairSync('rsa', {
        modulusLength: info.hash === 'sha512' ? 4096 : info.hash === 'sha384' ? 3072 : 2048,
      });
    case 'OKP':
      return info.curve === 'Ed448' ? generateKeyPairSync('ed448') : generateKeyPairSync('ed25519');
    default:
      throw new BomwrightError('E_INTERNAL', `no key pair for ${algorithm}`);
  }
}

/** Creates a new file only (never overwrites unless forced); secrets get mode 0600. */
function writeNew(file: string, content: string, mode: number, force: boolean): void {
  if (!force && existsSync(file))
    throw new BomwrightError('E_WRITE', `${file} already exists; use --force to overwrite`);
  try {
    // Missing folders are created, as for every other output file.
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, content, { mode, flag: force ? 'w' : 'wx' });
  } catch (error) {
    throw new BomwrightError(
      'E_WRITE',
      `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`,
    );
  }
}

export const keygenCommand = defineCommand({
  command: 'keygen',
  describe: 'Generate a signing key pair (private key mode 0600) or an HMAC secret',
  builder: (y) =>
    y
      .option('alg', {
        choices: JSF_ALGORITHMS,
        default: 'ES256' as JsfAlgorithm,
        describe: 'Algorithm the key is for',
      })
      .option('out', {
        type: 'string',
        default: 'signing-key',
        describe: 'Path prefix: writes PREFIX.private.pem, PREFIX.public.pem, PREFIX.public.jwk (or PREFIX.secret.jwk)',
      })
      .option('key-id', { type: 'string', describe: 'kid for the JWK (default: its RFC 7638 thumbprint)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite existing files' }),
  handler: (argv, context) =>
    runKeygen({ algorithm: argv.alg, out: argv.out, keyId: argv.keyId, force: argv.force, stdout: context.stdout }),
});

async function runKeygen(options: KeygenCommandOptions): Promise<number> {
  const info = algorithmInfo(options.algorithm);
  if (info === undefined) throw new BomwrightError('E_USAGE', `Unknown algorithm ${options.algorithm}`);
  const written: string[] = [];
  if (info.family === 'oct') {
    const secret = {
      kty: 'oct',
      k: encodeBase64url(randomBytes(info.signatureLength!)),
      alg: options.algorithm,
      kid: options.keyId ?? `hmac-${randomBytes(6).toString('hex')}`,
    };
    const file = `${options.out}.secret.jwk`;
    writeNew(file, JSON.stringify(secret, null, 2) + '\n', 0o600, options.force);
    written.push(`${file} (secret, mode 0600, kid ${secret.kid})`);
  } else {
    const { privateKey, publicKey } = generate(options.algorithm);
    const jwk = publicJwk(publicKey);
    const kid = options.keyId ?? (await calculateJwkThumbprint(jwk, 'sha256'));
    const privateFile = `${options.out}.private.pem`;
    // A PEM block carries no algorithm: these lines of explanatory text (RFC 7468 §5.2, which PEM readers skip)
    // bind the PEM files to the algorithm and kid of the JWK, as sign and verify read them.
    const header = `alg: ${options.algorithm}\nkid: ${kid}\n`;
    writeNew(
      privateFile,
      header + (privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
      0o600,
      options.force,
    );
    writeNew(
      `${options.out}.public.pem`,
      header + (publicKey.export({ type: 'spki', format: 'pem' }) as string),
      0o644,
      options.force,
    );
    writeNew(
      `${options.out}.public.jwk`,
      JSON.stringify({ ...jwk, alg: options.algorithm, kid }, null, 2) + '\n',
      0o644,
      options.force,
    );
    written.push(
      `${privateFile} (private, mode 0600)`,
      `${options.out}.public.pem`,
      `${options.out}.public.jwk (kid ${kid})`,
    );
  }
  options.stdout(`Generated a key for ${options.algorithm}:\n${written.map((w) => `  ${w}`).join('\n')}\n`);
  return EXIT_OK;
}
