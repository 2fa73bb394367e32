/**
 * Drill "regex cost": every regular expression of `src/` that reads input gwops did not
 * write (manifests, the project file, content and secret files, gateway answers, URLs,
 * activation comments) runs in time linear in its input, so that no manifest or gateway can
 * make a check take minutes, deaf to SIGINT and SIGTERM.
 * - Static: every regular-expression literal of `src/`, found with the TypeScript compiler
 *   API, and every `pattern` of the JSON Schemas (which ajv runs on manifests) is checked by
 *   `recheck` (an automaton and fuzzing analyser of super-linear backtracking); every
 *   `new RegExp(...)` is one of the reviewed constructions below.
 * - Measured: each literal runs on generated adversarial input (runs of its own characters
 *   and literal fragments, and the attack string recheck found, if any) and the functions
 *   that replaced backtracking expressions run on the inputs that made those quadratic;
 *   CPU time (process.cpuUsage, not the wall clock) must grow near-linearly when the input
 *   doubles, up to the size limits.
 * - End to end: `gwops validate` of a custom deny rule whose pattern is 150 KB of `(?iii…`
 *   ends at once and answers SIGTERM within a second.
 * A seeded sample of the measured part runs in `npm test`, all of it under `GWOPS_DRILLS=full`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { Schema } from 'yaml';
import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../src/manifest/rules.js';
import { substituteVariables } from '../../src/manifest/variables.js';
import { parseVersionTrailer, withoutVersionTrailer } from '../../src/engine/secret-versions.js';
import { certificateFingerprint } from '../../src/kinds/ssl-certificate/identity.js';
import { describeCertificates } from '../../src/render/certificate.js';
import { pemSubjects } from '../../src/gateway/diagnose.js';
import { escapeFileName, secretEnvName } from '../../src/export/names.js';
import { globToRegExp } from '../../src/emulator/faults.js';
import { trimEdges, trimTrailing, withoutDelimited, withoutTrailingLineBreaks } from '../../src/core/linear-text.js';
import { REPO } from '../e2e/harness.js';
import { startGwops } from '../e2e/spawn.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample } from './support.js';

/**
 * Folders of `tools/` whose expressions read only the repository's own text: the
 * documentation generators (the docs/ pages and the CLI's own help) and the benchmarks'
 * generated data. Their expressions are listed but not held to the rule.
 */
const OWN_TEXT_ONLY = ['tools/docs/', 'tools/bench/'];

/**
 * The reviewed `new RegExp(...)` constructions, by file: what each compiles and why its
 * cost is bounded. A new one fails the drill until it is reviewed here.
 */
const CONSTRUCTED: Readonly<Record<string, string>> = {
  'src/manifest/rules.ts': 'compiles a manifest pattern to report a syntax error; never runs it',
  'src/manifest/fast-yaml.ts': 'the union of the yaml package core tags (checked with recheck below)',
  'src/export/names.ts': 'one character class (no quantifier)',
  'tools/release/changelog.ts': 'a release heading: the escaped version as a literal, then one negated class up to the line end',
};

interface Literal {
  readonly file: string;
  readonly line: number;
  readonly source: string;
  readonly flags: string;
}

/** Every file under `dir` ending in `.ts`, repository-relative with forward slashes. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f.split('\\').join('/')}`)
    .sort();
}

/** The regular-expression literals and the files of `new RegExp(...)` calls in `src/` and `tools/`. */
function scan(): { literals: Literal[]; constructed: Set<string> } {
  const literals: Literal[] = [];
  const constructed = new Set<string>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('tools')]) {
    const sf = ts.createSourceFile(file, readFileSync(join(REPO, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(sf);
        const end = text.lastIndexOf('/');
        literals.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, source: text.slice(1, end), flags: text.slice(end + 1) });
      } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
        constructed.add(file);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { literals, constructed };
}

/** Every distinct string `pattern` of the JSON Schemas in schemas/ (a `pattern` holding a schema is a property name). */
function schemaPatterns(): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string') found.add(value);
        else walk(value);
      }
    }
  };
  for (const file of readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.json'))) walk(JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')));
  return [...found].filter((p) => p !== '').sort();
}

const ownTextOnly = (file: string): boolean => OWN_TEXT_ONLY.some((dir) => file.startsWith(dir));

/**
 * recheck's verdict on one expression (deterministic: a fixed seed). recheck answers
 * `unknown` (timeout) when its wall-clock budget runs out, which a busy machine causes: that answer
 * is asked again once with a budget twelve times as long before it counts.
 */
function verdict(source: string, flags: string): { status: string; attack: string | undefined } {
  let result = checkSync(source, flags, { randomSeed: 7, timeout: 10_000 });
  if (result.status === 'unknown' && result.error.kind === 'timeout') result = checkSync(source, flags, { randomSeed: 7, timeout: 120_000 });
  const status = result.status === 'unknown' ? `unknown (${result.error.kind})` : result.status;
  return { status, attack: result.status === 'vulnerable' ? result.attack.string : undefined };
}

/** CPU time (user + system, µs) of `run`, the least of `times` tries. */
function cpu(run: () => unknown, times = 3): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/**
 * Below this CPU time (µs) a measurement is noise: growth is judged on larger ones only. A
 * linear replace over a string of a million characters can take ten times as long as at half
 * that size (its result no longer fits the young generation), so times of a few milliseconds
 * say nothing about growth; a super-linear expression is caught by {@link BUDGET} at the sizes
 * measured (quadratic on 2^17 characters is ~10^10 steps).
 */
const NOISE_FLOOR = 20_000;
/** Above this CPU time (µs) at one size the input is already too costly (and doubling stops). */
const BUDGET = 400_000;
/** Largest accepted ratio time(2n) / time(n): linear is 2, quadratic 4. */
const MAX_GROWTH = 3.2;

interface Growth {
  /**
   * Growth per doubling of the input: (time at the largest size / time at the first size above
   * the noise floor) ^ (1 / doublings between them), so that one collection of the garbage
   * collector in one measurement does not read as a quadratic step (0 when every time was below
   * the floor, or only the last one was above it).
   */
  readonly ratio: number;
  /** CPU time at the largest size measured, in µs. */
  readonly top: number;
  /** True when the budget was exceeded before the largest size. */
  readonly overBudget: boolean;
}

/** How the CPU time of `run(input(n))` grows as n doubles from `from` to `to`. */
function growth(input: (n: number) => string, run: (text: string) => unknown, from: number, to: number): Growth {
  let first: { time: number; step: number } | undefined;
  let top = 0;
  let step = 0;
  const ratio = (): number => (first === undefined || step === first.step ? 0 : (top / first.time) ** (1 / (step - first.step)));
  for (let n = from; n <= to; n *= 2, step += 1) {
    const text = input(n);
    top = cpu(() => run(text));
    if (first === undefined && top >= NOISE_FLOOR) first = { time: top, step };
    if (top > BUDGET) return { ratio: ratio(), top, overBudget: n < to };
  }
  step -= 1;
  return { ratio: ratio(), top, overBudget: false };
}

const violates = (g: Growth): boolean => g.overBudget || g.ratio > MAX_GROWTH;

/** `unit` repeated to about `n` characters, then `suffix`. */
const pump = (unit: string, suffix = '') => (n: number): string => unit.repeat(Math.max(1, Math.floor(n / Math.max(1, unit.length)))) + suffix;

/**
 * Adversarial inputs for one expression: runs of each of its characters (escapes and class
 * shorthands read as a character they match), runs of pairs of them, runs of its literal
 * fragments, each also ended by a character nothing expects; and recheck's attack.
 */
function adversarial(literal: Literal, attack: string | undefined): { label: string; input: (n: number) => string }[] {
  const chars = new Set<string>(['a', '0', ' ', '\n', '-']);
  const fragments: string[] = [];
  let fragment = '';
  const SHORTHAND: Record<string, string> = { d: '0', D: 'x', w: 'a', W: '-', s: ' ', S: 'x', n: '\n', r: '\r', t: '\t', b: '', B: '' };
  for (let i = 0; i < literal.source.length; i++) {
    let ch = literal.source.charAt(i);
    if (ch === '\\') {
      const next = literal.source.charAt(++i);
      ch = SHORTHAND[next] ?? next;
    } else if ('^$.|?*+()[]{}'.includes(ch)) {
      if (fragment.length > 1) fragments.push(fragment);
      fragment = '';
      if (ch === '.') chars.add('x');
      continue;
    }
    if (ch === '') continue;
    chars.add(ch);
    fragment += ch;
  }
  if (fragment.length > 1) fragments.push(fragment);
  const list = [...chars];
  const out: { label: string; input: (n: number) => string }[] = [];
  for (const a of list) {
    out.push({ label: `${JSON.stringify(a)}×n`, input: pump(a, '\u0000') });
    for (const b of list) if (a < b) out.push({ label: `${JSON.stringify(a + b)}×n`, input: pump(a + b, '\u0000') });
  }
  for (const f of fragments) out.push({ label: `${JSON.stringify(f)}×n`, input: pump(f, '\u0000') });
  if (attack !== undefined) out.push({ label: 'recheck attack', input: pump(attack) });
  return out;
}

/** Runs `literal` over `text` the way code uses it: every match for `g`, else one search. */
function runner(literal: Literal): (text: string) => unknown {
  const re = new RegExp(literal.source, literal.flags);
  return re.global ? (text) => text.replace(re, '') : (text) => re.exec(text);
}

/** regexProblem remembers its answers per pattern: each call gets a pattern of its own (a counter at its end). */
let calls = 0;
const freshRegexProblem = (text: string): unknown => regexProblem(`${text}${String(calls++)}`);

/**
 * The functions that replaced backtracking expressions, each with the input that made the
 * expression quadratic (or worse); all read input gwops did not write.
 */
const FUNCTIONS: readonly { readonly label: string; readonly input: (n: number) => string; readonly run: (text: string) => unknown }[] = [
  { label: 'regexProblem: (?iii… without a colon', input: (n) => `(?${'i'.repeat(n)}`, run: freshRegexProblem },
  { label: 'regexProblem: (?U…(?U:', input: (n) => `(?U${'U'.repeat(n)}(?U:`, run: freshRegexProblem },
  { label: 'regexProblem: (?# repeated, unclosed', input: pump('(?#'), run: freshRegexProblem },
  { label: 'regexProblem: (?P=name without )', input: pump('(?P=aaaaaaaa'), run: freshRegexProblem },
  { label: 'regexProblem: possessive a++ repeated', input: pump('a++'), run: freshRegexProblem },
  { label: '${VAR:- repeated, unclosed', input: pump(':${A:-', '$${'), run: (text) => substituteVariables({ value: text }, {}) },
  { label: '${VAR repeated', input: pump('${AAAAAAA'), run: (text) => substituteVariables({ value: text }, {}) },
  { label: 'secret-version trailer repeated', input: pump(' gwops-secret-versions={', 't'), run: (text) => [withoutVersionTrailer(text), parseVersionTrailer(text)] },
  { label: 'certificate identity: BEGIN/END repeated', input: pump('----END E-----BEGIN E-----I', '----END D-----'), run: certificateFingerprint },
  { label: 'certificate identity: labels without dashes', input: pump('-----BEGIN AAAAAAAA'), run: certificateFingerprint },
  { label: 'certificate display: BEGIN repeated', input: pump('ND CERTIFICATE-----BEGIN CERTIFICATE-----', 'ND CERTIFICATE-----'), run: describeCertificates },
  { label: 'CA bundle subjects: BEGIN repeated', input: pump('-----BEGIN CERTIFICATE-----'), run: pemSubjects },
  { label: 'trailing slashes then more', input: pump('/', '\u0000/'), run: (text) => trimTrailing(text, '/') },
  { label: 'trailing line breaks then \\r', input: pump('\n', '\r'), run: withoutTrailingLineBreaks },
  { label: 'edge trim of inner runs', input: (n) => `x${' \t'.repeat(n / 2)}x`, run: (text) => trimEdges(text, ' \t\r') },
  { label: 'XML comments and instructions, unclosed', input: pump('<!--<?'), run: (text) => withoutDelimited(text, [['<?', '?>'], ['<!--', '-->']]) },
  { label: 'CDATA, unclosed', input: pump('><![CDATA['), run: (text) => withoutDelimited(text, [['<![CDATA[', ']]>']]) },
  { label: 'export file name: trailing dots and spaces', input: pump(' .', 'x .'), run: escapeFileName },
  { label: 'secret variable name: underscores', input: (n) => `x${'_'.repeat(n)}x`, run: (text) => secretEnvName('mapping', text, ['a']) },
  { label: 'fault glob of 8 stars', input: pump('a'), run: (text) => globToRegExp('*a*a*a*a*a*a*a*b').test(text) },
];

interface Row {
  readonly what: string;
  readonly where: string;
  readonly verdict: string;
  readonly growth: string;
  readonly violations: number;
}

describe('drill: regex cost', () => {
  it('every regular expression of src/ that reads outside input is linear: recheck, CPU-time growth, SIGTERM', async () => {
    const seed = drillSeed(42);
    const full = drillMode() === 'full';
    const random = prng(seed);
    const rows: Row[] = [];
    const { literals, constructed } = scan();
    expect(literals.length).toBeGreaterThan(100);

    // Static: recheck on every literal; reviewed constructions only.
    const verdicts = new Map<Literal, ReturnType<typeof verdict>>();
    const outside = literals.filter((l) => !ownTextOnly(l.file));
    for (const literal of full ? outside : sample(outside, 40, random)) {
      const v = verdict(literal.source, literal.flags);
      verdicts.set(literal, v);
      if (v.status !== 'safe') rows.push({ what: `/${literal.source}/${literal.flags}`, where: `${literal.file}:${literal.line}`, verdict: v.status, growth: '', violations: 1 });
    }
    for (const file of constructed) {
      if (CONSTRUCTED[file] === undefined) rows.push({ what: 'new RegExp(...)', where: file, verdict: 'not reviewed', growth: '', violations: 1 });
    }
    // The schemas' `pattern`s, which ajv runs on manifests and the project file (with the u flag).
    for (const source of schemaPatterns()) {
      const v = verdict(source, 'u');
      rows.push({ what: `schema pattern /${source}/u`, where: 'schemas/', verdict: v.status, growth: '', violations: v.status === 'safe' ? 0 : 1 });
    }
    const coreTests = (new Schema({ schema: 'core' }).tags as { test?: RegExp }[]).flatMap((t) => (t.test ? [t.test] : []));
    const union = coreTests.map((t) => `(?:${t.source})`).join('|');
    const unionVerdict = verdict(union, '');
    rows.push({ what: 'yaml core tags (union)', where: 'src/manifest/fast-yaml.ts', verdict: unionVerdict.status, growth: '', violations: unionVerdict.status === 'safe' ? 0 : 1 });
    rows.push({
      what: `${verdicts.size} of ${outside.length} literals reading outside input`,
      where: 'src/',
      verdict: 'recheck',
      growth: '',
      violations: rows.reduce((sum, r) => sum + r.violations, 0),
    });

    // Measured: literals on adversarial input, and the linear replacements.
    const maxSize = full ? 1 << 20 : 1 << 16;
    const picked = full ? outside : sample(outside, 12, random);
    let measured = 0;
    for (const literal of picked) {
      const run = runner(literal);
      const inputs = adversarial(literal, verdicts.get(literal)?.attack);
      const chosen = full ? inputs : sample(inputs, 4, random);
      for (const { label, input } of chosen) {
        const g = growth(input, run, 1 << 13, maxSize);
        measured++;
        if (violates(g)) rows.push({ what: `/${literal.source}/${literal.flags} on ${label}`, where: `${literal.file}:${literal.line}`, verdict: 'measured', growth: `${g.ratio.toFixed(2)} (${Math.round(g.top / 1000)} ms)`, violations: 1 });
      }
    }
    rows.push({ what: `${picked.length} literals × adversarial inputs (${measured} runs)`, where: 'src/', verdict: 'CPU time', growth: `up to ${maxSize} characters`, violations: 0 });
    for (const f of FUNCTIONS) {
      const g = growth(f.input, f.run, 1 << 13, full ? 1 << 20 : 1 << 17);
      rows.push({ what: f.label, where: 'replacement', verdict: 'CPU time', growth: `${g.ratio.toFixed(2)} (${Math.round(g.top / 1000)} ms)`, violations: violates(g) ? 1 : 0 });
    }

    // End to end: the 150 KB pattern, and SIGTERM during validate.
    const dir = await mkdtemp(join(tmpdir(), 'gwops-regex-cost-'));
    try {
      const pattern = `(?${'i'.repeat(150_000)}`;
      await writeFile(
        join(dir, 'rule.yaml'),
        `apiVersion: gwops/v1\nkind: custom-deny-rule\nname: long\nattributes:\n  restrictions:\n    pathPattern: { enabled: true, name: long, pattern: '${pattern}' }\n`,
      );
      const validate = startGwops(['validate', '.'], {}, dir);
      const sent = await Promise.race([validate.exited.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_500))]);
      const signalledAt = Date.now();
      if (sent) validate.child.kill('SIGTERM');
      const answered = await Promise.race([validate.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000))]);
      if (!answered) validate.child.kill('SIGKILL');
      const code = await validate.exited;
      rows.push({
        what: `validate of a 150 KB '(?iii…' pattern${sent ? ', SIGTERM after 1.5 s' : ''}`,
        where: relative(REPO, join(REPO, 'bin/gwops.js')),
        verdict: `exit ${code}`,
        growth: `${sent ? Date.now() - signalledAt : 0} ms after the signal`,
        violations: answered && code === 1 && /invalid-regex|invalid regular expression/.test(validate.stdout + validate.stderr) ? 0 : 1,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const violations = recordDrill({
      id: 'regex-cost',
      title: 'Regular-expression cost',
      description:
        'Every regular-expression literal of src/ that reads input gwops did not write is checked by recheck (super-linear ' +
        'backtracking) and run on generated adversarial input (runs of its own characters and fragments, and any attack ' +
        'recheck finds) of doubling size; the functions that replaced backtracking expressions run on the inputs that made ' +
        `those quadratic. CPU time must grow at most ${MAX_GROWTH}x per doubling of the input (the geometric mean over the sizes above the noise floor, so that one garbage collection is not read as a step; linear is 2x, quadratic 4x) and stay ` +
        `under ${BUDGET / 1000} ms; every new RegExp(...) must be reviewed; and gwops validate of a 150 KB '(?iii…' pattern ` +
        'ends with its error, answering SIGTERM within a second.',
      seed,
      columns: ['expression or function', 'where', 'verdict', 'growth (time(2n)/time(n), geometric mean over the sizes above the noise floor; CPU time at the largest size)', 'violations'],
      rows: rows.map((r) => [r.what, r.where, r.verdict, r.growth, r.violations]),
      mustBeZero: ['violations'],
    });
    expect(violations).toEqual([]);
  }, drillMode() === 'full' ? 3_600_000 : 300_000);
});
