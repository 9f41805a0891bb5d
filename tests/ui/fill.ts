// Entering a value into a field in one go, for tests where what a field holds matters and the
// keystrokes that put it there do not.
import type { UserEvent } from '@testing-library/user-event';

/**
 * Focuses `field` by clicking it, as `user.type` does, and pastes `text` at the caret (the end of
 * what the field already holds): one input event instead of one per character. A page that keeps
 * a dialog's form in its own state renders again on every input event, table and all, so typing
 * a 20-character email into such a dialog cost about as much as 20 page renders (80 ms each under
 * StrictMode in the customers page). Tests whose behaviour is the keystrokes (a search that waits
 * for the typing to pause, a code field that filters what is typed) still type.
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
