import { ProgressSpinner } from 'primereact/progressspinner';

export interface FullPageSpinnerProps {
  label?: string;
}

/** Shown while the session is being checked, before any screen can be chosen. */
export function FullPageSpinner({ label = 'Checking your session...' }: FullPageSpinnerProps) {
  return (
    <div className="full-page-spinner" role="status" aria-live="polite">
      <ProgressSpinner style={{ width: '3rem', height: '3rem' }} strokeWidth="4" aria-hidden="true" />
      <p>{label}</p>
    </div>
  );
}
