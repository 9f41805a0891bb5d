// Users → Roles (/users/roles): the permissions matrix, areas down and roles across, each cell the
// role's level on the area (manage, read or nothing); built-in roles first, then the custom ones,
// which a user manager may edit or delete. Renders props, calls callbacks.
import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { AREAS, AREA_HELP, AREA_LABELS, type RoleWire } from '../../domain/permissions';
import { PAGE_TITLES } from '../../domain/navigation';
import { AREA_LEVEL_LABELS, levelIn } from '../../domain/roles';
import { ErrorCard } from '../common/ErrorCard';
import { PageHeader } from '../common/PageHeader';
import { ROLES_TEXTS as T } from './parts';
import './roles.css';

export interface RolesViewProps {
  /** The roles as last loaded; null before the first answer. */
  roles: readonly RoleWire[] | null;
  loading: boolean;
  /** The load failed: the error card replaces the matrix. */
  error: string | null;
  /** New role, Edit and Delete are offered (users:manage). */
  canManage: boolean;
  /** A change is under way: the buttons wait. */
  busy: boolean;
  onRetry(): void;
  onNewRole(): void;
  onEdit(role: RoleWire): void;
  onDelete(role: RoleWire): void;
  onNavigate(url: string): void;
}

const LEVEL_CLASS = { none: 'role-level-none', read: 'role-level-read', manage: 'role-level-manage' } as const;

function RoleHeader({ role, canManage, busy, onEdit, onDelete }: { role: RoleWire } & Pick<RolesViewProps, 'canManage' | 'busy' | 'onEdit' | 'onDelete'>) {
  return (
    <th scope="col" className="role-column">
      <span className="role-name">{role.name}</span>
      <span className="role-meta">
        <Tag value={role.builtIn ? T.builtIn : T.custom} severity={role.builtIn ? 'secondary' : 'info'} rounded />
        <small>{T.holders(role.userCount)}</small>
      </span>
      {role.description && <small className="role-description">{role.description}</small>}
      {canManage && !role.builtIn && (
        <span className="role-actions">
          <Button type="button" icon="pi pi-pencil" text rounded size="small" aria-label={`${T.edit} ${role.name}`} disabled={busy} onClick={() => onEdit(role)} />
          <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" aria-label={`${T.delete} ${role.name}`} disabled={busy} onClick={() => onDelete(role)} />
        </span>
      )}
    </th>
  );
}

export function RolesView(props: RolesViewProps) {
  const meta = PAGE_TITLES['/users/roles'];
  const roles = props.roles ?? [];
  // Built-in roles in the code's order, then the custom ones by name.
  const ordered = [...roles.filter((r) => r.builtIn), ...roles.filter((r) => !r.builtIn).sort((a, b) => a.name.localeCompare(b.name))];
  return (
    <div className="page roles-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={T.subtitle}
        actions={props.canManage ? <Button type="button" label={T.newRole} icon="pi pi-plus" disabled={props.busy || props.roles === null} onClick={props.onNewRole} /> : undefined}
        onNavigate={props.onNavigate}
      />
      <p className="text-muted">{props.canManage ? T.builtInNote : T.readOnlyNote}</p>
      {props.error ? (
        <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} retryDisabled={props.loading} />
      ) : props.roles === null ? (
        <p role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {T.loading}
        </p>
      ) : (
        <section className="list-card roles-matrix-card" aria-label={T.matrixLabel}>
          {/* A scrolling region is reached by keyboard too: it takes focus, and says what it holds. */}
          <div className="roles-matrix-scroll" tabIndex={0} role="region" aria-label={T.matrixLabel}>
            <table className="roles-matrix" aria-label={T.matrixLabel}>
              <thead>
                <tr>
                  <th scope="col" className="role-area-column">
                    {T.areaHeader}
                  </th>
                  {ordered.map((role) => (
                    <RoleHeader key={role.id} role={role} canManage={props.canManage} busy={props.busy} onEdit={props.onEdit} onDelete={props.onDelete} />
                  ))}
                </tr>
              </thead>
              <tbody>
                {AREAS.map((area) => (
                  <tr key={area}>
                    <th scope="row" className="role-area-column">
                      <span className="role-name">{AREA_LABELS[area]}</span>
                      <small className="role-description">{AREA_HELP[area]}</small>
                    </th>
                    {ordered.map((role) => {
                      const level = levelIn(role.permissions, area);
                      return (
                        <td key={role.id} className={LEVEL_CLASS[level]}>
                          {level === 'none' ? (
                            <>
                              <span aria-hidden="true">—</span>
                              <span className="sr-only">{AREA_LEVEL_LABELS.none}</span>
                            </>
                          ) : (
                            AREA_LEVEL_LABELS[level]
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
