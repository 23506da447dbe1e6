import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers.js';

/** The third-party JSF vectors, read in place; tests skip (with this warning) when ../shared is absent. */
export const JSF_DIR = path.join(ROOT, '../shared/conformance/jsf');
export const KEYS = path.join(JSF_DIR, 'keys');
export const SIGNATURES = path.join(JSF_DIR, 'signatures');
export const HAVE_VECTORS = existsSync(JSF_DIR);
if (!HAVE_VECTORS)
  console.warn(`JSF conformance vectors not found at ${JSF_DIR} (../shared/conformance/jsf): skipping`);

/** Inside the certificates' validity (leaves: 2018–2030), so the tests do not depend on today's date. */
export const NOW = new Date('2025-06-01T00:00:00Z');
/** The verifier policy the vectors were generated with (see the vectors' README). */
export const ALLOW_EXCLUDES = ['myUnsignedData'];
export const ALLOW_EXTENSIONS = ['otherExt', 'https://example.com/extension'];
