// The red card for a failed load or call, with Try Again when there is something to try again.
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';

export interface ErrorCardProps {
  title: string;
  message: string;
  onRetry?: () => void;
  retryDisabled?: boolean;
  /** The heading's level where the card sits (a page section: h2; inside a panel: h3). */
  headingLevel?: 2 | 3;
}

export function ErrorCard({ title, message, onRetry, retryDisabled = false, headingLevel = 2 }: ErrorCardProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <Card className="error-card" role="alert">
      <div className="error-card-body">
        <i className="pi pi-exclamation-triangle error-card-icon" aria-hidden="true" />
        <div className="error-card-text">
          <Heading className="error-card-title">{title}</Heading>
          <p>{message}</p>
        </div>
        {onRetry && (
          <Button
            type="button"
            label="Try Again"
            icon="pi pi-refresh"
            outlined
            severity="danger"
            disabled={retryDisabled}
            onClick={onRetry}
          />
        )}
      </div>
    </Card>
  );
}
