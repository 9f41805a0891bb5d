import { useEffect } from 'react';
import { Toaster, toast, useToasterStore } from 'react-hot-toast';

/** Spec section 9: at most 3 toasts visible, 4 seconds each. */
export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 4000;

/** The app's single toast outlet, top right. Beyond 3 visible toasts the oldest are dismissed. */
export function ToastArea() {
  const { toasts } = useToasterStore();

  useEffect(() => {
    // The store keeps the newest first, so everything past the limit is older.
    toasts
      .filter((t) => t.visible)
      .slice(TOAST_LIMIT)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);

  return (
    <Toaster
      position="top-right"
      // A loading toast stays until it is resolved; every other kind lasts 4 s unless the caller says otherwise.
      toastOptions={{ duration: TOAST_DURATION_MS, loading: { duration: Infinity } }}
    />
  );
}
