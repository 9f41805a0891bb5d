// Where the focus goes when a dialog closes. PrimeReact's Dialog gives it back to what had it when
// the dialog opened, but a dialog opened from a popup menu's item (a row's "Actions for …") opened
// while that item had the focus, and the menu is gone by the time the dialog closes: the focus
// fell to <body>, and a keyboard user had to start again from the top of the page. This watches
// the document once (installed by the app entry): it remembers the last element focused outside
// dialogs and popup menus, and when a dialog leaves with the focus on nothing, it goes back there.

/** Where focus may rest between dialogs: not inside a dialog, not inside a popup menu or overlay. */
const TRANSIENT = '[role="dialog"], [role="alertdialog"], .p-dialog-mask, .p-menu-overlay, .p-connected-overlay-enter-done, .p-overlaypanel';

export function installFocusReturn(doc: Document = document): () => void {
  let resting: HTMLElement | null = null;
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (target instanceof HTMLElement && !target.closest(TRANSIENT)) resting = target;
  };
  const isDialog = (node: Node) => node instanceof HTMLElement && (node.matches('.p-dialog-mask') || node.querySelector('.p-dialog-mask') !== null);
  const observer = new MutationObserver((records) => {
    const closed = records.some((record) => Array.from(record.removedNodes).some(isDialog));
    if (!closed) return;
    const active = doc.activeElement;
    if ((active === null || active === doc.body) && resting?.isConnected) resting.focus();
  });
  doc.addEventListener('focusin', onFocusIn, true);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', onFocusIn, true);
    observer.disconnect();
  };
}
