/** Every command of the CLI, in the order `--help` lists them. */
import type { CliCommand } from '../command.js';
import { bumpCommand } from './bump.js';
import { convertCommand } from './convert.js';
import { diffCommand } from './diff.js';
import { emulatorCommand } from './emulator.js';
import { enrichCommand } from './enrich.js';
import { explainCommand } from './explain.js';
import { importCommand } from './import.js';
import { notifyCommand, publishCommand } from './publish.js';
import { serviceCommand } from './service.js';
import { addCommand, setCommand } from './edit.js';
import { hashCommand } from './hash.js';
import { initCommand } from './init.js';
import { keygenCommand } from './keygen.js';
import { mergeCommand } from './merge.js';
import { mergeReportsCommand } from './merge-reports.js';
import { normalizeCommand } from './normalize.js';
import { signCommand } from './sign.js';
import { validateCommand } from './validate.js';
import { verifyCommand } from './verify.js';

export const COMMANDS: readonly CliCommand[] = [
  validateCommand,
  mergeReportsCommand,
  signCommand,
  verifyCommand,
  initCommand,
  addCommand,
  setCommand,
  hashCommand,
  bumpCommand,
  normalizeCommand,
  mergeCommand,
  convertCommand,
  diffCommand,
  keygenCommand,
  explainCommand,
  enrichCommand,
  importCommand,
  publishCommand,
  notifyCommand,
  emulatorCommand,
  serviceCommand,
];
