// A dialog opened from a popup menu's item gives the focus back to the menu's button when it
// closes (the item is gone by then); a dialog that put the focus back itself is left alone.
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { installFocusReturn } from '../../src/ui/common/focus-return';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

function element(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const node = holder.firstElementChild as HTMLElement;
  document.body.appendChild(node);
  return node;
}

describe('focus after a dialog closes', () => {
  it('goes back to the popup menu’s button when the item that opened the dialog is gone', async () => {
    uninstall = installFocusReturn();
    const trigger = element('<button type="button" aria-haspopup="menu">Actions for Ana</button>');
    trigger.focus();
    const menu = element('<div class="p-menu p-menu-overlay"><a href="#" role="menuitem">Edit Customer</a></div>');
    (menu.querySelector('a') as HTMLElement).focus();
    const dialog = element('<div class="p-dialog-mask"><div role="dialog"><input aria-label="Name" /></div></div>');
    menu.remove();
    (dialog.querySelector('input') as HTMLElement).focus();
    dialog.remove();
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('leaves the focus where the dialog put it, and does nothing once uninstalled', async () => {
    uninstall = installFocusReturn();
    const first = element('<button type="button">Add Customer</button>');
    const other = element('<button type="button">Other</button>');
    first.focus();
    const dialog = element('<div class="p-dialog-mask"><div role="dialog"><input aria-label="Name" /></div></div>');
    (dialog.querySelector('input') as HTMLElement).focus();
    other.focus();
    dialog.remove();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(other);

    uninstall();
    uninstall = null;
    first.focus();
    const again = element('<div class="p-dialog-mask"><div role="dialog"><input aria-label="Name" /></div></div>');
    (again.querySelector('input') as HTMLElement).focus();
    again.remove();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).not.toBe(first);
  });
});
