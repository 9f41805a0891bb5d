// `npm run dev`: the Vite dev server (hot reload) on PORT, with /api proxied to the API server,
// which runs beside it under `tsx watch` on API_PORT and restarts when server code changes.
import { spawn, type ChildProcess } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const apiPort = process.env.API_PORT ?? '3001';
const children: ChildProcess[] = [];

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.log(`[dev] ${name} exited (${code ?? 'signal'}); stopping.`);
    shutdown(code ?? 1);
  });
  children.push(child);
}

function shutdown(code: number) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

// The API serves no SPA in dev: Vite does, so CLIENT_DIR points nowhere.
run('api', 'npx', ['tsx', 'watch', '--clear-screen=false', 'server/server.ts'], {
  PORT: apiPort,
  CLIENT_DIR: '.no-client',
  PUBLIC_URL: `http://localhost:${port}`,
});
run('vite', 'npx', ['vite', '--port', port, '--strictPort'], { API_PORT: apiPort });
