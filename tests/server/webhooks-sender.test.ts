// One webhook attempt against real sockets on 127.0.0.1: a 2xx is a success with the answer's
// start kept; a slow receiver is cut off at the timeout; a refused connection, a 3xx and a 5xx are
// failures in words for the log; the sender never throws.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EXCERPT_CHARS } from '../../src/domain/webhooks';
import { createAddressGuard } from '../../server/webhooks/address-guard';
import { createSender, SENDER_MESSAGES } from '../../server/webhooks/sender';

let server: http.Server;
let base: string;
const bodies: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      if (req.url === '/long') return void res.end('é'.repeat(5000));
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/moved') return void res.writeHead(301, { location: 'http://127.0.0.1:1/x' }).end('moved');
      res.writeHead(500).end('broken');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const send = createSender({ guard: createAddressGuard({ allowHttpLocalhost: true, allowedNetworks: [] }), timeoutMs: 300, userAgent: 'test' });
const post = (path: string) => send({ url: `${base}${path}`, body: '{"a":1}', headers: { 'content-type': 'application/json' } });

describe('one webhook attempt', () => {
  it('is a success on a 2xx, with the body sent as given', async () => {
    bodies.length = 0;
    const result = await post('/empty');
    expect(result).toMatchObject({ ok: true, status: 204, excerpt: '', error: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(bodies).toEqual(['{"a":1}']);
  });

  it(`keeps the first ${WEBHOOK_EXCERPT_CHARS} characters of a long answer, multi-byte ones whole`, async () => {
    const result = await post('/long');
    expect(result.excerpt).toBe('é'.repeat(WEBHOOK_EXCERPT_CHARS));
  });

  it('fails a 5xx and a 3xx (not followed) with the status and the answer kept', async () => {
    expect(await post('/broken')).toMatchObject({ ok: false, status: 500, excerpt: 'broken', error: SENDER_MESSAGES.status(500) });
    expect(await post('/moved')).toMatchObject({ ok: false, status: 301, excerpt: 'moved', error: SENDER_MESSAGES.redirect(301, 'http://127.0.0.1:1/x') });
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const started = Date.now();
    expect(await post('/slow')).toEqual({ ok: false, status: null, latencyMs: null, excerpt: null, error: SENDER_MESSAGES.timeout });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a refused connection and a refused address without throwing', async () => {
    const closed = net.createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const refused = await send({ url: `http://127.0.0.1:${port}/`, body: '{}', headers: {} });
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
    const privateAddress = await send({ url: 'https://10.1.1.1/', body: '{}', headers: {} });
    expect(privateAddress).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^The host 10\.1\.1\.1 resolves to 10\.1\.1\.1/) });
    const badHeader = await send({ url: `${base}/empty`, body: '{}', headers: { 'x-bad': 'line\nbreak' } });
    expect(badHeader).toMatchObject({ ok: false, status: null });
  });
});
