/** The one reading and writing of a document, in either syntax (see read.ts). */
export {
  readDocument,
  syntaxNeutralModel,
  JSON_ONLY_MEMBERS,
  type BomDocument,
  type DocumentPlace,
  type DocumentRead,
} from './read.js';
export { outputSyntax, SYNTAXES, syntaxOf, syntaxOfBytes, syntaxOfName, type Syntax } from './syntax.js';
export { writeDocument, writeJsonModel, writeXmlModel, type WriteOptions } from './write.js';
export { xmlRootProblem } from './xml-root.js';
