import { CBOM_SCHEMA_ADDRESS, type SpecFormat } from '../../formats/formats.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { roundedIntegerLiteral } from '../../json/numbers.js';
import { truncate } from '../../values.js';

const SERIAL = /^urn:uuid:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** serialNumber, version and (for CBOM) $schema: the members that identify a document. */
export function checkIdentity(document: Record<string, unknown>, format: SpecFormat): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const serial = document.serialNumber;
  if (serial !== undefined) {
    const value = truncate(JSON.stringify(serial), 120);
    const match = typeof serial === 'string' ? SERIAL.exec(serial) : null;
    if (match === null) {
      diagnostics.push({
        ruleId: 'bom/serial-number',
        severity: 'error',
        message: 'serialNumber must be "urn:uuid:" followed by a lower-case 8-4-4-4-12 hexadecimal UUID',
        pointer: '/serialNumber',
        value,
      });
    } else if ((serial as string).slice(9) === NIL_UUID) {
      diagnostics.push({
        ruleId: 'bom/serial-number-nil',
        severity: 'warning',
        message: 'serialNumber is the nil UUID, which identifies nothing',
        pointer: '/serialNumber',
        value,
      });
    } else {
      const versionNibble = match[3]![0]!;
      const variantNibble = match[4]![0]!;
      // RFC 4122/9562: variant bits 10xx (8, 9, a, b) and a defined version 1–8.
      if (!'89ab'.includes(variantNibble) || !'12345678'.includes(versionNibble)) {
        diagnostics.push({
          ruleId: 'bom/serial-number-variant',
          severity: 'warning',
          message: `serialNumber is not an RFC 4122 UUID (variant nibble "${variantNibble}", version nibble "${versionNibble}")`,
          pointer: '/serialNumber',
          value,
        });
      }
    }
  }
  const version = document.version;
  // Judged on the text: 1.0000000000000001 reads as 1 but is no whole number.
  const rounded = roundedIntegerLiteral(document, 'version');
  if (
    version !== undefined &&
    (rounded !== undefined || !(typeof version === 'number' && Number.isSafeInteger(version) && version >= 1))
  ) {
    diagnostics.push({
      ruleId: 'bom/version',
      severity: 'error',
      message: `version must be a whole number from 1 to 2^53 - 1${rounded === undefined ? '' : ` (${truncate(rounded, 60)} has a fractional part; it only reads as ${String(version)} once rounded)`}`,
      pointer: '/version',
      value: truncate(rounded ?? JSON.stringify(version), 120),
    });
  }
  if (format.family === 'cbom' && document.$schema !== undefined && document.$schema !== CBOM_SCHEMA_ADDRESS) {
    diagnostics.push({
      ruleId: 'cbom/schema-address',
      severity: 'error',
      message: `"$schema" must be ${CBOM_SCHEMA_ADDRESS}`,
      pointer: '/$schema',
      value: truncate(JSON.stringify(document.$schema), 120),
    });
  }
  return diagnostics;
}
