// One audit entry's before and after, side by side: a row per field, the changed ones marked in
// words (for screen readers) and by colour, then where the request came from.
import { auditDiff, auditValueText, type AuditEntryWire } from '../../domain/audit';

export const AUDIT_CHANGES_TEXTS = {
  title: (id: string) => `Before and after of entry ${id}`,
  field: 'Field',
  before: 'Before',
  after: 'After',
  changed: 'changed',
  absent: 'not recorded',
  nothing: 'Nothing was recorded before or after this action.',
} as const;
const T = AUDIT_CHANGES_TEXTS;

function Value({ present, value }: { present: boolean; value: unknown }) {
  if (!present) return <span className="audit-absent">{T.absent}</span>;
  return <code className="audit-value">{auditValueText(value)}</code>;
}

export function AuditChanges({ entry }: { entry: AuditEntryWire }) {
  const changes = auditDiff(entry.before, entry.after);
  return (
    <div className="audit-changes">
      {changes.length === 0 ? (
        <p>{T.nothing}</p>
      ) : (
        <table className="audit-changes-table" aria-label={T.title(entry.id)}>
          <thead>
            <tr>
              <th scope="col">{T.field}</th>
              <th scope="col">{T.before}</th>
              <th scope="col">{T.after}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.field} className={change.changed ? 'audit-changed' : undefined}>
                <th scope="row">
                  {change.field}
                  {change.changed && <span className="audit-changed-mark"> ({T.changed})</span>}
                </th>
                <td>
                  <Value present={'before' in change} value={change.before} />
                </td>
                <td>
                  <Value present={'after' in change} value={change.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(entry.ip || entry.requestId) && (
        <p className="audit-source">
          {entry.ip && <span>IP {entry.ip}</span>}
          {entry.requestId && <span>Request {entry.requestId}</span>}
        </p>
      )}
    </div>
  );
}
