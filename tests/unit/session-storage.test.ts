import { describe, expect, it } from 'vitest';
import { parsePersistedSession, serialisePersistedSession, SESSION_STORAGE_KEY, LEGACY_SESSION_KEYS } from '../../src/domain/session';
import { createSessionStorage } from '../../src/api/session-storage';
import { adminProfile } from '../machines/fixtures';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const session = { token: 'abc', profile: adminProfile, userType: 'admin' as const, isAuthenticated: true };

describe('persisted session', () => {
  it('round-trips through its stored form', () => {
    expect(parsePersistedSession(serialisePersistedSession(session))).toEqual(session);
  });

  it('reads the flat shape too', () => {
    expect(parsePersistedSession(JSON.stringify(session))).toEqual(session);
  });

  it.each([
    ['nothing', null],
    ['not JSON', '{oops'],
    ['no token', JSON.stringify({ ...session, token: '' })],
    ['unknown user type', JSON.stringify({ ...session, userType: 'sales' })],
    ['profile without uuid', JSON.stringify({ ...session, profile: { email: 'x@y.z' } })],
    ['an array', '[]'],
  ])('treats %s as signed out', (_name, raw) => {
    expect(parsePersistedSession(raw)).toBeNull();
  });

  it('removes legacy customer entries at start and drops a malformed stored session', () => {
    const storage = new MemoryStorage();
    for (const key of LEGACY_SESSION_KEYS) storage.setItem(key, 'old');
    storage.setItem(SESSION_STORAGE_KEY, '{broken');
    expect(createSessionStorage(storage).restore()).toBeNull();
    expect(storage.length).toBe(0);
  });

  it('saves under auth-storage-admin and clears it', () => {
    const storage = new MemoryStorage();
    const store = createSessionStorage(storage);
    store.save(session);
    expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!).state).toEqual(session);
    expect(store.restore()).toEqual(session);
    store.clear();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});
