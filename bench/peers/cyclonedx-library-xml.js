// Peer for case X: validate one CycloneDX 1.6 XML file with the CycloneDX JavaScript library's XML validator,
// which needs libxmljs2 (a native addon); where it is not installed, the validator says so and this exits 3.
//   node bench/peers/cyclonedx-library-xml.js FILE
const { readFileSync } = await import('node:fs');
const { Validation, Spec } = await import('@cyclonedx/cyclonedx-library');
const file = process.argv[2];
const validator = new Validation.XmlValidator(Spec.Version.v1dot6);
let error;
try {
  error = await validator.validate(readFileSync(file, 'utf8'));
} catch (e) {
  process.stderr.write(`cyclonedx-library: ${e.message}\n`);
  process.exit(3);
}
if (error !== null) {
  process.stderr.write(`cyclonedx-library: ${file} is invalid: ${JSON.stringify(error).slice(0, 500)}\n`);
  process.exit(1);
}
