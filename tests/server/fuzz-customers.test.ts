// Property-based fuzzing (fast-check, from the server's OpenAPI document) of the customer, email outbox,
// dashboard, subscription and provider console routes: for FUZZ_RUNS generated requests each
// (valid and broken params, queries and bodies), never a 5xx, every refusal in the error envelope,
// and a refusal writes nothing but the failed-attempt records a route is allowed (fuzz/harness.ts).
import { fuzzFile } from './fuzz/harness';

fuzzFile('customers', 'the customer, subscription and provider console routes');
