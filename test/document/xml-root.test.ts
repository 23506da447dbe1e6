/**
 * Whether an XML root is a CycloneDX `<bom>` bomwright reads (src/document/xml-root.ts): the namespace names the
 * version, and a version forced from outside must be that one.
 */
import { describe, expect, it } from 'vitest';
import { xmlRootProblem } from '../../src/document/index.js';

const PREFIX = 'http://cyclonedx.org/schema/bom/';
const root = (local: string, namespace: string | undefined, name = local) => ({ name, local, namespace });

describe('the root of an XML document', () => {
  it('a <bom> in the namespace of a version bomwright reads is one, forced to its own version or not', () => {
    for (const version of ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7']) {
      expect(xmlRootProblem(root('bom', PREFIX + version))).toBeUndefined();
      expect(xmlRootProblem(root('bom', PREFIX + version), version)).toBeUndefined();
    }
    expect(xmlRootProblem(root('bom', `${PREFIX}1.6`, 'cdx:bom'))).toBeUndefined();
  });

  it('another element, no namespace, or another namespace: not a BOM, named as written', () => {
    expect(xmlRootProblem(root('project', 'http://maven.apache.org/POM/4.0.0'))).toEqual({
      ruleId: 'bom/not-a-bom',
      severity: 'error',
      message:
        "The XML document's root is <project> in namespace http://maven.apache.org/POM/4.0.0, not a CycloneDX <bom>",
      pointer: '',
    });
    expect(xmlRootProblem(root('bom', undefined))).toMatchObject({
      ruleId: 'bom/not-a-bom',
      message: "The XML document's root is <bom>, not a CycloneDX <bom>",
    });
    expect(xmlRootProblem(root('bom', 'http://cyclonedx.org/schema/bo', 'x:bom'))).toMatchObject({
      ruleId: 'bom/not-a-bom',
      message: "The XML document's root is <x:bom> in namespace http://cyclonedx.org/schema/bo, not a CycloneDX <bom>",
    });
    expect(xmlRootProblem(root('component', `${PREFIX}1.6`))?.ruleId).toBe('bom/not-a-bom');
    // A long name is cut.
    const long = xmlRootProblem(root('bom', `urn:${'x'.repeat(300)}`));
    expect(long?.message.length).toBeLessThan(200);
  });

  it('a version of the namespace bomwright does not read: the supported ones listed', () => {
    expect(xmlRootProblem(root('bom', `${PREFIX}9.9`))).toEqual({
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: `XML namespace ${PREFIX}9.9 is not a supported CycloneDX version; supported: ${PREFIX}{1.0,1.1,1.2,1.3,1.4,1.5,1.6,1.7}`,
      pointer: '/bom',
    });
    expect(xmlRootProblem(root('bom', PREFIX))?.ruleId).toBe('bom/unsupported-version');
  });

  it('a forced version that is not the namespace’s is refused: XML says its version itself', () => {
    expect(xmlRootProblem(root('bom', `${PREFIX}1.6`), '1.5')).toEqual({
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: '--spec-version 1.5 does not apply to XML: the namespace of this document says 1.6',
      pointer: '/bom',
    });
  });
});
