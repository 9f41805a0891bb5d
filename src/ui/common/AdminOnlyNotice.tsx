import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { ACCOUNT_MESSAGES } from '../../domain/auth';

export interface AdminOnlyNoticeProps {
  /** When given, a "Log out" button lets a signed-in customer leave. */
  onLogout?: () => void;
}

/** What a signed-in customer sees: the portal is for administrators. */
export function AdminOnlyNotice({ onLogout }: AdminOnlyNoticeProps) {
  return (
    <div className="centered-page">
      <Card className="notice-card">
        <div className="notice-body">
          <i className="pi pi-lock notice-icon" aria-hidden="true" />
          <h1 className="notice-title">Administrators only</h1>
          <p>{ACCOUNT_MESSAGES.adminsOnly}</p>
          <p className="text-muted">Customer self-service is planned for a later release.</p>
          {onLogout && <Button type="button" label="Log out" icon="pi pi-sign-out" outlined onClick={onLogout} />}
        </div>
      </Card>
    </div>
  );
}
