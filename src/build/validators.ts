/**
 * Precompiles one standalone ajv validator per supported format into generated/validators/<id>.js, so that a
 * CLI run loads plain code instead of compiling 100–300 KB of schema (0.5–1.7 s) every time. Beside them, each
 * format's official schema (the overlay applied) and the schemas they share, in generated/schemas/: version
 * conversion (author/convert.ts) walks documents against them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_FORMATS } from '../formats/formats.js';
import { speedUpPatterns } from './schema-transform.js';
import { LIBRARY_SCHEMA_DIR, officialSchema, readJson, SHARED_SCHEMAS } from './schemas.js';
import { validatorSource } from './validator-source.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Unbundled ESM; the bundle step turns each into generated/validators/<id>.cjs.
const outDir = path.join(root, 'generated/validators-src');

mkdirSync(outDir, { recursive: true });
for (const format of SPEC_FORMATS) writeFileSync(path.join(outDir, `${format.id}.js`), validatorSource(format));

const schemaDir = path.join(root, 'generated/schemas');
mkdirSync(schemaDir, { recursive: true });
for (const format of SPEC_FORMATS) {
  const schema = officialSchema(format);
  // Equivalent patterns that V8 matches faster: conversion tests them on every hash as validation does.
  speedUpPatterns(schema);
  writeFileSync(path.join(schemaDir, `${format.id}.json`), JSON.stringify(schema));
}
for (const file of SHARED_SCHEMAS)
  writeFileSync(path.join(schemaDir, file), JSON.stringify(readJson(path.join(LIBRARY_SCHEMA_DIR, file))));
