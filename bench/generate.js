// Deterministic synthetic CycloneDX BOMs for benchmarks: N library components, each with a purl, a hash, a
// license and a VCS reference, plus one dependency entry per component (the shape of real npm/maven SBOMs).
import { createHash } from 'node:crypto';

/** @param {number} n @param {{ specVersion?: string, seed?: number }} [options] */
export function generateBom(n, options = {}) {
  const specVersion = options.specVersion ?? '1.6';
  const seed = options.seed ?? 1;
  const hex = (i, len) => createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, len);
  const components = [];
  const dependencies = [];
  for (let i = 0; i < n; i++) {
    const name = `package-${seed}-${i}`;
    const version = `${(i % 7) + 1}.${i % 13}.${i % 5}`;
    const ref = `pkg:npm/${name}@${version}`;
    components.push({
      type: 'library',
      'bom-ref': ref,
      name,
      version,
      description: `Synthetic component number ${i} of a generated benchmark BOM`,
      purl: ref,
      hashes: [{ alg: 'SHA-256', content: hex(i, 64) }],
      licenses: [{ license: { id: i % 3 === 0 ? 'MIT' : i % 3 === 1 ? 'Apache-2.0' : 'BSD-3-Clause' } }],
      externalReferences: [{ type: 'vcs', url: `git+https://github.com/example/${name}.git` }],
    });
    const dependsOn =
      i + 1 < n
        ? [
            components.length < n
              ? `pkg:npm/package-${seed}-${i + 1}@${((i + 1) % 7) + 1}.${(i + 1) % 13}.${(i + 1) % 5}`
              : '',
          ]
        : [];
    dependencies.push({ ref, dependsOn: dependsOn.filter(Boolean) });
  }
  return {
    bomFormat: 'CycloneDX',
    specVersion,
    serialNumber: `urn:uuid:${hex('serial', 8)}-${hex('a', 4)}-4${hex('b', 3)}-8${hex('c', 3)}-${hex('d', 12)}`,
    version: 1,
    metadata: {
      timestamp: '2026-01-01T00:00:00Z',
      component: { type: 'application', 'bom-ref': 'root-app', name: 'benchmark-app', version: '1.0.0' },
    },
    components,
    dependencies,
  };
}
