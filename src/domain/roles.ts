// The roles page's reading of permissions: an area's level in a role (none, read or manage), a
// role's levels as the form edits them and back, and which levels a user may hand out (those they
// hold: the server refuses the others as an escalation).
import { AREAS, READ_ONLY_AREAS, ROLE_LIMITS, ROLE_MESSAGES, allows, type Area, type Permission } from './permissions';

export type AreaLevel = 'none' | 'read' | 'manage';
export const AREA_LEVELS: readonly AreaLevel[] = ['none', 'read', 'manage'];
export const AREA_LEVEL_LABELS: Record<AreaLevel, string> = { none: 'None', read: 'Read', manage: 'Manage' };

export type RoleLevels = Record<Area, AreaLevel>;

/** What a set of permissions gives on one area: manage includes read. */
export function levelIn(permissions: readonly Permission[], area: Area): AreaLevel {
  if (permissions.includes(`${area}:manage` as Permission)) return 'manage';
  return permissions.includes(`${area}:read` as Permission) ? 'read' : 'none';
}

export const levelsOf = (permissions: readonly Permission[]): RoleLevels =>
  Object.fromEntries(AREAS.map((area) => [area, levelIn(permissions, area)])) as RoleLevels;

export const NO_LEVELS: RoleLevels = levelsOf([]);

/** The permissions a role's levels name: one per area it reaches (manage stands for read too). */
export const permissionsOfLevels = (levels: RoleLevels): Permission[] =>
  AREAS.flatMap((area) => (levels[area] === 'none' ? [] : [`${area}:${levels[area]}` as Permission]));

/** Whether a user holding `held` may give a role `level` on `area`: none always; else what they hold (audit has no manage). */
export function mayGrant(held: readonly Permission[], area: Area, level: AreaLevel): boolean {
  if (level === 'none') return true;
  if (level === 'manage' && READ_ONLY_AREAS.includes(area)) return false;
  return allows(held, `${area}:${level}` as Permission);
}

export type RoleFormField = 'name' | 'description' | 'permissions';

export interface RoleFormValues {
  name: string;
  description: string;
  levels: RoleLevels;
}

/** The form's problems, each the server's own words for it. */
export function validateRoleForm(form: RoleFormValues): Partial<Record<RoleFormField, string>> {
  const errors: Partial<Record<RoleFormField, string>> = {};
  const name = form.name.trim();
  if (!name) errors.name = ROLE_MESSAGES.nameRequired;
  else if (name.length > ROLE_LIMITS.name) errors.name = ROLE_MESSAGES.nameTooLong;
  if (form.description.trim().length > ROLE_LIMITS.description) errors.description = ROLE_MESSAGES.descriptionTooLong;
  if (permissionsOfLevels(form.levels).length === 0) errors.permissions = ROLE_MESSAGES.permissionsRequired;
  return errors;
}
