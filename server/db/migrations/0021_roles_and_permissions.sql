-- Team roles. A role is a named set of permissions (area:read or area:manage); a portal user
-- holds one or more. The eleven built-in roles are rows with a key, and their permissions come
-- from the code (src/domain/permissions.ts), so that a release can refine them; custom roles keep
-- theirs here. users.role stays as the Owner badge the users list shows ('admin' = holds Owner),
-- kept by the roles service in the same transaction as the roles themselves.
CREATE TABLE roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key text UNIQUE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_name_uq ON roles (lower(name));

CREATE TABLE user_roles (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_roles_role_idx ON user_roles (role_id);

INSERT INTO roles (key, name, description) VALUES
  ('owner', 'Owner', 'Everything, including users, roles and API keys'),
  ('admin', 'Admin', 'Runs the business: every area except users and the audit log'),
  ('admin_read_only', 'Admin (read-only)', 'Reads every area except users and the audit log'),
  ('billing', 'Billing', 'Statements, prices and data plans'),
  ('billing_read_only', 'Billing (read-only)', 'Reads statements, prices and data plans'),
  ('technical', 'Technical', 'The network operations centre: terminals, lines, lifecycle and alerts'),
  ('technical_read_only', 'Technical (read-only)', 'Watches terminals, lines and alerts'),
  ('support', 'Support', 'Reads what customers ask about; refreshes and reports terminals'),
  ('support_read_only', 'Support (read-only)', 'Reads what customers ask about'),
  ('user_management', 'User Management', 'Portal users, roles and API keys; reads the audit log'),
  ('user_management_read_only', 'User Management (read-only)', 'Reads portal users, roles, API keys and the audit log');

-- Nobody's reach grows on upgrade: the admin role becomes Owner (everything it could do), the
-- user role the read-only Admin (everything it could read).
INSERT INTO user_roles (user_id, role_id)
SELECT u.id, r.id FROM users u JOIN roles r ON r.key = CASE u.role WHEN 'admin' THEN 'owner' ELSE 'admin_read_only' END;

-- A customer organisation's members and the reseller's API keys act under their own names.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check
  CHECK (actor_type IN ('user', 'customer', 'member', 'api_key', 'system', 'anonymous'));
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_id_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_id_check
  CHECK ((actor_type IN ('user', 'customer', 'member', 'api_key')) = (actor_id IS NOT NULL));
