// Everything the run makes outside itself (child processes, databases, data directories, the
// baseline worktree) is registered here as it is made, and undone in reverse order: at the end of
// the run, when it fails, and on SIGINT/SIGTERM. Each step runs once; a failing step is reported
// and the others still run, so one stuck process never leaves a database behind.

type Step = { label: string; undo: () => Promise<void> };

const steps: Step[] = [];
let running: Promise<void> | null = null;

/** Registers an undo step; the returned function runs it early (and removes it from the list). */
export function defer(label: string, undo: () => Promise<void>): () => Promise<void> {
  const step: Step = { label, undo };
  steps.push(step);
  return async () => {
    const at = steps.indexOf(step);
    if (at === -1) return;
    steps.splice(at, 1);
    await undo();
  };
}

/** Runs every registered step, last registered first. Safe to call more than once. */
export function cleanUp(): Promise<void> {
  running ??= (async () => {
    while (steps.length > 0) {
      const step = steps.pop()!;
      try {
        await step.undo();
      } catch (error) {
        console.error(`scale: clean-up of ${step.label} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    running = null;
  })();
  return running;
}

/** A second signal within this time is the same request (see cleanUpOnSignals). */
const SAME_SIGNAL_MS = 5_000;

/**
 * SIGINT/SIGTERM: clean up, then exit with the signal's conventional code. A second signal exits
 * at once, unless it comes within a few seconds of the first: under `npm run` and tsx one Ctrl-C
 * or `kill` of the group reaches this process twice (from the terminal or sender, and relayed by
 * tsx), and that must not cut the clean-up short.
 */
export function cleanUpOnSignals(): void {
  let receivedAt: number | null = null;
  const onSignal = (signal: NodeJS.Signals, code: number) => {
    if (receivedAt !== null) {
      if (Date.now() - receivedAt < SAME_SIGNAL_MS) return;
      console.error(`scale: ${signal} again, exiting without finishing the clean-up`);
      process.exit(code);
    }
    receivedAt = Date.now();
    console.error(`scale: ${signal} received, cleaning up`);
    void cleanUp().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => onSignal('SIGINT', 130));
  process.on('SIGTERM', () => onSignal('SIGTERM', 143));
}
