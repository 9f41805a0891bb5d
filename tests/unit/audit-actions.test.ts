// The audit log page names every action the server writes (AUDIT_ACTIONS in src/domain/audit.ts).
// This reads the server's source with the TypeScript parser and fails when an `action` the audit
// writer is handed is missing from that list, so a new audited change cannot reach the log without
// a label and a place in the action filter. It fails closed: an `action` worked out in a way the
// scan cannot follow must be taught here (KNOWN_INDIRECTIONS or TEMPLATE_PREFIXES), never skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, auditActionLabel, isAuditAction } from '../../src/domain/audit';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = join(ROOT, 'server');

/** Audit action names are `subject.verb`; other `action` values (a reconciliation fix's name) are not. */
const ACTION_NAME = /^[a-z][a-z_]*\.[a-z][a-z_]*$/;

/**
 * `action: <expression>` values that are not written out where they stand, each with where its
 * names come from (and why the scan still sees them) or why it is no audit action at all.
 */
const KNOWN_INDIRECTIONS: Record<string, string> = {
  // service-lines.ts: act() and afterTerminalChange() take `{ action: '…', before, after }` entries,
  // whose literals the scan reads where they are written; dashboard and customer activity read rows.
  'entry.action': 'literal entries scanned at their call sites; reads of stored rows',
  // auth-service.ts: the sign-in kinds name their actions as `successAction: '…'` and the like.
  'kind.successAction': 'scanned as `successAction:` literals',
  'kind.failureAction': 'scanned as `failureAction:` literals',
  'kind.challengeAction': 'scanned as `challengeAction:` literals',
  // customers.ts: updateAction() returns one of its literals (scanned in its body).
  'updateAction(current, written.row)': 'literals returned by updateAction()',
  // reconciliation.ts: a leak fix's own action (assign, ignore…), stored in its resolution row.
  'body.action': 'a reconciliation fix, not an audit action',
  'r.action': 'a reconciliation fix, not an audit action',
  'recorded.action': 'a reconciliation fix, not an audit action',
  // bulk.ts: what a bulk preview row will do, in words.
  previewAction: "a bulk preview row's description, not an audit action",
  // automatic-actions.ts: what a rule's action does (opt_out, block_sign_in…), and the action a
  // webhook event carries: not audit actions (those are written as literals there).
  'row.action': "an automatic action's kind, not an audit action",
  'a.action': "an automatic action's kind, not an audit action",
  'claimed.action': "an automatic action's kind, not an audit action",
  'toActionWire(row)': "a webhook event's automatic action, not an audit action",
  // billing/ledger.ts and billing/dunning.ts: an entry's kind and a dunning step name their action
  // as `{ action: '…' }` literals in a table beside them.
  'RECORDED[entry.kind].action': 'scanned as the `action:` literals of RECORDED',
  'STEP[step].action': 'scanned as the `action:` literals of STEP',
  // audit.ts: the writer itself, passing on what it was handed.
  'event.action': 'the audit writer itself',
};

/** `${kind}.password_set` and the like: what the prefix expression can be. */
const TEMPLATE_PREFIXES: Record<string, readonly string[]> = {
  kind: ['user', 'customer'],
  'account.kind': ['user', 'customer'],
  'owner.kind': ['user', 'customer'],
};

/**
 * `${prefix}.${action}` where `action` is a parameter of a local helper: the suffixes are the
 * literals its callers pass (mfa.ts: `record(account, 'mfa_enabled', …)`).
 */
const TEMPLATE_SUFFIXES: Record<string, { callee: string; argument: number }> = {
  "`${type === 'user' ? 'auth' : 'customer'}.${action}`": { callee: 'record', argument: 1 },
};

/** Every server file that can write the audit log: only a holder of the AuditService can. */
function serverFiles(dir = SERVER): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return serverFiles(path);
    if (!name.endsWith('.ts') || name.endsWith('.d.ts')) return [];
    return /AuditService|audit\.record/.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

/** The string literals passed as argument `argument` to every call of `callee(…)` in a file. */
function argumentsOf(source: ts.SourceFile, callee: string, argument: number): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === callee) {
      const arg = n.arguments[argument];
      if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) found.push(arg.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

interface Scan {
  names: Set<string>;
  /** Expressions the scan could not follow, with the file they are in. */
  unknown: string[];
}

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) ? unwrap(node.expression) : node;

function stringLiterals(node: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) found.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The strings an expression can be: a literal, or either branch of a conditional; null otherwise. */
function valuesOf(node: ts.Expression): string[] | null {
  const bare = unwrap(node);
  if (ts.isStringLiteral(bare) || ts.isNoSubstitutionTemplateLiteral(bare)) return [bare.text];
  if (!ts.isConditionalExpression(bare)) return null;
  const [yes, no] = [valuesOf(bare.whenTrue), valuesOf(bare.whenFalse)];
  return yes && no ? [...yes, ...no] : null;
}

/** The names of functions declared in a file, for `action: someFunction(…)`. */
function functionsOf(source: ts.SourceFile): Map<string, ts.Node> {
  const functions = new Map<string, ts.Node>();
  const visit = (n: ts.Node) => {
    if (ts.isFunctionDeclaration(n) && n.name) functions.set(n.name.text, n);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return functions;
}

function scanAuditActions(files: readonly string[] = serverFiles()): Scan {
  const names = new Set<string>();
  const unknown: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const functions = functionsOf(source);
    const where = relative(ROOT, file).split(sep).join('/');
    const take = (value: ts.Expression) => {
      const node = unwrap(value);
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        if (ACTION_NAME.test(node.text)) names.add(node.text);
        return;
      }
      if (ts.isConditionalExpression(node)) {
        take(node.whenTrue);
        take(node.whenFalse);
        return;
      }
      const suffixes = TEMPLATE_SUFFIXES[node.getText(source)];
      if (ts.isTemplateExpression(node) && node.head.text === '' && node.templateSpans.length === 2 && suffixes) {
        const [first] = node.templateSpans;
        for (const prefix of valuesOf(first!.expression) ?? []) {
          for (const suffix of argumentsOf(source, suffixes.callee, suffixes.argument)) names.add(`${prefix}${first!.literal.text}${suffix}`);
        }
        return;
      }
      if (ts.isTemplateExpression(node) && node.head.text === '' && node.templateSpans.length === 1) {
        const span = node.templateSpans[0]!;
        const prefixes = valuesOf(span.expression) ?? TEMPLATE_PREFIXES[span.expression.getText(source)];
        if (!prefixes) {
          unknown.push(`${where}: ${node.getText(source)}`);
          return;
        }
        for (const prefix of prefixes) names.add(`${prefix}${span.literal.text}`);
        return;
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && functions.has(node.expression.text) && KNOWN_INDIRECTIONS[node.getText(source)]) {
        for (const literal of stringLiterals(functions.get(node.expression.text)!)) if (ACTION_NAME.test(literal)) names.add(literal);
        return;
      }
      if (KNOWN_INDIRECTIONS[node.getText(source)]) return;
      unknown.push(`${where}: ${node.getText(source)}`);
    };
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAssignment(n) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))) {
        const key = n.name.text;
        if (key === 'action' || /^[a-z]+Action$/.test(key)) take(n.initializer);
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return { names, unknown };
}

describe('AUDIT_ACTIONS', () => {
  const scan = scanAuditActions();

  it('follows every action the server hands the audit writer', () => {
    expect(scan.unknown).toEqual([]);
  });

  it('finds the actions it should (the scan reads literals, conditionals, templates and helpers)', () => {
    for (const name of ['customer.updated', 'customer.blocked', 'auth.login', 'customer.login_failed', 'auth.mfa_enabled', 'customer.mfa_enabled', 'user.password_set', 'customer.password_reset', 'service_line.renamed', 'user.activated', 'webhook.test_sent']) {
      expect(scan.names, name).toContain(name);
    }
  });

  it('lists every action the server writes', () => {
    const missing = [...scan.names].filter((name) => !isAuditAction(name)).sort();
    expect(missing, 'add these to AUDIT_ACTIONS in src/domain/audit.ts with a label').toEqual([]);
  });

  it('lists nothing the server never writes', () => {
    const stale = AUDIT_ACTIONS.filter((name) => !scan.names.has(name));
    expect(stale).toEqual([]);
  });

  it('gives every action a label of its own', () => {
    const labels = AUDIT_ACTIONS.map((name) => AUDIT_ACTION_LABELS[name]);
    for (const label of labels) expect(label).toMatch(/^[A-Z][^\n]{2,60}$/);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('labels an unknown stored action by its name', () => {
    expect(auditActionLabel('customer.updated')).toBe(AUDIT_ACTION_LABELS['customer.updated']);
    expect(auditActionLabel('legacy.thing')).toBe('legacy.thing');
  });

  it('fails closed on an action it cannot follow', () => {
    const dir = join(ROOT, 'tests/fixtures');
    const probe = join(dir, 'audit-scan-probe.ts');
    const made = scanAuditActions([probe]);
    expect(made.names).toEqual(new Set(['probe.literal', 'probe.yes', 'probe.no', 'user.probed', 'customer.probed']));
    expect(made.unknown).toEqual(['tests/fixtures/audit-scan-probe.ts: somewhere.else', 'tests/fixtures/audit-scan-probe.ts: `${mystery}.probed`']);
  });
});
