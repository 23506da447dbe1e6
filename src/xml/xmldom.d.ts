/**
 * The part of @xmldom/xmldom (the DOM parser xml-crypto works on) that bomwright uses, imported by its file so
 * that the package's own typings, which add the browser DOM library to every file, stay out of the build.
 */
declare module '@xmldom/xmldom/lib/index.js' {
  export interface XmlDomNode {
    readonly nodeType: number;
    readonly nodeName: string;
    readonly nodeValue: string | null;
    readonly firstChild: XmlDomNode | null;
    readonly nextSibling: XmlDomNode | null;
    readonly parentNode: XmlDomNode | null;
    /** 1-based, set by the parser's locator. */
    readonly lineNumber?: number;
    readonly columnNumber?: number;
  }
  export interface XmlDomElement extends XmlDomNode {
    readonly localName: string;
    readonly namespaceURI: string | null;
    readonly attributes: { readonly length: number; item(index: number): { name: string; value: string } | null };
    getAttribute(name: string): string | null;
    hasAttribute(name: string): boolean;
  }
  export interface XmlDomDocument extends XmlDomNode {
    readonly documentElement: XmlDomElement | null;
    getElementsByTagNameNS(
      namespace: string,
      localName: string,
    ): { readonly length: number; item(index: number): XmlDomElement | null };
  }
  export class DOMParser {
    constructor(options?: {
      /** Any object: the parser records each node's lineNumber and columnNumber. */
      locator?: object;
      errorHandler?: {
        warning?: (message: unknown) => void;
        error?: (message: unknown) => void;
        fatalError?: (message: unknown) => void;
      };
    });
    parseFromString(text: string, mimeType: string): XmlDomDocument;
  }
}
