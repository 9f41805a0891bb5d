// The banner over every page of the admin "View as customer" preview: whose area this is, that it
// is read-only, and the way out.
import { Button } from 'primereact/button';

export interface PreviewBannerProps {
  customer: { name: string; company: string; email: string } | null;
  onExit(): void;
}

export const PREVIEW_TEXTS = {
  title: (name: string) => `Viewing as ${name}`,
  readOnly: 'A read-only preview of what this customer sees when they sign in. Nothing can be changed here.',
  exit: 'Exit preview',
} as const;

export function PreviewBanner({ customer, onExit }: PreviewBannerProps) {
  const who = customer ? customer.name || customer.email : 'the customer';
  return (
    <section className="preview-banner" role="region" aria-label="Customer preview">
      <i className="pi pi-eye preview-banner-icon" aria-hidden="true" />
      <div className="preview-banner-text">
        <strong>{PREVIEW_TEXTS.title(who)}</strong>
        {customer?.company && <span className="text-muted"> · {customer.company}</span>}
        <p>{PREVIEW_TEXTS.readOnly}</p>
      </div>
      <Button type="button" label={PREVIEW_TEXTS.exit} icon="pi pi-times" outlined size="small" onClick={onExit} />
    </section>
  );
}
