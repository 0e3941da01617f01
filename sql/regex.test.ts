import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSync, type Node } from 'libpg-query';
import { Engine, runStatement } from './engine.ts';
import { ReadRecorder, type ExecContext } from './exec-context.ts';
import { lowerStatement } from './lower-statement.ts';
import { SqlTimestamp } from './datetime.ts';
import { WriteBuffer } from './write-buffer.ts';
import { decodePredicate, encodePredicate, scanMatchesRow } from './predicate-codec.ts';
import { encodeRow } from './row-codec.ts';
import { evalPredicate } from './eval.ts';
import { someExpr, type Expr } from './expr.ts';
import { compileRegex, pgExec, regexTest } from './regex.ts';
import { translate, parseFlags } from './regex-parse.ts';
import { SqlError } from './errors.ts';
import { failure } from './errors.testkit.ts';

const engine = await Engine.create();
const s = engine.session();
s.execute('CREATE TABLE words (id int PRIMARY KEY, w text)');
s.execute("INSERT INTO words VALUES (1, 'apple'), (2, 'Banana'), (3, 'cherry'), (4, NULL)");
const words = engine.catalog.require('words');

const code = failure;

void test('a WHERE with ~ is the scan predicate: recorded, serialised and evaluated again as a replica does', () => {
  const node = parseSync("SELECT id FROM words WHERE w ~* '^b' OR w ~ 'rr'").stmts?.[0]?.stmt as Node;
  const rec = new ReadRecorder();
  const ctx: ExecContext = { source: engine.store, writes: new WriteBuffer(), recorder: rec, now: new SqlTimestamp(0n), nextRowId: () => 1, sequences: undefined };
  const r = runStatement(lowerStatement(engine.catalog, node), [], ctx);
  assert.ok(r.ok);
  assert.deepEqual(r.rows, [[2], [3]]);
  const pred = rec.predicates[0]?.predicate ?? null;
  assert.ok(pred !== null && someExpr(pred, (e) => e.k === 'func' && e.fn === 'texticregexeq'));
  const decoded = decodePredicate(encodePredicate({ indexId: null, lo: '', hi: null, filter: pred, keys: null }));
  assert.ok(decoded !== null);
  // SemanticCC asks whether a later write lands in the predicate.
  const key = (id: number): string => '\x00\x00\x00' + String.fromCharCode(words.id) + '\x80' + String(id);
  assert.equal(scanMatchesRow(decoded, words, null, key(5), encodeRow(words, [5, 'BLUEBERRY'])), 'yes');
  assert.equal(scanMatchesRow(decoded, words, null, key(6), encodeRow(words, [6, 'kiwi'])), 'no');
  assert.equal(scanMatchesRow(decoded, words, null, key(7), encodeRow(words, [7, null])), 'no');
});

void test("a Byzantine client's predicate with a bad or oversized pattern is an evaluation error, never a crash", () => {
  const filter = (pattern: string): Expr => ({ k: 'func', fn: 'textregexeq', t: 'bool', args: [{ k: 'col', i: 1, t: 'text' }, { k: 'const', v: pattern, t: 'text' }] });
  for (const bad of ['(', 'a{999}', 'x'.repeat(20_000), '(a+)+\\1', '[[:nope:]]']) {
    const decoded = decodePredicate(encodePredicate({ indexId: null, lo: '', hi: null, filter: filter(bad), keys: null }));
    assert.ok(decoded !== null);
    assert.equal(scanMatchesRow(decoded, words, null, '\x00\x00\x00\x01\x80', encodeRow(words, [1, 'aaaa'])), 'error', bad.slice(0, 20));
  }
});

void test('patterns that backtrack exponentially in a plain JS engine still finish (V8 falls back to its linear engine)', () => {
  const s = 'a'.repeat(3000) + '!';
  assert.equal(regexTest(s, '^(a+)+$', false), false);
  assert.equal(regexTest(s, '^(a|a)*$', false), false);
  assert.equal(regexTest(s, '^(a|aa)+b', false), false);
  assert.equal(regexTest(s, '(x+x+)+y', false), false);
  // Where that engine cannot run (back-references, lookaround) nesting is refused up front.
  assert.match(code(() => regexTest(s, '^(a+)+\\1$', false)), /^2201B invalid regular expression: nested quantifiers/);
  assert.match(code(() => regexTest(s, '^(a|ab)*(?=x)', false)), /^2201B/);
  // Literal alternatives none a prefix of another repeat one way only: allowed.
  assert.equal(regexTest(s, '^(?:a|b)*(?=x)', false), false);
  assert.match(code(() => regexTest(s, '\\m(a+)+', false)), /^2201B/);
  // Functions that return matches pin ends with lookaround: nested quantifiers are refused there.
  assert.match(code(() => pgExec(compileRegex('(a+)+', ''), s, 0, false)), /^2201B/);
});

void test('the match is PostgreSQL’s: leftmost, then longest (or shortest for a non-greedy RE)', () => {
  const m = (p: string, x: string): string | null => {
    const r = pgExec(compileRegex(p, ''), x, 0, true);
    return r === null ? null : x.slice(r.start, r.end);
  };
  assert.equal(m('a|ab', 'xab'), 'ab');
  assert.equal(m('a?(ab)?', 'ab'), 'ab');
  assert.equal(m('a*?b|c', 'aab'), 'aab');
  assert.equal(m('(.*?)(\\d+)(.*)', 'abc01234xyz'), 'abc0');
  assert.equal(m('x*', 'abc'), '');
  // Astral characters count as one character.
  assert.equal(m('.b', '😀b'), '😀b');
});

void test('ARE syntax that has no same-meaning translation is a clear 2201B, never a different match', () => {
  const tr = (p: string, flags = ''): string => code(() => translate(p, parseFlags(flags)));
  assert.match(tr('(a)?\\1'), /^2201B .*may not take part/);
  assert.match(tr('(a)|b\\1'), /^2201B/);
  assert.match(tr('(a)\\1', 'i'), /^2201B .*case-insensitive/);
  assert.match(code(() => pgExec(compileRegex('(a|ab)(c|bcd)', ''), 'abcd', 0, true)), /^2201B .*alternation/);
  assert.match(tr('a', 'e'), /^0A000/);
  assert.match(tr('a', 'z'), /^22023 invalid regular expression option: "z"/);
  // Case-insensitivity is PostgreSQL's (each character and its upper and lower case), not JS's folding.
  assert.equal(regexTest('ſ', 's', true), false);
  assert.equal(regexTest('É', 'é', true), true);
});
