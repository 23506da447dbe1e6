/** The OData namespace on the wire: type names renamed out and back, data left alone. */
import { describe, expect, it } from 'vitest';
import { renameInText, renameTypes, specPath } from '../../src/emulator/namespace.js';
import { inSpecNames } from '../../src/service/namespace.js';

describe('renameTypes', () => {
  it('renames @odata.type values (with or without #) and the types named in @odata.context, at any depth', () => {
    const body = {
      '@odata.context': 'https://x/v1.0/$metadata#Collection(vendor.graph.dirUserConversationMemberResult)',
      value: [
        { '@odata.type': '#vendor.graph.fido2AuthenticationMethod', model: 'vendor.graph.kept' },
        { nested: { '@odata.type': 'vendor.graph.fileAttachment' } },
        { 'user@odata.type': '#vendor.graph.user' },
      ],
    };
    expect(renameTypes(body, 'vendor.graph', 'microsoft.graph')).toEqual({
      '@odata.context': 'https://x/v1.0/$metadata#Collection(microsoft.graph.aadUserConversationMemberResult)',
      value: [
        { '@odata.type': '#microsoft.graph.fido2AuthenticationMethod', model: 'vendor.graph.kept' },
        { nested: { '@odata.type': 'microsoft.graph.fileAttachment' } },
        { 'user@odata.type': '#microsoft.graph.user' },
      ],
    });
  });

  it('maps the type the spec renamed both ways, and leaves other namespaces and values alone', () => {
    expect(
      renameTypes(
        { '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod' },
        'vendor.graph',
        'microsoft.graph',
      ),
    ).toEqual({ '@odata.type': '#microsoft.graph.windowsHelloForBusinessAuthenticationMethod' });
    expect(
      renameTypes(
        { '@odata.type': '#microsoft.graph.windowsHelloForBusinessAuthenticationMethod' },
        'microsoft.graph',
        'vendor.graph',
      ),
    ).toEqual({ '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod' });
    expect(renameTypes({ '@odata.type': '#other.ns.x', n: 1, t: null }, 'vendor.graph', 'microsoft.graph')).toEqual({
      '@odata.type': '#other.ns.x',
      n: 1,
      t: null,
    });
    expect(renameTypes({ '@odata.type': '#vendor.graph.constructor' }, 'vendor.graph', 'microsoft.graph')).toEqual({
      '@odata.type': '#microsoft.graph.constructor',
    });
    const same = { '@odata.type': '#vendor.graph.x' };
    expect(renameTypes(same, 'vendor.graph', 'vendor.graph')).toBe(same);
  });

  it('copies, never changes a frozen record', () => {
    const frozen = Object.freeze({ '@odata.type': '#vendor.graph.x', list: Object.freeze([1]) });
    expect(renameTypes(frozen, 'vendor.graph', 'microsoft.graph')).toEqual({
      '@odata.type': '#microsoft.graph.x',
      list: [1],
    });
    expect(frozen['@odata.type']).toBe('#vendor.graph.x');
  });
});

describe('renameInText', () => {
  it('renames qualified type names in a text, mapping renamed types, members and sub-namespaces', () => {
    expect(
      renameInText(
        "Property 'x' does not exist on type 'vendor.graph.message'; see vendor.graph.event.forward and vendor.graph.security.subcategoryTemplate.",
        'vendor.graph',
        'microsoft.graph',
      ),
    ).toBe(
      "Property 'x' does not exist on type 'microsoft.graph.message'; see microsoft.graph.event.forward and microsoft.graph.security.subCategoryTemplate.",
    );
    expect(
      renameInText('Collection(microsoft.graph.aadUserConversationMemberResult)', 'microsoft.graph', 'vendor.graph'),
    ).toBe('Collection(vendor.graph.dirUserConversationMemberResult)');
    // Glued to a longer name, or in another namespace: not a type name of this one.
    expect(renameInText('avendor.graph.x notvendor.graph other.graph.x', 'vendor.graph', 'microsoft.graph')).toBe(
      'avendor.graph.x notvendor.graph other.graph.x',
    );
    expect(renameInText('vendor.graph.x', 'vendor.graph', 'vendor.graph')).toBe('vendor.graph.x');
  });
});

describe('inSpecNames', () => {
  it('reads a body in the real names in the spec names, and hands back the same value when there are none', () => {
    expect(
      inSpecNames({ value: [{ '@odata.type': '#microsoft.graph.windowsHelloForBusinessAuthenticationMethod' }] }),
    ).toEqual({ value: [{ '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod' }] });
    const spec = { value: [{ '@odata.type': '#vendor.graph.x', note: 'microsoft.graph.data' }] };
    expect(inSpecNames(spec)).toBe(spec);
    expect(inSpecNames(undefined)).toBeUndefined();
  });
});

describe('specPath', () => {
  it('turns cast and function segments of the real namespace into the spec’s', () => {
    expect(specPath('/places/b/microsoft.graph.building/map', 'microsoft.graph')).toBe(
      '/places/b/vendor.graph.building/map',
    );
    expect(specPath('/me/messages/microsoft.graph.delta()', 'microsoft.graph')).toBe(
      '/me/messages/vendor.graph.delta()',
    );
    expect(specPath('/places/b/microsoft.graph.building/map', 'vendor.graph')).toBe(
      '/places/b/microsoft.graph.building/map',
    );
    expect(specPath('/users/amicrosoft.graph.x', 'microsoft.graph')).toBe('/users/amicrosoft.graph.x');
  });
});
