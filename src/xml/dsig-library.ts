/**
 * xml-crypto and the DOM parser it works on, loaded on first use: a run that meets no XML signature (every JSON
 * run) never loads them, and the CLI's bundles do not carry them (Node's require takes them from node_modules,
 * as for libxml2-wasm). The Action, which reads no XML, has no copy at all.
 */
import { createRequire } from 'node:module';
import type { DOMParser } from '@xmldom/xmldom/lib/index.js';
import type { SignedXml } from 'xml-crypto';
import { BomwrightError } from '../errors.js';

interface DsigLibrary {
  SignedXml: typeof SignedXml;
  DOMParser: typeof DOMParser;
}

let loaded: DsigLibrary | undefined;

export function dsigLibrary(): DsigLibrary {
  if (loaded === undefined) {
    try {
      const require = createRequire(import.meta.url);
      loaded = {
        SignedXml: (require('xml-crypto') as { SignedXml: typeof SignedXml }).SignedXml,
        DOMParser: (require('@xmldom/xmldom/lib/index.js') as { DOMParser: typeof DOMParser }).DOMParser,
      };
    } catch (error) {
      throw new BomwrightError(
        'E_SCHEMA_MISSING',
        `The XML signature library (xml-crypto) cannot be loaded: ${(error as Error).message.split('\n')[0]}`,
      );
    }
  }
  return loaded;
}
