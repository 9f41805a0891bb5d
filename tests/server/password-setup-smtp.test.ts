// The setup email through SMTP_URL: a small SMTP server on an ephemeral port stands in for the
// mail server (the seam), so nodemailer runs for real. A mail server that refuses, or is not
// there, must not undo the customer creation; the outbox keeps the error.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { parseEnv } from '../../server/config';
import { createTestContext, type TestContext } from './helpers';

interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

interface SmtpServer {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Enough SMTP for nodemailer: EHLO, MAIL, RCPT, DATA, QUIT. `rejectRecipients` answers RCPT with 550. */
async function startSmtpServer(options: { rejectRecipients?: boolean } = {}): Promise<SmtpServer> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 smtp.test ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(mail);
            mail = { from: '', to: [], data: '' };
            reply('250 2.0.0 Queued');
          } else {
            mail.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 smtp.test');
        else if (verb === 'MAIL') {
          mail.from = line;
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          if (options.rejectRecipients) reply('550 5.1.1 Mailbox unavailable');
          else {
            mail.to.push(line);
            reply('250 2.1.5 OK');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Quoted-printable body text back to plain text. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

let ctx: TestContext | null = null;
let smtp: SmtpServer | null = null;
afterEach(async () => {
  await ctx?.close();
  await smtp?.close();
  ctx = null;
  smtp = null;
});

async function createAsAdmin(context: TestContext, email: string) {
  const admin = await context.createAdmin();
  const token = (await context.login('admin', admin.email, admin.password)).token;
  const res = await context.request({
    method: 'POST',
    url: '/api/v1/customers',
    payload: { email, name: 'Mail Person', company: 'Mail Co', expirationDays: 90 },
    token,
  });
  const outbox = await context.request({ method: 'GET', url: `/api/v1/email-outbox?to=${email}`, token });
  return { res, messages: outbox.json().data.messages as { text: string; sentAt: string | null; error: string | null }[] };
}

describe('the setup email over SMTP', () => {
  it('is sent from MAIL_FROM to the customer through SMTP_URL and marked sent in the outbox', async () => {
    smtp = await startSmtpServer();
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Portal <portal@example.org>' } });
    const { res, messages } = await createAsAdmin(ctx, 'smtp.person@example.net');
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(CUSTOMER_MESSAGES.created('smtp.person@example.net'));

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.from).toContain('<portal@example.org>');
    expect(mail!.to).toEqual(['RCPT TO:<smtp.person@example.net>']);
    const body = decodeQuotedPrintable(mail!.data);
    expect(body).toContain('Subject: Set up your Admin Portal password');
    expect(body).toMatch(/http:\/\/localhost:80\/set-password\?token=[A-Za-z0-9_-]{43}/);

    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ sentAt: ctx.clock.now().toISOString(), error: null });
  });

  it('still creates the customer when the mail server refuses, recording the error', async () => {
    smtp = await startSmtpServer({ rejectRecipients: true });
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url } });
    const { res, messages } = await createAsAdmin(ctx, 'refused@example.net');
    expect(res.statusCode).toBe(201);
    expect(res.json().data.customer).toMatchObject({ email: 'refused@example.net', isActive: false });
    expect(res.json().message).toMatch(/^Customer created, but the password setup email to refused@example\.net could not be sent/);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.sentAt).toBeNull();
    expect(messages[0]!.error).toMatch(/550/);
    // The link in the outbox still works: the administrator can pass it on.
    expect(messages[0]!.text).toMatch(/set-password\?token=/);
  });

  it('still creates the customer when no mail server answers at all', async () => {
    const closed = await startSmtpServer();
    const url = closed.url;
    await closed.close();
    ctx = await createTestContext({ env: { SMTP_URL: url } });
    const { res, messages } = await createAsAdmin(ctx, 'nobody.home@example.net');
    expect(res.statusCode).toBe(201);
    expect(messages[0]).toMatchObject({ sentAt: null, error: expect.stringMatching(/ECONNREFUSED|connect/i) });
  });

  it('refuses to start with an SMTP_URL that is not smtp:// or smtps://, without echoing it', () => {
    let message = '';
    try {
      parseEnv({ SMTP_URL: 'http://user:hunter2@mail.example' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(message).not.toContain('hunter2');
    expect(parseEnv({ SMTP_URL: 'smtps://user:pw@mail.example:465' })).toMatchObject({ smtpUrl: 'smtps://user:pw@mail.example:465' });
    expect(parseEnv({})).toMatchObject({ smtpUrl: null, mailFrom: 'Admin Portal <no-reply@localhost>' });
  });
});
