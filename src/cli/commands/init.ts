import { existsSync } from 'node:fs';
import { initDocument } from '../../author/init.js';
import type { ComponentFields } from '../../author/elements.js';
import { BomwrightError } from '../../errors.js';
import { validate } from '../../validate/index.js';
import { loadJsonFile } from '../../node/document-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { writeFileAtomic } from '../../node/write.js';

export interface InitCommandOptions {
  format?: 'cyclonedx' | 'cbom';
  specVersion?: string;
  from?: string;
  component: Partial<ComponentFields>;
  output: string;
  force: boolean;
  toolVersion: string;
  stdout: (text: string) => void;
}

export async function runInit(options: InitCommandOptions): Promise<number> {
  if (!options.force && existsSync(options.output))
    throw new BomwrightError('E_WRITE', `${options.output} already exists; use --force to overwrite`);
  let packageJson: Record<string, unknown> | undefined;
  if (options.from !== undefined) {
    const loaded = loadJsonFile(options.from);
    if ('problems' in loaded || loaded.value === null || typeof loaded.value !== 'object')
      throw new BomwrightError('E_INPUT', `${options.from} is not a JSON object`);
    packageJson = loaded.value as Record<string, unknown>;
  }
  if (packageJson === undefined && options.component.name === undefined)
    throw new BomwrightError('E_USAGE', 'Name the component (--name) or give a package.json (--from)');
  const document = initDocument({
    ...(options.format ? { format: options.format } : {}),
    ...(options.specVersion ? { specVersion: options.specVersion } : {}),
    component: options.component,
    ...(packageJson ? { packageJson } : {}),
    toolVersion: options.toolVersion,
  });
  // Belt and braces: what init writes must validate.
  const result = await validate(document, { signatures: 'ignore' });
  if (!result.valid)
    throw new BomwrightError(
      'E_INTERNAL',
      `init produced an invalid document: ${result.diagnostics[0]?.message ?? ''}`,
    );
  writeFileAtomic(options.output, JSON.stringify(document, null, 2) + '\n');
  options.stdout(
    `Created ${options.output} (${String(document.bomFormat)} ${String(document.specVersion)}, ${String(document.serialNumber)}, version 1)\n`,
  );
  return EXIT_OK;
}
