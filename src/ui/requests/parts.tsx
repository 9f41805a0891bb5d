// Pieces both requests pages show: the status tag and what a request asks for.
import { Tag } from 'primereact/tag';
import { REQUEST_KIND_LABELS, REQUEST_STATUS_LABELS, describeAsked, type CustomerRequestWire, type RequestStatus } from '../../domain/requests';

const SEVERITY: Record<RequestStatus, 'warning' | 'success' | 'danger' | 'info'> = { pending: 'warning', approved: 'success', declined: 'danger', cancelled: 'info' };

export function RequestStatusTag({ status }: { status: RequestStatus }) {
  return <Tag value={REQUEST_STATUS_LABELS[status]} severity={SEVERITY[status]} />;
}

export function AskedCell({ request }: { request: CustomerRequestWire }) {
  return (
    <span>
      <strong>{REQUEST_KIND_LABELS[request.kind]}</strong>: {describeAsked(request)}
      {request.note && <span className="request-note"> — “{request.note}”</span>}
    </span>
  );
}

export function LineCell({ request }: { request: Pick<CustomerRequestWire, 'serviceLineNumber' | 'terminalNickname'> }) {
  return (
    <span>
      {request.serviceLineNumber}
      {request.terminalNickname && <span className="request-nickname"> ({request.terminalNickname})</span>}
    </span>
  );
}

export const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) : '—');
