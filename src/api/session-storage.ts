// The browser side of the persisted session: where the session machine's restore/persist effects land.
import {
  LEGACY_SESSION_KEYS,
  SESSION_STORAGE_KEY,
  parsePersistedSession,
  serialisePersistedSession,
  type PersistedSession,
} from '../domain/session';

export function createSessionStorage(storage: Storage) {
  return {
    /** Drops legacy customer entries, then reads a complete stored session or null. */
    restore(): PersistedSession | null {
      for (const key of LEGACY_SESSION_KEYS) storage.removeItem(key);
      const session = parsePersistedSession(storage.getItem(SESSION_STORAGE_KEY));
      if (!session) storage.removeItem(SESSION_STORAGE_KEY);
      return session;
    },
    save(session: PersistedSession): void {
      storage.setItem(SESSION_STORAGE_KEY, serialisePersistedSession(session));
    },
    clear(): void {
      storage.removeItem(SESSION_STORAGE_KEY);
    },
  };
}

export type SessionStorage = ReturnType<typeof createSessionStorage>;
