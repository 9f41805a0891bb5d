// Every list's CSV export leaves the server the same way: streamed as its pages are read (never
// held whole in memory), UTF-8, as an attachment with a file name the browser keeps.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export function sendCsv(reply: FastifyReply, filename: string, rows: AsyncIterable<string>) {
  // A stream is sent as it is read, never serialised: a route's 200 schema only documents the text.
  const body = Readable.from(rows) as unknown as string;
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"`).send(body);
}
