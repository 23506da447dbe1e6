// Deterministic synthetic CycloneDX BOMs for benchmarks: N library components, each with a purl, a hash, a
// license and a VCS reference, plus one dependency entry per component (the shape of real npm/maven SBOMs).
// The output depends only on (n, specVersion, seed), so results from different runs compare like with like.
import { createHash } from 'node:crypto';

const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause'];

/** @param {number} n @param {{ specVersion?: string, seed?: number }} [options] */
export function generateBom(n, options = {}) {
  const specVersion = options.specVersion ?? '1.6';
  const seed = options.seed ?? 1;
  const hex = (i, len) => createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, len);
  const nameOf = (i) => `package-${seed}-${i}`;
  const refOf = (i) => `pkg:npm/${nameOf(i)}@${(i % 7) + 1}.${i % 13}.${i % 5}`;
  const components = [];
  const dependencies = [];
  for (let i = 0; i < n; i++) {
    const name = nameOf(i);
    const ref = refOf(i);
    components.push({
      type: 'library',
      'bom-ref': ref,
      name,
      version: ref.slice(ref.lastIndexOf('@') + 1),
      description: `Synthetic component number ${i} of a generated benchmark BOM`,
      purl: ref,
      hashes: [{ alg: 'SHA-256', content: hex(i, 64) }],
      licenses: [{ license: { id: LICENSES[i % 3] } }],
      externalReferences: [{ type: 'vcs', url: `git+https://github.com/example/${name}.git` }],
    });
    // A chain: each component depends on the next one, so every dependsOn target exists.
    dependencies.push({ ref, dependsOn: i + 1 < n ? [refOf(i + 1)] : [] });
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
