// A small JSON client over node:http with one keep-alive Agent: at most `maxSockets` sockets, each
// reused request after request, so N client loops hold N connections for the whole run (undici is
// not a dependency, and fetch's pool would hide the connection count).
import http from 'node:http';

export interface JsonAnswer {
  status: number;
  body: unknown;
}

export interface JsonClient {
  request(method: 'GET' | 'POST' | 'PUT', path: string, options?: { token?: string; body?: unknown }): Promise<JsonAnswer>;
  /** Destroys every socket: requests in flight fail (the safety stop). */
  destroy(): void;
}

export function createJsonClient(origin: { host: string; port: number }, options: { maxSockets: number; timeoutMs: number }): JsonClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: options.maxSockets });
  return {
    request(method, path, { token, body } = {}) {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      return new Promise<JsonAnswer>((resolve, reject) => {
        const req = http.request(
          {
            host: origin.host,
            port: origin.port,
            method,
            path,
            agent,
            headers: {
              accept: 'application/json',
              ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = text ? JSON.parse(text) : null;
              } catch {
                // Not JSON: kept as text for the error report.
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
          },
        );
        // No answer within the limit is an error of the run, not a wait without end.
        req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
        req.on('error', reject);
        req.end(payload);
      });
    },
    destroy() {
      agent.destroy();
    },
  };
}
