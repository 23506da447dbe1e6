// Reference for case X: parse one XML file with libxml2-wasm (the XML engine bomwright uses) and nothing else.
//   node bench/peers/libxml2-parse.js FILE
// Exit 0 when the file is well-formed XML.
const { readFileSync } = await import('node:fs');
const { XmlDocument, ParseOption } = await import('libxml2-wasm');
const file = process.argv[2];
const document = XmlDocument.fromBuffer(readFileSync(file), {
  option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE,
});
document.dispose();
