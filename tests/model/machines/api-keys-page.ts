// The /users/api-keys page as the API keys model opens it, signed in as an Owner: the fake API
// lists one active key and one revoked; the machine's own actors (roles, create, revoke, clipboard)
// are answered by the path.
import { screen, within } from '@testing-library/react';
import type { ApiKeyWire } from '../../../src/domain/api-keys';
import { API_KEY_TEXTS as T } from '../../../src/ui/api-keys/parts';
import type { ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';

const envelope = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

/** Opens the page listing `keys`; returns once the table shows. */
export async function openApiKeysPage(seam: ModelSeam, keys: readonly ApiKeyWire[]): Promise<PageScreen> {
  const page = openPage('/users/api-keys', seam, { 'GET /api/v1/api-keys': envelope(keys) });
  await screen.findByRole('table', { name: T.pageTitle }, { timeout: 5000 });
  return page;
}

export const keysTable = () => within(screen.getByRole('table', { name: T.pageTitle }));
/** A row's Revoke button: "Revoke: ERP integration". */
export const revokeButton = (key: ApiKeyWire) => keysTable().getByRole('button', { name: `${T.revoke}: ${key.name}` }) as HTMLButtonElement;
