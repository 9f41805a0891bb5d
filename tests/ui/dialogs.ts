// Waiting for a PrimeReact dialog to have finished opening.
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * The dialog called `name`, once it has finished entering. At the end of its enter transition a
 * PrimeReact Dialog moves focus to its own close button unless focus is already inside it. A test
 * that opens a second dialog over it before then (Terminal Details → Settings → Rename) has that
 * focus taken from the field it is typing in, and the next space it types clicks the close button
 * of the dialog underneath. A person is never that fast; a test is, on a busy CI core. The
 * transition marks the end with `p-dialog-enter-done`, set just before that focus moves.
 */
export async function enteredDialog(name: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', { name });
  await waitFor(() => expect(dialog.classList.contains('p-dialog-enter-done')).toBe(true));
  return dialog;
}
