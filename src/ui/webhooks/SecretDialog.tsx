// A new endpoint's secret, or a rotated one, shown this once (the shared shown-once dialog, with
// what was done and the endpoint's address above it). Renders props and calls callbacks.
import { ShownOnceSecretDialog, type CopyState, type ShownOnceSecretTexts } from '../common/ShownOnceSecretDialog';
import { WEBHOOK_TEXTS as T } from './parts';

export type { CopyState };

const TEXTS: ShownOnceSecretTexts = {
  title: T.secretTitle,
  label: 'Signing secret',
  once: T.secretOnce,
  copy: T.copy,
  copied: T.copied,
  copyFailed: T.copyFailed,
};

export interface SecretDialogProps {
  visible: boolean;
  /** What was done ("Webhook endpoint added…", "New secret made…"). */
  notice: string;
  url: string | null;
  secret: string;
  copy: CopyState;
  onCopy(): void;
  onClose(): void;
}

export function SecretDialog({ notice, url, ...rest }: SecretDialogProps) {
  return (
    <ShownOnceSecretDialog texts={TEXTS} {...rest}>
      <p>{notice}</p>
      {url && <p className="cell-mono">{url}</p>}
    </ShownOnceSecretDialog>
  );
}
