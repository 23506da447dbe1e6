/**
 * After an element's first unexpected child libxml2 judges nothing more of its content; bomwright checks again
 * without that child, so every later child is judged: its order, what is missing after it, its own content (issue
 * 43). Each child stands on a line of its own, so a finding's line names the child; the findings are compared
 * with what xmllint reports when the child it found unexpected is taken out, round after round.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { tempDir } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
if (!HAVE_XMLLINT) console.warn('xmllint (Debian libxml2-utils) not installed: skipping the comparison with it');
const XSD = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema/bom-1.6.SNAPSHOT.xsd',
);
/** The line of the `<component>` element; its children follow, one per line. */
const COMPONENT_LINE = 4;
const HASHES = `<hashes><hash alg="MD5">${'0'.repeat(32)}</hash></hashes>`;

function documentOf(children: readonly string[]): string {
  return [
    '<?xml version="1.0"?>',
    `<bom xmlns="${NS}" version="1">`,
    '<components>',
    '<component type="library">',
    ...children,
    '</component>',
    '</components>',
    '</bom>',
    '',
  ].join('\n');
}

/** [line, finding] of bomwright's findings, the line relative to the first child's (0 is the component). */
async function findings(children: readonly string[]): Promise<[number, string][]> {
  const result = await validate(documentOf(children));
  return result.diagnostics.map((d) => [d.line! - COMPONENT_LINE, `${d.ruleId} ${d.message}`]);
}

/**
 * What xmllint reports, taking out the child it finds unexpected and asking again until it finds none: the lines
 * (relative, as above) of every finding, and the elements its last round finds missing at the end. Where
 * bomwright says a required element is missing before that child (`insert`: child line → element), the element
 * is put in empty before it instead, once.
 */
function xmllintRounds(
  children: readonly string[],
  insert: ReadonlyMap<number, string>,
): { lines: number[]; missingAtEnd: string[] } {
  const dir = tempDir();
  const left: { text: string; line: number }[] = children.map((text, i) => ({ text, line: i + 1 }));
  const inserted = new Set<number>();
  const lines: number[] = [];
  let missingAtEnd: string[] = [];
  for (let round = 0; round < 20; round++) {
    const file = path.join(dir, `round-${round}.xml`);
    writeFileSync(file, documentOf(left.map((c) => c.text)));
    const run = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
    let taken: number | undefined;
    missingAtEnd = [];
    for (const line of run.stderr.split('\n')) {
      const found = /:(\d+): element [^:]+: Schemas validity error : (.*)$/.exec(line);
      if (found === null) continue;
      const at = Number(found[1]) - COMPONENT_LINE;
      const missing = /Missing child element\(s\)\. Expected is (?:one of )?\( (.*) \)/.exec(found[2]!);
      if (missing !== null) {
        missingAtEnd.push(missing[1]!.split(', ').at(-1)!.replace(`{${NS}}`, ''));
        continue;
      }
      const original = at === 0 ? 0 : left[at - 1]!.line;
      if (original < 0) continue; // about an element put in
      lines.push(original);
      if (taken === undefined && /This element is not expected/.test(found[2]!)) taken = at - 1;
    }
    if (taken === undefined) break;
    const line = left[taken]!.line;
    const missing = insert.get(line);
    if (missing !== undefined && !inserted.has(line)) {
      inserted.add(line);
      left.splice(taken, 0, { text: `<${missing}/>`, line: -1 });
    } else left.splice(taken, 1);
  }
  return { lines: [...new Set(lines)].sort((a, b) => a - b), missingAtEnd };
}

const CASES: [string, string[], [number, string][]][] = [
  [
    'an unexpected first child',
    ['<foo/>', '<name>a</name>', HASHES, '<scope>required</scope>'],
    [
      [1, 'schema/additional-property <foo> is not an element of <component>'],
      [4, 'schema/other <scope> must come before <hashes>'],
    ],
  ],
  [
    'an unexpected middle child',
    ['<name>a</name>', '<foo/>', HASHES, '<scope>required</scope>'],
    [
      [2, 'schema/additional-property <foo> is not an element of <component>'],
      [4, 'schema/other <scope> must come before <hashes>'],
    ],
  ],
  [
    'an unexpected last child',
    ['<name>a</name>', '<version>1</version>', '<foo/>'],
    [[3, 'schema/additional-property <foo> is not an element of <component>']],
  ],
  [
    'two unexpected children, then one out of order',
    ['<foo/>', '<name>a</name>', '<bar/>', HASHES, '<version>1</version>'],
    [
      [1, 'schema/additional-property <foo> is not an element of <component>'],
      [3, 'schema/additional-property <bar> is not an element of <component>'],
      [5, 'schema/other <version> must come before <hashes>'],
    ],
  ],
  [
    'an unexpected child, then one out of order, then a required one missing',
    ['<foo/>', HASHES, '<scope>required</scope>'],
    [
      [1, 'schema/additional-property <foo> is not an element of <component>'],
      [2, 'schema/required Missing required <name> (before <hashes>)'],
      [3, 'schema/other <scope> must come before <hashes>'],
    ],
  ],
  [
    'an unexpected child, then a required one missing before a child in its place',
    ['<foo/>', '<version>1</version>', '<scope>required</scope>', HASHES],
    [
      [1, 'schema/additional-property <foo> is not an element of <component>'],
      [2, 'schema/required Missing required <name> (before <version>)'],
    ],
  ],
  [
    'an unexpected child and nothing else: the required one missing at the end',
    ['<foo/>'],
    [
      [0, 'schema/required Missing required <name>'],
      [1, 'schema/additional-property <foo> is not an element of <component>'],
    ],
  ],
  [
    "an unexpected child, then a later child's own content",
    ['<name>a</name>', '<foo/>', HASHES.replace('MD5', 'XX')],
    [
      [2, 'schema/additional-property <foo> is not an element of <component>'],
      [3, 'schema/enum'],
    ],
  ],
  [
    'a foreign element where the document namespace is expected, then one out of order',
    ['<x:note xmlns:x="urn:x"/>', '<name>a</name>', HASHES, '<scope>required</scope>'],
    [
      [1, 'schema/additional-property <x:note> (namespace urn:x) is not expected here'],
      [4, 'schema/other <scope> must come before <hashes>'],
    ],
  ],
  // The other side: no unexpected child, one check.
  ['nothing unexpected', ['<name>a</name>', '<scope>required</scope>', HASHES], []],
  [
    'one out of order and nothing after it',
    ['<name>a</name>', HASHES, '<scope>required</scope>'],
    [[3, 'schema/other <scope> must come before <hashes>']],
  ],
];

describe('every child is judged after an unexpected one', () => {
  for (const [name, children, expected] of CASES) {
    it(name, async () => {
      const found = await findings(children);
      // Messages are compared from their start (an enumeration's list and a namespace's expectations are long).
      expect(found.map(([line, finding], i) => [line, finding.slice(0, expected[i]?.[1].length)])).toEqual(expected);
      if (!HAVE_XMLLINT) return;
      const insert = new Map<number, string>();
      for (const [line, f] of found) {
        const missing = /^schema\/required Missing required <([^>]*)> \(before /.exec(f);
        if (missing !== null) insert.set(line, missing[1]!);
      }
      const xmllint = xmllintRounds(children, insert);
      const endMissing = found.filter(([, f]) => /^schema\/required Missing required <[^>]*>$/.test(f));
      // The same children, each once; a required element missing at the end, said once (before the child where
      // it was found missing, when it was).
      expect([...new Set(found.filter((f) => !endMissing.includes(f)).map(([line]) => line))]).toEqual(xmllint.lines);
      for (const missing of xmllint.missingAtEnd)
        expect(
          found.some(([, f]) => f.startsWith(`schema/required Missing required <${missing}>`)),
          missing,
        ).toBe(true);
      expect(found.length).toBe(xmllint.lines.length + (endMissing.length > 0 ? 1 : 0));
    });
  }
});

describe('the rounds are bounded', () => {
  // After <purl>, each of these belongs before it: one more is judged per check of the document.
  const outOfOrder = [
    '<cpe>c</cpe>',
    '<copyright>c</copyright>',
    '<scope>required</scope>',
    '<description>d</description>',
  ];
  const judged = (found: [number, string][]) => found.map(([line]) => line);

  it('five stops in one element (the first check and four more) are each judged', async () => {
    const found = await findings(['<name>a</name>', '<purl>p</purl>', ...outOfOrder, '<version>1</version>']);
    expect(found.map(([, f]) => f)).toEqual([
      'schema/other <cpe> must come before <purl>',
      'schema/other <copyright> must come before <purl>',
      'schema/other <scope> must come before <purl>',
      'schema/other <description> must come before <purl>',
      'schema/other <version> must come before <purl>',
    ]);
    expect(judged(found)).toEqual([3, 4, 5, 6, 7]);
  });

  it('past them, a sixth out of order is not judged; an undeclared name still is', async () => {
    const children = ['<name>a</name>', '<purl>p</purl>', ...outOfOrder, '<version>1</version>', '<group>g</group>'];
    expect(judged(await findings(children))).toEqual([3, 4, 5, 6, 7]);
    expect(judged(await findings([...children, '<foo/>']))).toEqual([3, 4, 5, 6, 7, 9]);
  });
});
