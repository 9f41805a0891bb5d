// Roles on the wire: the roles list, a custom role's form, and its id.
import { z } from 'zod';
import { BUILT_IN_ROLE_KEYS, ROLE_MESSAGES, type RoleInput, type RoleWire } from '../../src/domain/permissions';
import { exact, inputText, isoDate, permissionSchema, type Exact } from './schemas';

export const roleWireSchema = z.object({
  id: z.uuid(),
  key: z.enum(BUILT_IN_ROLE_KEYS).nullable(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(permissionSchema),
  builtIn: z.boolean(),
  userCount: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

/**
 * A custom role's form. Names and permissions are checked by the service, so that one answer
 * lists every field's problem in the form's words; here only the shape.
 */
export const roleBodySchema = z
  .object({
    name: inputText(),
    description: inputText().optional(),
    permissions: z.array(z.string().max(40), { error: ROLE_MESSAGES.permissionsRequired }).max(64),
  })
  .strict();

export const roleParamsSchema = z.object({ id: z.guid({ error: ROLE_MESSAGES.notFound }) });

exact<Exact<z.output<typeof roleWireSchema>, RoleWire>>();
export type RoleBody = z.output<typeof roleBodySchema>;
export type { RoleInput };
