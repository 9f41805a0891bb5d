// The benchmarks' command-line frame: a bad option stops the run with its usage text (exit 2)
// before any database exists; any other failure prints and exits 1.

export class UsageError extends Error {
  override name = 'UsageError';
}

export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  });
}
