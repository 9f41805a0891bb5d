// Property-based fuzzing (fast-check, from the server's OpenAPI document) of the terminal inventory,
// sync, customer terminal and usage routes: for FUZZ_RUNS generated requests each
// (valid and broken params, queries and bodies), never a 5xx, every refusal in the error envelope,
// and a refusal writes nothing but the failed-attempt records a route is allowed (fuzz/harness.ts).
import { fuzzFile } from './fuzz/harness';

fuzzFile('terminals', 'the terminal, sync and usage routes');
