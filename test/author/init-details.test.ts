import { describe, expect, it } from 'vitest';
import { componentFromPackageJson } from '../../src/author/init.js';
import { init } from '../../src/index.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expectErrorCode, ROOT } from '../helpers.js';

describe('componentFromPackageJson', () => {
  it('reads name, scope, version, description and licences, leaving out what is empty or not text', () => {
    expect(
      componentFromPackageJson({ name: '@acme/widget', version: '1.2.3', description: 'Widgets', license: 'MIT' }),
    ).toEqual({
      type: 'application',
      group: '@acme',
      name: 'widget',
      purl: 'pkg:npm/%40acme/widget@1.2.3',
      version: '1.2.3',
      description: 'Widgets',
      licenses: ['MIT'],
    });
    expect(componentFromPackageJson({ name: 'plain', version: '', description: '' })).toEqual({
      type: 'application',
      name: 'plain',
      purl: 'pkg:npm/plain',
    });
    expect(componentFromPackageJson({ name: '', version: '1', description: 7 })).toEqual({
      type: 'application',
      version: '1',
    });
    expect(componentFromPackageJson({ name: 7, version: 1 })).toEqual({ type: 'application' });
    // "@" alone, or a name with "/" but no leading "@", is no scope.
    expect(componentFromPackageJson({ name: '@solo' })).toMatchObject({ name: '@solo' });
    expect(componentFromPackageJson({ name: 'a/b' })).toMatchObject({ name: 'a/b' });
    expect(componentFromPackageJson({ name: 'a/b' })).not.toHaveProperty('group');
  });

  it('reads the legacy licence shapes, and UNLICENSED as no licence', () => {
    expect(componentFromPackageJson({ license: { type: 'ISC' } }).licenses).toEqual(['ISC']);
    expect(componentFromPackageJson({ license: 'UNLICENSED' }).licenses).toBeUndefined();
    expect(componentFromPackageJson({ licenses: [{ type: 'MIT' }, 'Apache-2.0', { url: 'x' }, 5] }).licenses).toEqual([
      'MIT',
      'Apache-2.0',
    ]);
    expect(componentFromPackageJson({ licenses: [{ url: 'x' }] })).not.toHaveProperty('licenses');
    expect(componentFromPackageJson({ license: { name: 'x' }, licenses: ['BSD-2-Clause'] }).licenses).toEqual([
      'BSD-2-Clause',
    ]);
  });

  it('turns repository shorthands into URLs and keeps only valid homepages', () => {
    const vcs = (repository: unknown) =>
      (
        componentFromPackageJson({ repository }).externalReferences as { type: string; url: string }[] | undefined
      )?.find((r) => r.type === 'vcs')?.url;
    expect(vcs('acme/widget')).toBe('https://github.com/acme/widget');
    expect(vcs('github:acme/widget')).toBe('https://github.com/acme/widget');
    expect(vcs('gitlab:acme/widget')).toBe('https://gitlab.com/acme/widget');
    expect(vcs('bitbucket:acme/widget')).toBe('https://bitbucket.org/acme/widget');
    expect(vcs({ url: 'git@github.com:acme/widget.git' })).toBe('git+ssh://git@github.com/acme/widget.git');
    expect(vcs('https://example.com/acme/widget.git')).toBe('https://example.com/acme/widget.git');
    expect(vcs('x acme/widget/y')).toBeUndefined();
    expect(vcs('gitlab:acme/widget/extra')).toBe('gitlab:acme/widget/extra');
    expect(vcs('me@host:/abs/path')).toBe('git+ssh://me@host//abs/path');
    expect(vcs('ssh://me@host:22/path')).toBe('ssh://me@host:22/path');
    expect(vcs('')).toBeUndefined();
    expect(vcs({ url: 5 })).toBeUndefined();
    expect(vcs({ type: 'git' })).toBeUndefined();
    expect(componentFromPackageJson({ homepage: 'https://acme.example' }).externalReferences).toEqual([
      { type: 'website', url: 'https://acme.example' },
    ]);
    expect(componentFromPackageJson({ homepage: 'not a url' })).not.toHaveProperty('externalReferences');
    expect(componentFromPackageJson({ homepage: '' })).not.toHaveProperty('externalReferences');
  });
});

describe('init refusals', () => {
  it('names the version it does not support, and the family it expected', () => {
    expect(expectErrorCode(() => init({ specVersion: '9.9', toolVersion: '1' }), 'E_USAGE').message).toMatch(
      /^Unsupported spec version "9\.9"; supported: 1\.2, /,
    );
    expect(
      expectErrorCode(() => init({ specVersion: '1.6', format: 'cbom', toolVersion: '1' }), 'E_USAGE').message,
    ).toBe('Spec version 1.6 is not a CBOM version');
    expect(
      expectErrorCode(() => init({ specVersion: '1.4-cbom-1.0', format: 'cyclonedx', toolVersion: '1' }), 'E_USAGE')
        .message,
    ).toBe('Spec version 1.4-cbom-1.0 is not a CycloneDX version');
  });

  it('needs the tool version, a component name, and a component version where the schema requires one', () => {
    expect(expectErrorCode(() => init({ toolVersion: '' }), 'E_USAGE').message).toBe(
      "init needs toolVersion: bomwright's version, named in metadata.tools",
    );
    expect(expectErrorCode(() => init({ toolVersion: 1 as unknown as string }), 'E_USAGE').message).toBe(
      "init needs toolVersion: bomwright's version, named in metadata.tools",
    );
    // Left out, it is this bomwright's own version.
    const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const made = init({ component: { name: 'x' } });
    expect(JSON.stringify((made.metadata as Record<string, unknown>).tools)).toContain(`"version":"${own.version}"`);
    expect(expectErrorCode(() => init({ toolVersion: '1', component: { name: '' } }), 'E_USAGE').message).toBe(
      'The component needs a name (give one, or a package.json with "name")',
    );
    expectErrorCode(() => init({ toolVersion: '1', packageJson: { version: '1' } }), 'E_USAGE');
    expect(
      expectErrorCode(() => init({ toolVersion: '1', specVersion: '1.2', component: { name: 'x' } }), 'E_USAGE')
        .message,
    ).toBe('CycloneDX 1.2 requires a component version');
  });
});
