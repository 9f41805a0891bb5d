// Fails a script early, with a clear message, when an environment variable it needs is unset.
const missing = process.argv.slice(2).filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(`Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  console.error('Example: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:pg');
  process.exit(1);
}
