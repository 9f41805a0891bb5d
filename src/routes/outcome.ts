// The page actors' one reading of an API call lives beside the API (src/api/outcomes.ts); the
// routes that build their actors in place import it from here.
export { outcome } from '../api/outcomes';
