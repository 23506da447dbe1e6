/**
 * Every requirement of every built-in profile, read from the profile files: a document that meets it and one
 * that does not, with the boundary values the sources turn on (SHA-512 vs SHA-256, concluded vs declared, an
 * e-mail vs a name only, a composition that states completeness vs none). A requirement added to a profile
 * without a case here fails the first test.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES, loadProfiles, validate } from '../../../src/index.js';
import { evaluateProfiles } from '../../../src/validate/profiles/evaluate.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Edit = (d: Doc) => void;

const SHA256 = 'a'.repeat(64);
const SHA512 = 'b'.repeat(128);

function component(ref: string, type: string): Doc {
  return {
    type,
    'bom-ref': ref,
    name: ref,
    version: '1.0.0',
    purl: `pkg:npm/${ref}@1.0.0`,
    supplier: { name: 'Acme', url: ['https://acme.example'] },
    manufacturer: { name: 'Acme', url: ['https://acme.example'] },
    hashes: [{ alg: 'SHA-256', content: SHA256 }],
    licenses: [{ license: { id: 'MIT', acknowledgement: 'concluded' } }],
    externalReferences: [
      { type: 'distribution', url: `https://acme.example/${ref}.tgz`, hashes: [{ alg: 'SHA-512', content: SHA512 }] },
    ],
    properties: [
      { name: 'bsi:component:filename', value: `${ref}.tgz` },
      { name: 'bsi:component:executable', value: 'non-executable' },
      { name: 'bsi:component:archive', value: 'archive' },
      { name: 'bsi:component:structured', value: 'structured' },
    ],
  };
}

/** A CycloneDX 1.6 document that meets every requirement of every built-in profile. */
function base(): Doc {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    metadata: {
      timestamp: '2024-05-01T10:00:00Z',
      lifecycles: [{ phase: 'build' }],
      tools: { components: [{ type: 'application', name: 'acme-sbom', version: '2.1.0' }] },
      authors: [{ name: 'Jane Doe', email: 'jane@example.com' }],
      manufacturer: { name: 'Acme', url: ['https://acme.example'] },
      component: component('app', 'application'),
    },
    components: [component('lib', 'library')],
    dependencies: [
      { ref: 'app', dependsOn: ['lib'] },
      { ref: 'lib', dependsOn: [] },
    ],
    compositions: [{ aggregate: 'complete', dependencies: ['app', 'lib'] }],
    // cisa-2026 asks for the author's signature; its form is validate's to check, not a profile's.
    signature: { algorithm: 'ES256', value: 'c2lnbmF0dXJl' },
  };
}

interface Case {
  /** Documents that fall short, and where the finding points. */
  fail: { edit: Edit; pointer: string }[];
  /** Documents (besides the base) that meet it: the other side of each boundary. */
  pass: Edit[];
}

const lib = (d: Doc) => d.components[0];
const noDeps: Edit = (d) => {
  d.dependencies[0].dependsOn = [];
  delete d.compositions;
};
const primaryDependencies: Case = {
  fail: [
    { edit: noDeps, pointer: '/dependencies' },
    {
      edit: (d) => {
        noDeps(d);
        d.compositions = [{ aggregate: 'incomplete', dependencies: ['app'] }];
      },
      pointer: '/dependencies',
    },
    {
      edit: (d) => {
        delete d.metadata.component['bom-ref'];
      },
      pointer: '/metadata/component',
    },
    {
      edit: (d) => {
        delete d.metadata.component;
      },
      pointer: '/metadata',
    },
  ],
  pass: [
    (d) => {
      noDeps(d);
      d.compositions = [{ aggregate: 'unknown', dependencies: ['app'] }];
    },
    (d) => {
      noDeps(d);
      d.compositions = [{ aggregate: 'complete', dependencies: ['app'] }];
    },
  ],
};
const format: Case = {
  fail: [
    { edit: (d) => (d.bomFormat = 'SPDX'), pointer: '/bomFormat' },
    { edit: (d) => delete d.specVersion, pointer: '/bomFormat' },
  ],
  // CBOM (IBM's CycloneDX 1.4 derivative) is machine-readable CycloneDX too.
  pass: [(d) => (d.bomFormat = 'CBOM')],
};
const timestamp: Case = {
  fail: [
    { edit: (d) => (d.metadata.timestamp = '2024-05-01T10:00:00'), pointer: '/metadata/timestamp' },
    { edit: (d) => (d.metadata.timestamp = '2024-05-01'), pointer: '/metadata/timestamp' },
    { edit: (d) => delete d.metadata.timestamp, pointer: '/metadata' },
  ],
  pass: [(d) => (d.metadata.timestamp = '2024-05-01T12:00:00.5+02:00')],
};
const supplier: Case = {
  fail: (
    [
      {
        edit: (d) => {
          delete lib(d).supplier;
          delete lib(d).manufacturer;
          lib(d).author = 'Jane Doe';
          lib(d).publisher = 'Acme';
        },
        pointer: '/components/0',
      },
      { edit: (d) => (lib(d).supplier = { name: ' ' }), pointer: '/components/0/supplier' },
      { edit: (d) => (d.metadata.component.supplier = { url: [] }), pointer: '/metadata/component/supplier' },
    ] as Case['fail']
  ).map((f, i) =>
    i === 0
      ? f
      : {
          ...f,
          edit: (d: Doc) => {
            f.edit(d);
            delete lib(d).manufacturer;
            delete d.metadata.component.manufacturer;
          },
        },
  ),
  pass: [
    (d) => delete lib(d).supplier,
    (d) => {
      delete lib(d).manufacturer;
      lib(d).supplier = { contact: [{ email: 'x@acme.example' }] };
    },
    // metadata.supplier is the supplier of the component the BOM describes (1.6 schema): it names the primary's.
    (d) => {
      delete d.metadata.component.supplier;
      delete d.metadata.component.manufacturer;
      d.metadata.supplier = { name: 'Acme' };
    },
  ],
};
/** metadata.supplier names the primary component's supplier, no other component's, and only with an identity. */
const supplierOfPrimary: Case['fail'] = [
  {
    edit: (d) => {
      delete d.metadata.component.supplier;
      delete d.metadata.component.manufacturer;
      d.metadata.supplier = { name: ' ' };
    },
    pointer: '/metadata/component',
  },
  {
    edit: (d) => {
      delete lib(d).supplier;
      delete lib(d).manufacturer;
      d.metadata.supplier = { name: 'Acme' };
    },
    pointer: '/components/0',
  },
];
supplier.fail.push(...supplierOfPrimary);
const name: Case = {
  fail: [
    { edit: (d) => (lib(d).name = '  '), pointer: '/components/0/name' },
    { edit: (d) => delete d.metadata.component.name, pointer: '/metadata/component' },
  ],
  pass: [],
};
const version: Case = {
  fail: [{ edit: (d) => delete lib(d).version, pointer: '/components/0' }],
  pass: [(d) => (lib(d).version = '2024-05-01')],
};
/** A BSI property: present, with a value; one of the taxonomy's two where it has them (`"true"` is neither). */
const property = (key: string, values?: readonly [string, string]): Case => ({
  fail: [
    ...(values === undefined
      ? []
      : [
          {
            edit: (d: Doc) => (lib(d).properties.find((p: Doc) => p.name === key).value = 'true'),
            pointer: '/components/0/properties',
          },
          {
            edit: (d: Doc) => (lib(d).properties.find((p: Doc) => p.name === key).value = values[0].toUpperCase()),
            pointer: '/components/0/properties',
          },
        ]),
    {
      edit: (d) => (lib(d).properties = lib(d).properties.filter((p: Doc) => p.name !== key)),
      pointer: '/components/0/properties',
    },
    {
      edit: (d) => (lib(d).properties.find((p: Doc) => p.name === key).value = ''),
      pointer: '/components/0/properties',
    },
    { edit: (d) => delete lib(d).properties, pointer: '/components/0' },
  ],
  pass: (values ?? ['anything']).map(
    (value) => (d: Doc) => (lib(d).properties.find((p: Doc) => p.name === key).value = value),
  ),
});
const specVersion = (failing: string, passing: string): Case => ({
  fail: [{ edit: (d) => (d.specVersion = failing), pointer: '/specVersion' }],
  pass: [(d) => (d.specVersion = passing)],
});
const sbomCreator: Case = {
  fail: [
    {
      // A name only, in the author and the manufacturer: no way to reach the creator.
      edit: (d) => {
        d.metadata.authors = [{ name: 'Jane Doe' }];
        d.metadata.manufacturer = { name: 'Acme' };
      },
      pointer: '/metadata/authors',
    },
    {
      edit: (d) => {
        d.metadata.authors = [{ email: 'not an address' }];
        d.metadata.manufacturer = { url: ['acme.example'], contact: [{ email: 'nobody' }] };
      },
      pointer: '/metadata/authors',
    },
    {
      edit: (d) => {
        delete d.metadata.authors;
        delete d.metadata.manufacturer;
      },
      pointer: '/metadata',
    },
  ],
  pass: [
    (d) => {
      d.metadata.authors = [{ email: 'jane@example.com' }];
      delete d.metadata.manufacturer;
    },
    (d) => {
      delete d.metadata.authors;
      d.metadata.manufacturer = { contact: [{ email: 'sbom@acme.example' }] };
    },
    (d) => {
      delete d.metadata.authors;
      delete d.metadata.manufacturer;
      d.metadata.supplier = { url: ['https://acme.example'] };
    },
  ],
};
const bsiCommon = (v: { fail: string; pass: string }): Record<string, Case> => ({
  'spec-version': specVersion(v.fail, v.pass),
  'no-vulnerabilities': {
    fail: [{ edit: (d) => (d.vulnerabilities = [{ id: 'CVE-2024-0001' }]), pointer: '/vulnerabilities' }],
    pass: [(d) => (d.vulnerabilities = [])],
  },
  'sbom-creator': sbomCreator,
  timestamp,
  'depth.primary': {
    // Unlike NTIA, a composition does not replace the dependency list.
    fail: [
      {
        edit: (d) => {
          d.dependencies[0].dependsOn = [];
          d.compositions = [{ aggregate: 'complete', dependencies: ['app'] }];
        },
        pointer: '/dependencies',
      },
      { edit: (d) => delete d.metadata.component['bom-ref'], pointer: '/metadata/component' },
    ],
    pass: [],
  },
  'depth.broken-ref': {
    fail: [
      { edit: (d) => d.dependencies[0].dependsOn.push('ghost'), pointer: '/dependencies/0/dependsOn/1' },
      { edit: (d) => d.dependencies.push({ ref: 'ghost' }), pointer: '/dependencies/2/ref' },
    ],
    pass: [(d) => d.dependencies.push({ ref: 'lib', dependsOn: [] })],
  },
  'depth.unreachable': {
    fail: [
      { edit: (d) => d.components.push(component('orphan', 'library')), pointer: '/components/1' },
      {
        edit: (d) => {
          const c = component('nameless', 'library');
          delete c['bom-ref'];
          d.components.push(c);
        },
        pointer: '/components/1',
      },
    ],
    pass: [
      (d) => {
        d.components.push(component('deep', 'library'));
        d.dependencies[1].dependsOn = ['deep'];
      },
    ],
  },
  components: {
    fail: [
      {
        edit: (d) => {
          delete d.metadata.component;
          delete d.components;
        },
        pointer: '',
      },
    ],
    pass: [(d) => delete d.components],
  },
  'component.creator': {
    fail: [
      {
        edit: (d) => {
          lib(d).manufacturer = { name: 'Acme' };
          lib(d).supplier = { name: 'Acme' };
        },
        pointer: '/components/0/manufacturer',
      },
      {
        // A name only in authors: the legacy author string is read only when authors is absent.
        edit: (d) => {
          delete lib(d).manufacturer;
          delete lib(d).supplier;
          lib(d).authors = [{ name: 'Jane Doe' }];
          lib(d).author = 'Jane Doe <jane@example.com>';
        },
        pointer: '/components/0',
      },
    ],
    pass: [
      (d) => {
        delete lib(d).manufacturer;
        delete lib(d).supplier;
        lib(d).authors = [{ name: 'Jane Doe', email: 'jane@example.com' }];
      },
      (d) => {
        delete lib(d).manufacturer;
        delete lib(d).supplier;
        lib(d).author = 'Jane Doe <jane@example.com>';
      },
      (d) => {
        lib(d).manufacturer = { contact: [{ email: 'dev@acme.example' }] };
      },
    ],
  },
  'component.name': name,
  'component.version': version,
  'component.filename': property('bsi:component:filename'),
  'component.deployable-hash': {
    fail: [
      {
        edit: (d) => (lib(d).externalReferences[0].hashes = [{ alg: 'SHA-256', content: SHA256 }]),
        pointer: '/components/0/externalReferences',
      },
      {
        // A SHA-512 of the component itself is not the deployable file's hash.
        edit: (d) => {
          delete lib(d).externalReferences;
          lib(d).hashes = [{ alg: 'SHA-512', content: SHA512 }];
        },
        pointer: '/components/0',
      },
      {
        edit: (d) => (lib(d).externalReferences[0].type = 'website'),
        pointer: '/components/0/externalReferences',
      },
    ],
    pass: [(d) => (lib(d).externalReferences[0].type = 'distribution-intake')],
  },
  'component.executable': property('bsi:component:executable', ['executable', 'non-executable']),
  'component.archive': property('bsi:component:archive', ['archive', 'no archive']),
  'component.structured': property('bsi:component:structured', ['structured', 'unstructured']),
  'sbom-uri': {
    fail: [{ edit: (d) => (d.serialNumber = '3e671687-395b-41f5-a30f-a58921a69b79'), pointer: '/serialNumber' }],
    pass: [(d) => delete d.serialNumber, (d) => (d.serialNumber = 'https://sbom.acme.example/app/1')],
  },
  'component.uri': {
    fail: [
      {
        edit: (d) => (lib(d).externalReferences[0].url = 'acme.example/lib.tgz'),
        pointer: '/components/0/externalReferences/0',
      },
      {
        edit: (d) => lib(d).externalReferences.push({ type: 'vcs', url: 'git@acme.example:lib' }),
        pointer: '/components/0/externalReferences/1',
      },
    ],
    pass: [(d) => lib(d).externalReferences.push({ type: 'website', url: 'acme.example' })],
  },
});

const bsi20 = bsiCommon({ fail: '1.4', pass: '1.5' });
const bsi21 = bsiCommon({ fail: '1.5', pass: '1.7' });

const CASES: Record<string, Case> = {
  'ntia-2021/format': format,
  'ntia-2021/sbom-author': {
    fail: [
      {
        edit: (d) => {
          delete d.metadata.authors;
          delete d.metadata.tools;
          delete d.metadata.manufacturer;
        },
        pointer: '/metadata',
      },
      {
        edit: (d) => {
          d.metadata.authors = [{ name: ' ' }];
          d.metadata.tools = { components: [] };
          delete d.metadata.manufacturer;
        },
        pointer: '/metadata/authors',
      },
    ],
    pass: [
      (d) => {
        delete d.metadata.authors;
        delete d.metadata.manufacturer;
      },
      (d) => {
        delete d.metadata.tools;
        delete d.metadata.manufacturer;
        d.metadata.authors = [{ email: 'jane@example.com' }];
      },
      (d) => {
        delete d.metadata.authors;
        delete d.metadata.tools;
        delete d.metadata.manufacturer;
        d.metadata.supplier = { name: 'Acme' };
      },
      (d) => {
        delete d.metadata.authors;
        delete d.metadata.tools;
        delete d.metadata.manufacturer;
        d.metadata.manufacture = { name: 'Acme' };
      },
    ],
  },
  'ntia-2021/timestamp': timestamp,
  'ntia-2021/dependency-relationship': primaryDependencies,
  'ntia-2021/component.supplier': supplier,
  'ntia-2021/component.name': name,
  'ntia-2021/component.version': version,
  'ntia-2021/component.identifier': {
    fail: [{ edit: (d) => delete lib(d).purl, pointer: '/components/0' }],
    pass: [
      (d) => {
        delete lib(d).purl;
        lib(d).cpe = 'cpe:2.3:a:acme:lib:1.0.0:*:*:*:*:*:*:*';
      },
      (d) => {
        delete lib(d).purl;
        lib(d).swid = { tagId: 'acme-lib-1.0.0', name: 'lib' };
      },
    ],
  },
  'cisa-2025/sbom-author': {
    fail: [
      // Tools and the manufacturer do not count as the SBOM's author here.
      { edit: (d) => delete d.metadata.authors, pointer: '/metadata' },
      { edit: (d) => (d.metadata.authors = [{ phone: '123' }]), pointer: '/metadata/authors' },
    ],
    pass: [(d) => (d.metadata.authors = [{ email: 'jane@example.com' }])],
  },
  'cisa-2025/tool-name': {
    fail: [
      { edit: (d) => delete d.metadata.tools, pointer: '/metadata' },
      {
        edit: (d) => (d.metadata.tools = { components: [{ type: 'application', name: '' }] }),
        pointer: '/metadata/tools',
      },
    ],
    pass: [
      (d) => (d.metadata.tools = [{ vendor: 'Acme', name: 'acme-sbom' }]),
      (d) => (d.metadata.tools = { services: [{ name: 'sbom-service' }] }),
    ],
  },
  'cisa-2025/timestamp': timestamp,
  'cisa-2025/generation-context': {
    fail: [
      { edit: (d) => delete d.metadata.lifecycles, pointer: '/metadata' },
      { edit: (d) => (d.metadata.lifecycles = []), pointer: '/metadata/lifecycles' },
    ],
    pass: [(d) => (d.metadata.lifecycles = [{ name: 'nightly', description: 'after build' }])],
  },
  'cisa-2025/dependency-relationship': primaryDependencies,
  'cisa-2025/component.software-producer': supplier,
  'cisa-2025/component.name': name,
  'cisa-2025/component.version': version,
  'cisa-2025/component.software-identifiers': {
    fail: [{ edit: (d) => delete lib(d).purl, pointer: '/components/0' }],
    pass: [
      (d) => {
        delete lib(d).purl;
        lib(d).omniborId = ['gitoid:blob:sha1:261eeb9e9f8b2b4b0d119366dda99c6fd7d35c64'];
      },
      (d) => {
        delete lib(d).purl;
        lib(d).swhid = ['swh:1:cnt:94a9ed024d3859793618152ea559a168bbcbb5e2'];
      },
    ],
  },
  'cisa-2025/component.hash': {
    fail: [
      { edit: (d) => delete lib(d).hashes, pointer: '/components/0' },
      { edit: (d) => (lib(d).hashes = [{ alg: 'SHA-256', content: ' ' }]), pointer: '/components/0/hashes' },
    ],
    // Any algorithm: the draft names none.
    pass: [(d) => (lib(d).hashes = [{ alg: 'MD5', content: 'c'.repeat(32) }])],
  },
  'cisa-2025/component.license': {
    fail: [
      { edit: (d) => delete lib(d).licenses, pointer: '/components/0' },
      { edit: (d) => (lib(d).licenses = []), pointer: '/components/0/licenses' },
    ],
    pass: [
      (d) => (lib(d).licenses = [{ expression: 'MIT OR Apache-2.0' }]),
      (d) => (lib(d).licenses = [{ license: { name: 'NOASSERTION' } }]),
    ],
  },
  'cisa-2026/sbom-author': {
    fail: [
      // A tool does not count; the manufacturer does (an organisation as author).
      {
        edit: (d) => {
          delete d.metadata.authors;
          delete d.metadata.manufacturer;
        },
        pointer: '/metadata',
      },
      {
        edit: (d) => {
          d.metadata.authors = [{ phone: '123' }];
          delete d.metadata.manufacturer;
        },
        pointer: '/metadata/authors',
      },
    ],
    pass: [(d) => delete d.metadata.authors, (d) => delete d.metadata.manufacturer],
  },
  'cisa-2026/sbom-author-signature': {
    fail: [{ edit: (d) => delete d.signature, pointer: '' }],
    pass: [],
  },
  'cisa-2026/sbom-format-name': {
    fail: [{ edit: (d) => (d.bomFormat = 'cyclonedx'), pointer: '/bomFormat' }],
    pass: [],
  },
  'cisa-2026/sbom-format-version': {
    fail: [{ edit: (d) => (d.specVersion = ' '), pointer: '/specVersion' }],
    pass: [],
  },
  'cisa-2026/generation-context': {
    fail: [
      { edit: (d) => delete d.metadata.lifecycles, pointer: '/metadata' },
      { edit: (d) => (d.metadata.lifecycles = []), pointer: '/metadata/lifecycles' },
    ],
    pass: [(d) => (d.metadata.lifecycles = [{ name: 'nightly', description: 'after build' }])],
  },
  'cisa-2026/timestamp': timestamp,
  'cisa-2026/tool-name': {
    fail: [
      { edit: (d) => delete d.metadata.tools, pointer: '/metadata' },
      {
        edit: (d) => (d.metadata.tools = { components: [{ type: 'application', name: '', version: '1' }] }),
        pointer: '/metadata/tools',
      },
    ],
    pass: [(d) => (d.metadata.tools = [{ vendor: 'Acme', name: 'acme-sbom', version: '1' }])],
  },
  'cisa-2026/tool-version': {
    fail: [
      { edit: (d) => delete d.metadata.tools, pointer: '/metadata' },
      {
        edit: (d) => (d.metadata.tools = { components: [{ type: 'application', name: 'acme-sbom' }] }),
        pointer: '/metadata/tools',
      },
    ],
    // An unknown version, said as such, is an answer.
    pass: [
      (d) => (d.metadata.tools = { components: [{ type: 'application', name: 'acme-sbom', version: 'unknown' }] }),
      (d) => (d.metadata.tools = [{ name: 'acme-sbom', version: '1.0' }]),
    ],
  },
  'cisa-2026/sbom-version': {
    fail: [{ edit: (d) => delete d.version, pointer: '' }],
    pass: [(d) => (d.version = 7)],
  },
  'cisa-2026/component.producer': {
    fail: supplier.fail,
    pass: [
      ...supplier.pass,
      (d) => {
        delete lib(d).supplier;
        delete lib(d).manufacturer;
        lib(d).authors = [{ name: 'Jane Doe' }];
      },
    ],
  },
  'cisa-2026/component.name': name,
  'cisa-2026/component.version': { ...version, pass: [...version.pass, (d) => (lib(d).version = 'unknown')] },
  'cisa-2026/component.identifiers': {
    fail: [{ edit: (d) => delete lib(d).purl, pointer: '/components/0' }],
    pass: [
      (d) => {
        delete lib(d).purl;
        lib(d).omniborId = ['gitoid:blob:sha1:261eeb9e9f8b2b4b0d119366dda99c6fd7d35c64'];
      },
      (d) => {
        delete lib(d).purl;
        lib(d).cpe = 'cpe:2.3:a:acme:lib:1.0.0:*:*:*:*:*:*:*';
      },
    ],
  },
  'cisa-2026/component.hash-value': {
    fail: [
      { edit: (d) => delete lib(d).hashes, pointer: '/components/0' },
      { edit: (d) => (lib(d).hashes = [{ alg: 'SHA-256', content: ' ' }]), pointer: '/components/0/hashes' },
    ],
    pass: [(d) => (lib(d).hashes = [{ alg: 'MD5', content: 'c'.repeat(32) }])],
  },
  'cisa-2026/component.hash-algorithm': {
    fail: [
      { edit: (d) => delete lib(d).hashes, pointer: '/components/0' },
      { edit: (d) => (lib(d).hashes = [{ content: 'c'.repeat(64) }]), pointer: '/components/0/hashes' },
    ],
    pass: [(d) => (lib(d).hashes = [{ alg: 'SHA3-512', content: 'c'.repeat(128) }])],
  },
  'cisa-2026/component.license': {
    fail: [
      { edit: (d) => delete lib(d).licenses, pointer: '/components/0' },
      { edit: (d) => (lib(d).licenses = []), pointer: '/components/0/licenses' },
    ],
    pass: [(d) => (lib(d).licenses = [{ license: { id: 'NOASSERTION' } }])],
  },
  'cisa-2026/component.dependency-relationship': primaryDependencies,
  ...Object.fromEntries(Object.entries(bsi20).map(([id, c]) => [`bsi-2.0/${id}`, c])),
  'bsi-2.0/component.licence': {
    fail: [
      {
        edit: (d) => (lib(d).licenses = [{ license: { name: 'Apache License' } }]),
        pointer: '/components/0/licenses/0',
      },
      {
        edit: (d) => (lib(d).licenses = [{ license: { id: 'MIT' } }, { expression: 'MIT OR NOASSERTION' }]),
        pointer: '/components/0/licenses/1',
      },
      { edit: (d) => (lib(d).licenses = []), pointer: '/components/0/licenses' },
      { edit: (d) => delete lib(d).licenses, pointer: '/components/0' },
    ],
    pass: [
      (d) => (lib(d).licenses = [{ license: { name: 'LicenseRef-acme-proprietary' } }]),
      (d) => (lib(d).licenses = [{ expression: '(MIT OR Apache-2.0) AND GPL-2.0-only WITH Classpath-exception-2.0' }]),
      // Any acknowledgement counts in 2.0.
      (d) => (lib(d).licenses = [{ license: { id: 'MIT', acknowledgement: 'declared' } }]),
    ],
  },
  'bsi-2.0/component.additional-licence': {
    fail: [
      {
        edit: (d) => lib(d).licenses.push({ license: { name: 'Apache License', acknowledgement: 'concluded' } }),
        pointer: '/components/0/licenses/1',
      },
    ],
    pass: [(d) => lib(d).licenses.push({ license: { name: 'LicenseRef-x', acknowledgement: 'concluded' } })],
  },
  ...Object.fromEntries(Object.entries(bsi21).map(([id, c]) => [`bsi-2.1/${id}`, c])),
  'bsi-2.1/depth.completeness': {
    fail: [
      { edit: (d) => delete d.compositions, pointer: '' },
      { edit: (d) => (d.compositions = [{ aggregate: 'complete', assemblies: ['app'] }]), pointer: '/compositions' },
      { edit: (d) => (d.compositions = [{ dependencies: ['app'] }]), pointer: '/compositions' },
      // not_specified states nothing about completeness.
      {
        edit: (d) => (d.compositions = [{ aggregate: 'not_specified', dependencies: ['app', 'lib'] }]),
        pointer: '/compositions',
      },
    ],
    pass: [
      (d) => (d.compositions = [{ aggregate: 'incomplete', dependencies: ['app'] }]),
      (d) => (d.compositions = [{ aggregate: 'unknown' }]),
      (d) => (d.compositions = [{ aggregate: 'not_specified' }, { aggregate: 'complete' }]),
    ],
  },
  'bsi-2.1/component.licence': {
    fail: [
      // Declared, or no acknowledgement (declared in 1.6, as sbomqs reads it): not a distribution licence.
      {
        edit: (d) => (lib(d).licenses = [{ license: { id: 'MIT', acknowledgement: 'declared' } }]),
        pointer: '/components/0/licenses',
      },
      { edit: (d) => (lib(d).licenses = [{ license: { id: 'MIT' } }]), pointer: '/components/0/licenses' },
      {
        edit: (d) => (lib(d).licenses = [{ license: { name: 'Apache License', acknowledgement: 'concluded' } }]),
        pointer: '/components/0/licenses/0',
      },
    ],
    pass: [(d) => (lib(d).licenses = [{ expression: 'MIT OR Apache-2.0', acknowledgement: 'concluded' }])],
  },
  'bsi-2.1/component.additional-licence': {
    fail: [
      {
        edit: (d) => lib(d).licenses.push({ license: { name: 'Apache License', acknowledgement: 'declared' } }),
        pointer: '/components/0/licenses/1',
      },
      { edit: (d) => lib(d).licenses.push({ expression: 'MIT OR' }), pointer: '/components/0/licenses/1' },
    ],
    pass: [(d) => lib(d).licenses.push({ license: { name: 'LicenseRef-acme', acknowledgement: 'declared' } })],
  },
  'cra/machine-readable': format,
  'cra/top-level-dependencies': primaryDependencies,
};

const profiles = loadProfiles([...BUILTIN_PROFILE_NAMES]);

function findings(document: Doc, rule: string) {
  return evaluateProfiles(document, profiles).diagnostics.filter((d) => d.ruleId === rule);
}

describe('the built-in profiles', () => {
  it('have a case here for every requirement, and no case for a requirement they lack', () => {
    const ids = profiles.flatMap((p) => p.requirements.map((r) => `${p.name}/${r.id}`));
    expect(ids.filter((id) => CASES[id] === undefined)).toEqual([]);
    expect(Object.keys(CASES).filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids).toHaveLength(8 + 11 + 17 + 20 + 21 + 2);
  });

  it('all pass the base document, with no finding at all', () => {
    const { diagnostics, results } = evaluateProfiles(base(), profiles);
    expect(diagnostics).toEqual([]);
    expect(results.map((r) => [r.name, r.passed, r.components])).toEqual(
      BUILTIN_PROFILE_NAMES.map((name) => [name, true, 2]),
    );
  });

  for (const profile of profiles) {
    describe(profile.name, () => {
      for (const requirement of profile.requirements) {
        const rule = `profile/${profile.name}/${requirement.id}`;
        const c = CASES[`${profile.name}/${requirement.id}`];
        it(`${requirement.id}: unmet where the document falls short, met on the other side`, () => {
          expect(c, rule).toBeDefined();
          for (const [i, fail] of c!.fail.entries()) {
            const document = base();
            fail.edit(document);
            const found = findings(document, rule);
            expect(
              found.map((d) => d.pointer),
              `${rule} fail case ${i}`,
            ).toEqual([fail.pointer]);
            expect(found[0]!.severity).toBe(requirement.level === 'MUST' ? 'error' : 'warning');
            expect(found[0]!.message).toContain(`${requirement.message}`);
            // The hint as written, its placeholders ({component}, {primary}…) filled in for this finding.
            const hint = requirement.hint
              .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
              .replace(/\\\{(?:component|bom-ref|primary|at|ref)\\\}/g, "(?:[\\w@%+=:,./-]+|'[^']*')");
            expect(found[0]!.message).toMatch(new RegExp(`; ${hint}$`));
            expect(found[0]!.message).not.toMatch(/\{(?:component|bom-ref|primary|at|ref)\}/);
          }
          for (const [i, pass] of c!.pass.entries()) {
            const document = base();
            pass(document);
            expect(findings(document, rule), `${rule} pass case ${i}`).toEqual([]);
          }
        });
      }
    });
  }
});

describe('profiles through validate()', () => {
  it('report a newer spec version once at /specVersion and still check everything else', async () => {
    const document = base();
    document.specVersion = '1.5';
    delete document.metadata.manufacturer;
    for (const c of [document.metadata.component, lib(document)]) {
      delete c.manufacturer;
      for (const l of c.licenses) delete l.license.acknowledgement;
    }
    const result = await validate(document, { profiles: loadProfiles(['bsi-2.1']), signatures: 'ignore' });
    const profileFindings = result.diagnostics.filter((d) => d.ruleId.startsWith('profile/'));
    expect(profileFindings.filter((d) => d.ruleId === 'profile/bsi-2.1/spec-version')).toEqual([
      expect.objectContaining({ pointer: '/specVersion', severity: 'error' }),
    ]);
    // Below 1.6 a licence without acknowledgement is not concluded: the distribution licence is still checked.
    expect(profileFindings.map((d) => `${d.ruleId} ${d.pointer}`).sort()).toEqual([
      'profile/bsi-2.1/component.licence /components/0/licenses',
      'profile/bsi-2.1/component.licence /metadata/component/licenses',
      'profile/bsi-2.1/spec-version /specVersion',
    ]);
    expect(result.profiles?.[0]).toMatchObject({ name: 'bsi-2.1', passed: false, components: 2 });
    expect(result.valid).toBe(false);
  });

  it('leave a document that meets them valid, and say so in the result', async () => {
    const result = await validate(base(), { profiles: loadProfiles(['cra', 'ntia-2021']), signatures: 'ignore' });
    expect(result.diagnostics).toEqual([]);
    expect(result.profiles?.map((p) => [p.name, p.passed])).toEqual([
      ['cra', true],
      ['ntia-2021', true],
    ]);
  });

  it('make SHOULD findings warnings that never fail a document', async () => {
    const document = base();
    delete lib(document).purl;
    const result = await validate(document, { profiles: loadProfiles(['ntia-2021']), signatures: 'ignore' });
    expect(result.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([
      ['profile/ntia-2021/component.identifier', 'warning'],
    ]);
    expect(result.valid).toBe(true);
    expect(result.profiles?.[0]?.passed).toBe(true);
  });

  it('walk nested components and count them', () => {
    const document = base();
    lib(document).components = [component('inner', 'library')];
    delete lib(document).components[0].version;
    const found = findings(document, 'profile/ntia-2021/component.version');
    expect(found.map((d) => d.pointer)).toEqual(['/components/0/components/0']);
    expect(evaluateProfiles(document, profiles).results[0]!.components).toBe(3);
  });

  it('list at most 100 findings per requirement and count them all', () => {
    const document = base();
    document.components = Array.from({ length: 150 }, (_, i) => {
      const c = component(`c${i}`, 'library');
      delete c.version;
      return c;
    });
    const { diagnostics, results } = evaluateProfiles(document, loadProfiles(['ntia-2021']));
    const found = diagnostics.filter((d) => d.ruleId === 'profile/ntia-2021/component.version');
    expect(found).toHaveLength(100);
    expect(found[99]!.message).toMatch(/\(and 50 more like it, not listed one by one\)$/);
    expect(found[98]!.message).not.toMatch(/more like it/);
    const row = results[0]!.requirements.find((r) => r.id === 'component.version')!;
    expect(row.unmet).toBe(150);
    expect(row.pointers).toHaveLength(20);
  });
});
