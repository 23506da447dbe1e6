/**
 * Precompiles one standalone ajv validator per supported format into generated/validators/<id>.js, so that a
 * CLI run loads plain code instead of compiling 100–300 KB of schema (0.5–1.7 s) every time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_FORMATS } from '../formats/formats.js';
import { validatorSource } from './validator-source.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Unbundled ESM; the bundle step turns each into generated/validators/<id>.cjs.
const outDir = path.join(root, 'generated/validators-src');

mkdirSync(outDir, { recursive: true });
for (const format of SPEC_FORMATS) writeFileSync(path.join(outDir, `${format.id}.js`), validatorSource(format));
