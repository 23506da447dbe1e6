import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ROOT } from './helpers.js';

/** The library's run-time exports. A change here is a change to the published API: make it on purpose. */
const EXPORTS = [
  'BUILTIN_PROFILE_NAMES',
  'BomwrightError',
  'ERROR_CODES',
  'IMPORT_FIELDS',
  'JSF_ALGORITHMS',
  'MERGE_FORMATS',
  'METADATA_FIELDS',
  'OUTPUT_FORMATS',
  'RULES',
  'RULE_IDS',
  'SIGNATURE_MODES',
  'SPEC_FORMATS',
  'SYNTAXES',
  'addArtefactHashes',
  'addComponent',
  'addComposition',
  'addDependency',
  'addProperty',
  'addService',
  'bump',
  'canonicalize',
  'commitChange',
  'contentChanged',
  'convertVersion',
  'deltaLinkFile',
  'diff',
  'enrichApproval',
  'enrichAuthors',
  'enrichLabel',
  'formatDiff',
  'formatReports',
  'importWorkbook',
  'init',
  'isBomwrightError',
  'loadKey',
  'loadProfiles',
  'loadTrustStore',
  'merge',
  'mergeReports',
  'newSerialNumber',
  'normalize',
  'notifyForward',
  'parseKeyMaterial',
  'parseProfile',
  'publishBundle',
  'publishTab',
  'publishThread',
  'readDocument',
  'readDocumentFile',
  'resolveProfile',
  'setMetadata',
  'setValue',
  'shardOf',
  'sign',
  'syntaxOf',
  'threadReply',
  'validate',
  'validateFiles',
  'verify',
  'versionRule',
  'writeDocument',
  'writeDocumentFile',
];

describe('the library API', () => {
  it('exports exactly the pinned names, one per operation', () => {
    expect(Object.keys(api).sort()).toEqual(EXPORTS);
  });

  it('documents every export', () => {
    const file = path.join(ROOT, 'src/index.ts');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const undocumented = source.statements
      .filter((statement) => ts.isExportDeclaration(statement))
      .filter((statement) => ts.getJSDocCommentsAndTags(statement).length === 0)
      .map((statement) => statement.getText(source).replace(/\s+/g, ' '));
    expect(undocumented).toEqual([]);
    expect(source.statements.filter((s) => ts.isExportDeclaration(s)).length).toBeGreaterThan(20);
  });

  it('publishes no internals through a barrel', () => {
    const text = readFileSync(path.join(ROOT, 'src/index.ts'), 'utf8');
    expect(text).not.toMatch(/export \*/);
  });
});
