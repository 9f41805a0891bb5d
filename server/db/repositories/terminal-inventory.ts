// Every write of the terminal inventory the sync keeps: products, addresses, service lines,
// terminals, their latest telemetry, and billing-cycle usage. (Reading the inventory for the
// portal's pages is the terminals repository's job.)
//
// Bulk writes send each column as one array parameter and turn them back into rows with
// `unnest` (STACK-FACTS: about 0.3 s for 100,000 rows, against seconds for multi-row VALUES, and
// no 65,535-parameter limit). Values travel as text and are cast in SQL, which PGlite and
// node-postgres serialise the same way.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TerminalCondition } from '../../../src/domain/terminals';
import type { Db } from '../client';
import { providerAddresses, providerProducts, serviceLines, terminals, type TerminalRow } from '../schema';
import { affected, rowsOf } from './results';
import { column } from './values';

export interface ProductUpsert {
  productReferenceId: string;
  accountId: number;
  accountNumber: string;
  name: string;
  price: number | null;
  isoCurrencyCode: string | null;
  isSla: boolean;
  raw: unknown;
}

export interface AddressUpsert {
  addressReferenceId: string;
  accountId: number;
  accountNumber: string;
  formattedAddress: string | null;
  locality: string | null;
  region: string | null;
  regionCode: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** An address as stored: the fields of the provider's record a terminal's location comes from. */
export type StoredAddress = Pick<AddressUpsert, 'addressReferenceId' | 'formattedAddress' | 'locality' | 'region' | 'regionCode' | 'latitude' | 'longitude'>;

export interface ServiceLineUpsert {
  serviceLineNumber: string;
  accountId: number;
  accountNumber: string;
  nickname: string | null;
  productReferenceId: string | null;
  addressReferenceId: string | null;
  active: boolean;
  startDate: string | null;
  endDate: string | null;
  publicIp: boolean | null;
  dataBlocks: unknown;
}

/** A terminal as the sync writes it: the provider's fields, denormalised for the list pages. */
export interface TerminalUpsert {
  userTerminalId: string;
  accountNumber: string;
  kitSerialNumber: string;
  dishSerialNumber: string | null;
  serviceLineNumber: string | null;
  nickname: string | null;
  active: boolean;
  condition: TerminalCondition;
  isPriority: boolean;
  /** Null keeps the stored cap (the usage sync sets it for plans without recurring blocks). */
  dataCapAmount: number | null;
  dataCapUnit: string | null;
  plan: string | null;
  productReferenceId: string | null;
  terminalType: string | null;
  model: string | null;
  location: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
  contentHash: string;
}

/** A terminal the provider lists but whose record could not be applied: its ids and why. */
export interface TerminalFailure {
  userTerminalId: string;
  accountNumber: string;
  kitSerialNumber: string;
  dishSerialNumber: string | null;
  serviceLineNumber: string | null;
  nickname: string | null;
  error: string;
}

export interface TelemetryUpsert {
  userTerminalId: string;
  reportedAt: string | null;
  uptimeSeconds: number | null;
  /** 0–1, as the provider sends it. */
  signalQuality: number | null;
  downlinkMbps: number | null;
  uplinkMbps: number | null;
  latencyMs: number | null;
  pingDropRate: number | null;
  obstructionPercent: number | null;
  softwareVersion: string | null;
  hardwareVersion: string | null;
  alerts: string[];
}

export interface UsageCycleUpsert {
  serviceLineNumber: string;
  cycleStart: string;
  cycleEnd: string;
  priorityGb: number;
  standardGb: number;
  optInPriorityGb: number;
  nonBillableGb: number;
  usageLimitGb: number | null;
  overageGb: number | null;
  productId: string | null;
  lastUpdated: string | null;
}

export interface UsageDailyUpsert {
  serviceLineNumber: string;
  usageDate: string;
  priorityGb: number;
  standardGb: number;
  optInPriorityGb: number;
  nonBillableGb: number;
}

/** Where a run stands with a stored terminal, before its batch is written. */
export interface StoredTerminalState {
  contentHash: string | null;
  removed: boolean;
  /** The provider account that holds it: another account's terminal is never overwritten. */
  accountId: number;
}

/** Who writes: the run (its rows are "seen" by it) and the time that counts as the sync's. */
export interface SyncStamp {
  /** Null for a single-terminal refresh: the row keeps the run that last wrote it. */
  runId: string | null;
  at: Date;
  /** The provider account the rows come from. */
  accountId: number;
}

/** One text[] parameter holding a column of the batch. */
const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export type TerminalInventoryRepository = ReturnType<typeof createTerminalInventoryRepository>;

export function createTerminalInventoryRepository(db: Db) {
  /**
   * Marks removed what this sync of the account did not write: every row it wrote (or a refresh
   * wrote since) has a later `synced_at`. Other accounts' rows are theirs to mark.
   */
  const markUnseen = async (table: 'provider_products' | 'provider_addresses' | 'service_lines', at: Date, accountId: number, tx: Db) =>
    affected(
      await tx.execute(sql`
        UPDATE ${sql.identifier(table)} SET removed_at = ${at.toISOString()}::timestamptz
        WHERE removed_at IS NULL AND account_id = ${accountId} AND synced_at < ${at.toISOString()}::timestamptz`),
    );
  // A record another account already holds under the same id is kept apart: the conflict updates
  // only a row of the writing account, never merges one account's record into another's.

  return {
    async upsertProducts(rows: readonly ProductUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO provider_products (product_reference_id, account_id, account_number, name, price, iso_currency_code, is_sla, raw, synced_at, removed_at)
        SELECT u.id, u.account_id::integer, u.account, u.name, u.price::numeric, u.currency, u.is_sla::boolean, u.raw::jsonb, ${at.toISOString()}::timestamptz, NULL
        FROM unnest(${column(rows, (r) => r.productReferenceId)}::text[], ${column(rows, (r) => r.accountId)}::text[], ${column(rows, (r) => r.accountNumber)}::text[],
                    ${column(rows, (r) => r.name)}::text[], ${column(rows, (r) => r.price)}::text[],
                    ${column(rows, (r) => r.isoCurrencyCode)}::text[], ${column(rows, (r) => r.isSla)}::text[],
                    ${column(rows, (r) => json(r.raw))}::text[])
          AS u(id, account_id, account, name, price, currency, is_sla, raw)
        ON CONFLICT (account_id, product_reference_id) DO UPDATE SET
          account_number = EXCLUDED.account_number, name = EXCLUDED.name, price = EXCLUDED.price,
          iso_currency_code = EXCLUDED.iso_currency_code, is_sla = EXCLUDED.is_sla, raw = EXCLUDED.raw,
          synced_at = EXCLUDED.synced_at, removed_at = NULL`);
    },

    markProductsRemoved: (at: Date, accountId: number, tx: Db = db) => markUnseen('provider_products', at, accountId, tx),

    async upsertAddresses(rows: readonly AddressUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO provider_addresses (address_reference_id, account_id, account_number, formatted_address, locality, region, region_code,
                                        latitude, longitude, synced_at, removed_at)
        SELECT u.id, u.account_id::integer, u.account, u.formatted, u.locality, u.region, u.region_code, u.lat::double precision, u.lon::double precision,
               ${at.toISOString()}::timestamptz, NULL
        FROM unnest(${column(rows, (r) => r.addressReferenceId)}::text[], ${column(rows, (r) => r.accountId)}::text[], ${column(rows, (r) => r.accountNumber)}::text[],
                    ${column(rows, (r) => r.formattedAddress)}::text[], ${column(rows, (r) => r.locality)}::text[],
                    ${column(rows, (r) => r.region)}::text[], ${column(rows, (r) => r.regionCode)}::text[],
                    ${column(rows, (r) => r.latitude)}::text[], ${column(rows, (r) => r.longitude)}::text[])
          AS u(id, account_id, account, formatted, locality, region, region_code, lat, lon)
        ON CONFLICT (address_reference_id) DO UPDATE SET
          account_number = EXCLUDED.account_number, formatted_address = EXCLUDED.formatted_address, locality = EXCLUDED.locality,
          region = EXCLUDED.region, region_code = EXCLUDED.region_code, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
          synced_at = EXCLUDED.synced_at, removed_at = NULL
        WHERE provider_addresses.account_id = EXCLUDED.account_id`);
    },

    markAddressesRemoved: (at: Date, accountId: number, tx: Db = db) => markUnseen('provider_addresses', at, accountId, tx),

    async upsertServiceLines(rows: readonly ServiceLineUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO service_lines (service_line_number, account_id, account_number, nickname, product_reference_id, address_reference_id, active,
                                   start_date, end_date, public_ip, data_blocks, synced_at, removed_at)
        SELECT u.id, u.account_id::integer, u.account, u.nickname, u.product, u.address, u.active::boolean, u.start_date::timestamptz, u.end_date::timestamptz,
               u.public_ip::boolean, u.blocks::jsonb, ${at.toISOString()}::timestamptz, NULL
        FROM unnest(${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.accountId)}::text[], ${column(rows, (r) => r.accountNumber)}::text[],
                    ${column(rows, (r) => r.nickname)}::text[], ${column(rows, (r) => r.productReferenceId)}::text[],
                    ${column(rows, (r) => r.addressReferenceId)}::text[], ${column(rows, (r) => r.active)}::text[],
                    ${column(rows, (r) => r.startDate)}::text[], ${column(rows, (r) => r.endDate)}::text[],
                    ${column(rows, (r) => r.publicIp)}::text[], ${column(rows, (r) => json(r.dataBlocks))}::text[])
          AS u(id, account_id, account, nickname, product, address, active, start_date, end_date, public_ip, blocks)
        ON CONFLICT (service_line_number) DO UPDATE SET
          account_number = EXCLUDED.account_number, nickname = EXCLUDED.nickname, product_reference_id = EXCLUDED.product_reference_id,
          address_reference_id = EXCLUDED.address_reference_id, active = EXCLUDED.active, start_date = EXCLUDED.start_date,
          end_date = EXCLUDED.end_date, public_ip = EXCLUDED.public_ip, data_blocks = EXCLUDED.data_blocks,
          synced_at = EXCLUDED.synced_at, removed_at = NULL
        WHERE service_lines.account_id = EXCLUDED.account_id`);
    },

    markServiceLinesRemoved: (at: Date, accountId: number, tx: Db = db) => markUnseen('service_lines', at, accountId, tx),

    /**
     * The start of an apply, once everything is fetched: the live terminals this run will change
     * are 'pending' until their batch is written, so a crash halfway leaves them 'pending', never
     * falsely 'synced'. Those are the rows whose stored hash differs from the fetched one (a record
     * that cannot be applied has no hash: it differs), the rows not fetched (to be removed) and
     * rows not 'synced' now. Unchanged 'synced' rows keep 'synced': their data is the provider's.
     * One statement; new terminals are inserted by their batch directly.
     */
    async markChangedPending(fetched: readonly { userTerminalId: string; contentHash: string | null }[], accountId: number, tx: Db = db): Promise<number> {
      return affected(
        await tx.execute(sql`
          UPDATE terminals t SET sync_status = 'pending'
          WHERE t.removed_at IS NULL AND t.account_id = ${accountId} AND t.sync_status <> 'pending'
            -- A top-level NOT EXISTS, so the planner makes it one hash anti-join (under a NOT (... AND
            -- EXISTS) it ran the subquery for each row: minutes at 100,000).
            AND NOT EXISTS (
              SELECT 1 FROM unnest(${column(fetched, (r) => r.userTerminalId)}::text[], ${column(fetched, (r) => r.contentHash)}::text[]) AS u(id, hash)
              WHERE u.id = t.user_terminal_id AND u.hash = t.content_hash AND t.sync_status = 'synced')`),
      );
    },

    /**
     * The end of an apply: the unchanged terminals (listed with the hash they were found with)
     * get the run's bookkeeping in one statement, and 'synced' (a row a crashed run left
     * 'pending' whose data is the provider's anyway). A row a refresh rewrote since keeps its own.
     */
    async touchUnchanged(rows: readonly { userTerminalId: string; contentHash: string }[], stamp: { runId: string; at: Date }, tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      return affected(
        await tx.execute(sql`
          UPDATE terminals t SET sync_status = 'synced', sync_error = NULL, last_synced_at = ${stamp.at.toISOString()}::timestamptz,
                 last_sync_run_id = ${stamp.runId}::uuid
          FROM unnest(${column(rows, (r) => r.userTerminalId)}::text[], ${column(rows, (r) => r.contentHash)}::text[]) AS u(id, hash)
          WHERE t.user_terminal_id = u.id AND t.content_hash = u.hash AND t.removed_at IS NULL`),
      );
    },

    /**
     * Merges the trigram index's pending list (fastupdate, 0004) into the index, so searches do
     * not scan a long list: PGlite has no autovacuum to do it. Cheap when the list is empty.
     */
    async flushSearchIndex(tx: Db = db): Promise<void> {
      await tx.execute(sql`SELECT gin_clean_pending_list('terminals_search_trgm_idx'::regclass)`);
    },

    /** Content hash and removal of the stored terminals among `ids` (absent: never stored). */
    async storedStates(ids: readonly string[], tx: Db = db): Promise<Map<string, StoredTerminalState>> {
      const states = new Map<string, StoredTerminalState>();
      if (ids.length === 0) return states;
      const result = await tx.execute(sql`
        SELECT user_terminal_id AS id, content_hash AS hash, removed_at IS NOT NULL AS removed, account_id
        FROM terminals WHERE user_terminal_id = ANY(${sql.param([...ids])}::text[])`);
      for (const row of rowsOf<{ id: string; hash: string | null; removed: boolean; account_id: number }>(result)) {
        states.set(row.id, { contentHash: row.hash, removed: row.removed === true || (row.removed as unknown) === 't', accountId: Number(row.account_id) });
      }
      return states;
    },

    /** Unchanged terminals: only the sync bookkeeping moves. */
    async touchSynced(ids: readonly string[], stamp: SyncStamp, tx: Db = db): Promise<void> {
      if (ids.length === 0) return;
      await tx.execute(sql`
        UPDATE terminals SET sync_status = 'synced', sync_error = NULL, last_synced_at = ${stamp.at.toISOString()}::timestamptz,
               last_sync_run_id = coalesce(${stamp.runId}::uuid, last_sync_run_id)
        WHERE user_terminal_id = ANY(${sql.param([...ids])}::text[])`);
    },

    /**
     * New and changed terminals, written whole. Never touches the assignment (assigned_customer_id,
     * assigned_at) nor created_at; a terminal that comes back loses its removed_at.
     */
    async upsertTerminals(rows: readonly TerminalUpsert[], stamp: SyncStamp, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      const at = stamp.at.toISOString();
      await tx.execute(sql`
        INSERT INTO terminals (user_terminal_id, account_id, account_number, kit_serial_number, dish_serial_number, service_line_number, nickname,
                               active, condition, is_priority, sync_status, sync_error, last_synced_at, last_sync_run_id, content_hash,
                               data_cap_amount, data_cap_unit, data_cap_updated_at, plan, product_reference_id, terminal_type, model,
                               location, region, latitude, longitude, created_at, updated_at, removed_at)
        SELECT u.id, ${stamp.accountId}::integer, u.account, u.kit, u.dish, u.line, u.nickname, u.active::boolean, u.condition, u.priority::boolean,
               'synced', NULL, ${at}::timestamptz, ${stamp.runId}::uuid, u.hash,
               u.cap::numeric, u.cap_unit, CASE WHEN u.cap IS NULL THEN NULL ELSE ${at}::timestamptz END,
               u.plan, u.product, u.type, u.model, u.location, u.region, u.lat::double precision, u.lon::double precision,
               ${at}::timestamptz, ${at}::timestamptz, NULL
        FROM unnest(${column(rows, (r) => r.userTerminalId)}::text[], ${column(rows, (r) => r.accountNumber)}::text[],
                    ${column(rows, (r) => r.kitSerialNumber)}::text[], ${column(rows, (r) => r.dishSerialNumber)}::text[],
                    ${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.nickname)}::text[],
                    ${column(rows, (r) => r.active)}::text[], ${column(rows, (r) => r.condition)}::text[],
                    ${column(rows, (r) => r.isPriority)}::text[], ${column(rows, (r) => r.contentHash)}::text[],
                    ${column(rows, (r) => r.dataCapAmount)}::text[], ${column(rows, (r) => r.dataCapUnit)}::text[],
                    ${column(rows, (r) => r.plan)}::text[], ${column(rows, (r) => r.productReferenceId)}::text[],
                    ${column(rows, (r) => r.terminalType)}::text[], ${column(rows, (r) => r.model)}::text[],
                    ${column(rows, (r) => r.location)}::text[], ${column(rows, (r) => r.region)}::text[],
                    ${column(rows, (r) => r.latitude)}::text[], ${column(rows, (r) => r.longitude)}::text[])
          AS u(id, account, kit, dish, line, nickname, active, condition, priority, hash, cap, cap_unit, plan, product, type, model,
               location, region, lat, lon)
        ON CONFLICT (user_terminal_id) DO UPDATE SET
          account_number = EXCLUDED.account_number, kit_serial_number = EXCLUDED.kit_serial_number,
          dish_serial_number = EXCLUDED.dish_serial_number, service_line_number = EXCLUDED.service_line_number,
          nickname = EXCLUDED.nickname, active = EXCLUDED.active, condition = EXCLUDED.condition, is_priority = EXCLUDED.is_priority,
          sync_status = 'synced', sync_error = NULL, last_synced_at = EXCLUDED.last_synced_at,
          last_sync_run_id = coalesce(EXCLUDED.last_sync_run_id, terminals.last_sync_run_id), content_hash = EXCLUDED.content_hash,
          -- No cap from the recurring blocks keeps the one the usage sync stored.
          data_cap_amount = coalesce(EXCLUDED.data_cap_amount, terminals.data_cap_amount),
          data_cap_unit = CASE WHEN EXCLUDED.data_cap_amount IS NULL THEN terminals.data_cap_unit ELSE EXCLUDED.data_cap_unit END,
          data_cap_updated_at = CASE
            WHEN EXCLUDED.data_cap_amount IS NOT NULL AND (EXCLUDED.data_cap_amount IS DISTINCT FROM terminals.data_cap_amount
                 OR EXCLUDED.data_cap_unit IS DISTINCT FROM terminals.data_cap_unit) THEN EXCLUDED.data_cap_updated_at
            ELSE terminals.data_cap_updated_at END,
          plan = EXCLUDED.plan, product_reference_id = EXCLUDED.product_reference_id, terminal_type = EXCLUDED.terminal_type,
          model = EXCLUDED.model, location = EXCLUDED.location, region = EXCLUDED.region, latitude = EXCLUDED.latitude,
          longitude = EXCLUDED.longitude, updated_at = EXCLUDED.updated_at, removed_at = NULL
        WHERE terminals.account_id = EXCLUDED.account_id`);
    },

    /** Terminals the provider lists but the sync could not apply: 'error' with the reason, still live. */
    async markTerminalsFailed(rows: readonly TerminalFailure[], stamp: SyncStamp, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      const at = stamp.at.toISOString();
      await tx.execute(sql`
        INSERT INTO terminals (user_terminal_id, account_id, account_number, kit_serial_number, dish_serial_number, service_line_number, nickname,
                               sync_status, sync_error, last_synced_at, last_sync_run_id, content_hash, created_at, updated_at, removed_at)
        SELECT u.id, ${stamp.accountId}::integer, u.account, u.kit, u.dish, u.line, u.nickname, 'error', u.error, ${at}::timestamptz, ${stamp.runId}::uuid, NULL,
               ${at}::timestamptz, ${at}::timestamptz, NULL
        FROM unnest(${column(rows, (r) => r.userTerminalId)}::text[], ${column(rows, (r) => r.accountNumber)}::text[],
                    ${column(rows, (r) => r.kitSerialNumber)}::text[], ${column(rows, (r) => r.dishSerialNumber)}::text[],
                    ${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.nickname)}::text[],
                    ${column(rows, (r) => r.error)}::text[])
          AS u(id, account, kit, dish, line, nickname, error)
        ON CONFLICT (user_terminal_id) DO UPDATE SET
          account_number = EXCLUDED.account_number, kit_serial_number = EXCLUDED.kit_serial_number,
          dish_serial_number = EXCLUDED.dish_serial_number, service_line_number = EXCLUDED.service_line_number,
          nickname = EXCLUDED.nickname, sync_status = 'error', sync_error = EXCLUDED.sync_error,
          last_synced_at = EXCLUDED.last_synced_at, last_sync_run_id = coalesce(EXCLUDED.last_sync_run_id, terminals.last_sync_run_id),
          -- No hash: the next sync that can apply the record writes it whole.
          content_hash = NULL, updated_at = EXCLUDED.updated_at, removed_at = NULL
        WHERE terminals.account_id = EXCLUDED.account_id`);
    },

    async upsertTelemetry(rows: readonly TelemetryUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO terminal_telemetry (user_terminal_id, reported_at, uptime_seconds, signal_quality, downlink_mbps, uplink_mbps,
                                        latency_ms, ping_drop_rate, obstruction_percent, software_version, hardware_version, alerts, synced_at)
        SELECT u.id, u.reported::timestamptz, u.uptime::double precision, u.signal::double precision, u.down::double precision,
               u.up::double precision, u.latency::double precision, u.drop::double precision, u.obstruction::double precision,
               u.software, u.hardware, coalesce(string_to_array(u.alerts, ','), '{}'), ${at.toISOString()}::timestamptz
        FROM unnest(${column(rows, (r) => r.userTerminalId)}::text[], ${column(rows, (r) => r.reportedAt)}::text[],
                    ${column(rows, (r) => r.uptimeSeconds)}::text[], ${column(rows, (r) => r.signalQuality)}::text[],
                    ${column(rows, (r) => r.downlinkMbps)}::text[], ${column(rows, (r) => r.uplinkMbps)}::text[],
                    ${column(rows, (r) => r.latencyMs)}::text[], ${column(rows, (r) => r.pingDropRate)}::text[],
                    ${column(rows, (r) => r.obstructionPercent)}::text[], ${column(rows, (r) => r.softwareVersion)}::text[],
                    ${column(rows, (r) => r.hardwareVersion)}::text[], ${column(rows, (r) => r.alerts.join(','))}::text[])
          AS u(id, reported, uptime, signal, down, up, latency, drop, obstruction, software, hardware, alerts)
        ON CONFLICT (user_terminal_id) DO UPDATE SET
          reported_at = EXCLUDED.reported_at, uptime_seconds = EXCLUDED.uptime_seconds, signal_quality = EXCLUDED.signal_quality,
          downlink_mbps = EXCLUDED.downlink_mbps, uplink_mbps = EXCLUDED.uplink_mbps, latency_ms = EXCLUDED.latency_ms,
          ping_drop_rate = EXCLUDED.ping_drop_rate, obstruction_percent = EXCLUDED.obstruction_percent,
          software_version = EXCLUDED.software_version, hardware_version = EXCLUDED.hardware_version, alerts = EXCLUDED.alerts,
          synced_at = EXCLUDED.synced_at`);
    },

    /**
     * After a complete listing: live terminals this run did not write are gone at the provider.
     * They keep their row (and assignment history) with removed_at set; never deleted.
     */
    async markUnseenTerminalsRemoved(stamp: { runId: string; at: Date; accountId: number }, tx: Db = db): Promise<number> {
      const at = stamp.at.toISOString();
      return affected(
        await tx.execute(sql`
          UPDATE terminals SET removed_at = ${at}::timestamptz, sync_status = 'synced', sync_error = NULL, updated_at = ${at}::timestamptz
          WHERE removed_at IS NULL AND account_id = ${stamp.accountId} AND last_sync_run_id IS DISTINCT FROM ${stamp.runId}::uuid`),
      );
    },

    /** Every terminal row of the account, removed ones included: zero means its inventory was never synced. */
    async countAll(accountId: number, tx: Db = db): Promise<number> {
      const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(terminals).where(eq(terminals.accountId, accountId));
      return Number(row?.n ?? 0);
    },

    async findTerminal(userTerminalId: string, tx: Db = db): Promise<TerminalRow | null> {
      const [row] = await tx.select().from(terminals).where(eq(terminals.userTerminalId, userTerminalId));
      return row ?? null;
    },

    /** A terminal the provider no longer knows (single refresh): removed, like a sync would. */
    async markTerminalRemoved(userTerminalId: string, at: Date, tx: Db = db): Promise<TerminalRow | null> {
      const [row] = await tx
        .update(terminals)
        .set({ removedAt: at, syncStatus: 'synced', syncError: null, lastSyncedAt: at, updatedAt: at })
        .where(and(eq(terminals.userTerminalId, userTerminalId), isNull(terminals.removedAt)))
        .returning();
      return row ?? null;
    },

    /** The stored product (its raw provider record), for refreshing one terminal without listing them all. */
    async findProductRaw(productReferenceId: string, accountId: number, tx: Db = db): Promise<unknown | null> {
      const [row] = await tx
        .select({ raw: providerProducts.raw })
        .from(providerProducts)
        .where(and(eq(providerProducts.productReferenceId, productReferenceId), eq(providerProducts.accountId, accountId), isNull(providerProducts.removedAt)));
      return row?.raw ?? null;
    },

    /** Every live product's raw provider record of the account: what a run that does not list products uses. */
    async liveProductsRaw(accountId: number, tx: Db = db): Promise<unknown[]> {
      const rows = await tx
        .select({ raw: providerProducts.raw })
        .from(providerProducts)
        .where(and(eq(providerProducts.accountId, accountId), isNull(providerProducts.removedAt)));
      return rows.map((r) => r.raw);
    },

    /** Each live service line's address, as the last run stored it. */
    async liveLineAddresses(accountId: number, tx: Db = db): Promise<Map<string, string | null>> {
      const rows = await tx
        .select({ line: serviceLines.serviceLineNumber, address: serviceLines.addressReferenceId })
        .from(serviceLines)
        .where(and(eq(serviceLines.accountId, accountId), isNull(serviceLines.removedAt)));
      return new Map(rows.map((r) => [r.line, r.address]));
    },

    /** Every live address as stored (the columns a terminal's location is built from). */
    async liveAddresses(accountId: number, tx: Db = db): Promise<StoredAddress[]> {
      return tx
        .select({
          addressReferenceId: providerAddresses.addressReferenceId,
          formattedAddress: providerAddresses.formattedAddress,
          locality: providerAddresses.locality,
          region: providerAddresses.region,
          regionCode: providerAddresses.regionCode,
          latitude: providerAddresses.latitude,
          longitude: providerAddresses.longitude,
        })
        .from(providerAddresses)
        .where(and(eq(providerAddresses.accountId, accountId), isNull(providerAddresses.removedAt)));
    },

    /** Live service lines, each with whether any usage is stored for it yet. */
    async serviceLinesForUsage(accountId: number, tx: Db = db): Promise<{ serviceLineNumber: string; hasUsage: boolean }[]> {
      const result = await tx.execute(sql`
        SELECT l.service_line_number AS line,
               EXISTS (SELECT 1 FROM service_line_usage_cycles c WHERE c.service_line_number = l.service_line_number) AS has_usage
        FROM service_lines l WHERE l.removed_at IS NULL AND l.account_id = ${accountId} ORDER BY l.service_line_number`);
      return rowsOf<{ line: string; has_usage: boolean | string }>(result).map((r) => ({
        serviceLineNumber: r.line,
        hasUsage: r.has_usage === true || r.has_usage === 't',
      }));
    },

    /** Re-reading a cycle replaces its numbers: the query is idempotent. */
    async upsertUsageCycles(rows: readonly UsageCycleUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO service_line_usage_cycles (service_line_number, cycle_start, cycle_end, priority_gb, standard_gb, opt_in_priority_gb,
                                               non_billable_gb, usage_limit_gb, overage_gb, product_id, last_updated, synced_at)
        SELECT u.line, u.start_date::date, u.end_date::date, u.priority::numeric, u.standard::numeric, u.opt_in::numeric,
               u.non_billable::numeric, u.usage_limit::numeric, u.overage::numeric, u.product, u.last_updated::timestamptz,
               ${at.toISOString()}::timestamptz
        FROM unnest(${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.cycleStart)}::text[],
                    ${column(rows, (r) => r.cycleEnd)}::text[], ${column(rows, (r) => r.priorityGb)}::text[],
                    ${column(rows, (r) => r.standardGb)}::text[], ${column(rows, (r) => r.optInPriorityGb)}::text[],
                    ${column(rows, (r) => r.nonBillableGb)}::text[], ${column(rows, (r) => r.usageLimitGb)}::text[],
                    ${column(rows, (r) => r.overageGb)}::text[], ${column(rows, (r) => r.productId)}::text[],
                    ${column(rows, (r) => r.lastUpdated)}::text[])
          AS u(line, start_date, end_date, priority, standard, opt_in, non_billable, usage_limit, overage, product, last_updated)
        ON CONFLICT (service_line_number, cycle_start) DO UPDATE SET
          cycle_end = EXCLUDED.cycle_end, priority_gb = EXCLUDED.priority_gb, standard_gb = EXCLUDED.standard_gb,
          opt_in_priority_gb = EXCLUDED.opt_in_priority_gb, non_billable_gb = EXCLUDED.non_billable_gb,
          usage_limit_gb = EXCLUDED.usage_limit_gb, overage_gb = EXCLUDED.overage_gb, product_id = EXCLUDED.product_id,
          last_updated = EXCLUDED.last_updated, synced_at = EXCLUDED.synced_at`);
    },

    async upsertUsageDaily(rows: readonly UsageDailyUpsert[], at: Date, tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        INSERT INTO service_line_usage_daily (service_line_number, usage_date, priority_gb, standard_gb, opt_in_priority_gb,
                                              non_billable_gb, synced_at)
        SELECT u.line, u.day::date, u.priority::numeric, u.standard::numeric, u.opt_in::numeric, u.non_billable::numeric,
               ${at.toISOString()}::timestamptz
        FROM unnest(${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.usageDate)}::text[],
                    ${column(rows, (r) => r.priorityGb)}::text[], ${column(rows, (r) => r.standardGb)}::text[],
                    ${column(rows, (r) => r.optInPriorityGb)}::text[], ${column(rows, (r) => r.nonBillableGb)}::text[])
          AS u(line, day, priority, standard, opt_in, non_billable)
        ON CONFLICT (service_line_number, usage_date) DO UPDATE SET
          priority_gb = EXCLUDED.priority_gb, standard_gb = EXCLUDED.standard_gb, opt_in_priority_gb = EXCLUDED.opt_in_priority_gb,
          non_billable_gb = EXCLUDED.non_billable_gb, synced_at = EXCLUDED.synced_at
        -- A past day rarely changes: each run re-reads two cycles (about 60 days a line), and only
        -- the days whose figures moved are rewritten (synced_at: when a day's figures last changed).
        WHERE (service_line_usage_daily.priority_gb, service_line_usage_daily.standard_gb,
               service_line_usage_daily.opt_in_priority_gb, service_line_usage_daily.non_billable_gb)
          IS DISTINCT FROM (EXCLUDED.priority_gb, EXCLUDED.standard_gb, EXCLUDED.opt_in_priority_gb, EXCLUDED.non_billable_gb)`);
    },

    /** The plan's allowance (GB) on every live terminal of each line; unchanged caps keep their date. */
    async updateDataCaps(rows: readonly { serviceLineNumber: string; usageLimitGb: number }[], at: Date, tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      return affected(
        await tx.execute(sql`
          UPDATE terminals t SET data_cap_amount = u.cap::numeric, data_cap_unit = 'GB', data_cap_updated_at = ${at.toISOString()}::timestamptz
          FROM unnest(${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.usageLimitGb)}::text[]) AS u(line, cap)
          WHERE t.service_line_number = u.line AND t.removed_at IS NULL
            AND (t.data_cap_amount IS DISTINCT FROM u.cap::numeric OR t.data_cap_unit IS DISTINCT FROM 'GB')`),
      );
    },
  };
}

