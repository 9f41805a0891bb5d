// The engine's answer to one execution of a prepared statement, read straight from its bytes.
//
// PGlite's own reader (execProtocolStream, then parse.parseResults) copies every field of every
// row into a new ArrayBuffer before decoding it, and builds a message object per row on the way:
// on the users page (100 rows of 15 columns) that was a quarter of the server's CPU. An execution
// answers with a few kinds of message only (BindComplete, DataRow, CommandComplete, ReadyForQuery
// and the like), so they are read here in place: a field is decoded from the output buffer as it
// stands, and parsed with the instance's parsers as PGlite's parseResults does, to the same
// Results. Anything else in the answer (an error, a notice, a notification, a message not listed)
// returns null, and the caller reads the whole answer with PGlite's parser instead, so errors keep
// PGlite's exact shape. (A notification would reach no listener that way; the portal listens on no
// channel of the embedded database.)
import { types, type Results } from '@electric-sql/pglite';

/** A result column as PGlite's Results give it. */
export interface AnswerField {
  name: string;
  dataTypeID: number;
}

type Parser = (value: string, typeId: number) => unknown;

/** Backend message types, by their first byte. */
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
/** ParseComplete, BindComplete, CloseComplete, EmptyQueryResponse, NoData, PortalSuspended, ReadyForQuery: nothing to read. */
const SKIPPED = new Set([0x31, 0x32, 0x33, 0x49, 0x6e, 0x73, 0x5a]);

/** The commands whose count PGlite adds to affectedRows (parseResults). */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The result of the `statement`-th command (0-based) of `answer`, or null when the answer holds a
 * message this does not read (see above) or fewer commands.
 */
export function readAnswer<T>(
  answer: Uint8Array,
  statement: number,
  fields: readonly AnswerField[],
  parsers: Record<number | string, Parser>,
  rowMode: 'array' | 'object' | undefined,
): Results<T> | null {
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  const columnParsers = fields.map((field) => parsers[field.dataTypeID] ?? ((value: string) => types.parseType(value, field.dataTypeID)));
  const rows: unknown[] = [];
  let commands = 0;
  let tag: string | null = null;
  for (let at = 0; at < bytes.length; ) {
    const type = bytes[at]!;
    const end = at + 1 + bytes.readInt32BE(at + 1);
    if (type === DATA_ROW) {
      if (commands === statement) rows.push(readRow(bytes, at + 5, fields, columnParsers, rowMode));
    } else if (type === COMMAND_COMPLETE) {
      if (commands === statement) tag = bytes.toString('utf8', at + 5, end - 1);
      commands++;
    } else if (!SKIPPED.has(type)) {
      return null;
    }
    at = end;
  }
  if (tag === null) return null;
  const words = tag.split(' ');
  const command = words[0]!;
  const count = parseInt(words[words.length - 1]!, 10);
  const result: Results<T> & { command: string; rowCount?: number } = {
    rows: rows as T[],
    fields: fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
    command,
    affectedRows: COUNTED.has(command) ? count : 0,
  };
  if (!Number.isNaN(count)) result.rowCount = count;
  return result;
}

function readRow(bytes: Buffer, start: number, fields: readonly AnswerField[], parsers: Parser[], rowMode: 'array' | 'object' | undefined): unknown {
  const count = bytes.readInt16BE(start);
  let at = start + 2;
  const values: unknown[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(at);
    at += 4;
    if (length === -1) {
      values[i] = null;
    } else {
      values[i] = parsers[i]!(bytes.toString('utf8', at, at + length), fields[i]!.dataTypeID);
      at += length;
    }
  }
  if (rowMode === 'array') return values;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) row[fields[i]!.name] = values[i];
  return row;
}
