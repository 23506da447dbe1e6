// Deterministic synthetic CycloneDX BOMs for benchmarks: N library components, each with a purl, a hash, a
// license and a VCS reference, plus one dependency entry per component (the shape of real npm/maven SBOMs).
// The output depends only on (n, specVersion, seed, rich), so results from different runs compare like with like.
import { createHash } from 'node:crypto';

const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause'];

/**
 * `rich: true` gives every component a second hash (SHA-512) and a second external reference (website), as real
 * SBOMs often have: about 300 more bytes per component pretty-printed, so 100,000 components make about 115 MB
 * instead of 84 MB. Without it (the default) the output is exactly what it has always been.
 * @param {number} n @param {{ specVersion?: string, seed?: number, rich?: boolean }} [options]
 */
export function generateBom(n, options = {}) {
  const specVersion = options.specVersion ?? '1.6';
  const seed = options.seed ?? 1;
  const rich = options.rich ?? false;
  const hex = (i, len) => createHash('sha256').update(`${seed}:${i}`).digest('hex').slice(0, len);
  const sha512 = (i) => createHash('sha512').update(`${seed}:${i}`).digest('hex');
  const nameOf = (i) => `package-${seed}-${i}`;
  const refOf = (i) => `pkg:npm/${nameOf(i)}@${(i % 7) + 1}.${i % 13}.${i % 5}`;
  const components = [];
  const dependencies = [];
  for (let i = 0; i < n; i++) {
    const name = nameOf(i);
    const ref = refOf(i);
    const hashes = [{ alg: 'SHA-256', content: hex(i, 64) }];
    const externalReferences = [{ type: 'vcs', url: `git+https://github.com/example/${name}.git` }];
    if (rich) {
      hashes.push({ alg: 'SHA-512', content: sha512(i) });
      externalReferences.push({ type: 'website', url: `https://example.com/packages/${name}` });
    }
    components.push({
      type: 'library',
      'bom-ref': ref,
      name,
      version: ref.slice(ref.lastIndexOf('@') + 1),
      description: `Synthetic component number ${i} of a generated benchmark BOM`,
      purl: ref,
      hashes,
      licenses: [{ license: { id: LICENSES[i % 3] } }],
      externalReferences,
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

const escapeXml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * The same BOM as generateBom(n, options), written as CycloneDX XML (the namespace of its specVersion), indented
 * as the CycloneDX generators write it. Deterministic.
 */
export function generateXmlBom(n, options = {}) {
  const bom = generateBom(n, options);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bom xmlns="http://cyclonedx.org/schema/bom/${bom.specVersion}" serialNumber="${bom.serialNumber}" version="${bom.version}">`,
    '  <metadata>',
    `    <timestamp>${bom.metadata.timestamp}</timestamp>`,
    `    <component type="application" bom-ref="${bom.metadata.component['bom-ref']}">`,
    `      <name>${bom.metadata.component.name}</name>`,
    `      <version>${bom.metadata.component.version}</version>`,
    '    </component>',
    '  </metadata>',
    '  <components>',
  ];
  for (const c of bom.components) {
    out.push(
      `    <component type="${c.type}" bom-ref="${escapeXml(c['bom-ref'])}">`,
      `      <name>${escapeXml(c.name)}</name>`,
      `      <version>${escapeXml(c.version)}</version>`,
      `      <description>${escapeXml(c.description)}</description>`,
      '      <hashes>',
      ...c.hashes.map((h) => `        <hash alg="${h.alg}">${h.content}</hash>`),
      '      </hashes>',
      '      <licenses>',
      ...c.licenses.map((l) => `        <license><id>${l.license.id}</id></license>`),
      '      </licenses>',
      `      <purl>${escapeXml(c.purl)}</purl>`,
      '      <externalReferences>',
      ...c.externalReferences.map(
        (r) => `        <reference type="${r.type}"><url>${escapeXml(r.url)}</url></reference>`,
      ),
      '      </externalReferences>',
      '    </component>',
    );
  }
  out.push('  </components>', '  <dependencies>');
  for (const d of bom.dependencies) {
    if (d.dependsOn.length === 0) out.push(`    <dependency ref="${escapeXml(d.ref)}"/>`);
    else
      out.push(
        `    <dependency ref="${escapeXml(d.ref)}">`,
        ...d.dependsOn.map((r) => `      <dependency ref="${escapeXml(r)}"/>`),
        '    </dependency>',
      );
  }
  out.push('  </dependencies>', '</bom>', '');
  return out.join('\n');
}
