// The account's devices as hardware: routers bonded to dishes (and the hook routers.ts keeps their
// configuration through), telemetry, and reboots.
import { SOFTWARE_VERSIONS } from '../catalog';
import { draw, hex, toUnit } from '../random';
import { DAY_MS, iso, round2 } from '../usage';
import type { TelemetryRecord, UserTerminalResponseV2, ValidationResult } from '../wire';
import type { Ids } from './ids';
import { OFFLINE_SHARE, REPORT_INTERVAL_MS, TAG, notFoundTerminal, parseList, rejected, weighted } from './shared';
import type { FleetState } from './state';
import type { Fleet, IndexList, Outcome } from './types';
import type { LineUsage } from './usage';

interface TelemetryProfile {
  poorSignal: boolean;
  obstructionBase: number;
  offline: boolean;
  offlineAgoMs: number;
  bootAgoMs: number;
  softwareVersion: string;
  motorsStuck: boolean;
  thermalThrottle: boolean;
  mastNotVertical: boolean;
  slowEthernet: boolean;
  heating: boolean;
}

export type Devices = ReturnType<typeof createDevices>;

export function createDevices(state: FleetState, ids: Ids, usage: LineUsage) {
  const { key, clock, size, terminalCount, terminalModel, site, lineOfTerminal, lineProfile } = state;

  // ---- Routers and terminal configuration: the hook of server/simulator/routers.ts ----------
  // The generator gives about one site in seven a Starlink router bonded to the dish. What is
  // configured on routers and terminals (a router's config, a terminal's L2VPN circuits) is kept
  // by routers.ts, which installs its readers here; terminal(t) asks them. Until then: none.
  type DeviceReaders = Parameters<Fleet['devices']['install']>[0];
  let deviceReaders: DeviceReaders = { routerConfigId: () => null, l2VpnCircuits: () => [] };
  const routerHashOf = (t: number) => key(TAG.terminal, t, 5);
  const hasRouter = (t: number) => toUnit(routerHashOf(t)) < 0.15;
  const routerIdOf = (t: number) => `Router-0100000000000000${hex(routerHashOf(t), 8).toUpperCase()}`;
  /** Router hashes in order, with their terminals (all the provider knows): made on the first lookup. */
  let routerIndex: { hashes: Uint32Array; terminals: Uint32Array } | null = null;
  function routerTerminal(routerId: string): number | undefined {
    const match = /^Router-0100000000000000([0-9A-F]{8})$/i.exec(routerId.trim());
    if (!match) return undefined;
    if (!routerIndex) {
      const found: number[] = [];
      const hashOf = new Map<number, number>();
      for (let t = 0; t < terminalCount; t++) {
        if (!hasRouter(t)) continue;
        found.push(t);
        hashOf.set(t, routerHashOf(t) >>> 0);
      }
      found.sort((a, b) => hashOf.get(a)! - hashOf.get(b)! || a - b);
      routerIndex = { hashes: Uint32Array.from(found, (t) => hashOf.get(t)!), terminals: Uint32Array.from(found) };
    }
    const { hashes, terminals } = routerIndex;
    const wanted = parseInt(match[1]!, 16) >>> 0;
    let low = 0;
    let high = hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (hashes[middle]! < wanted) low = middle + 1;
      else high = middle;
    }
    // Ids are 32-bit hashes: in a fleet of millions two terminals may share one; the lowest on the account answers.
    for (let k = low; k < hashes.length && hashes[k] === wanted; k++) if (state.onAccount(terminals[k]!)) return terminals[k]!;
    return undefined;
  }
  const hook: Fleet['devices'] = {
    routerTerminal,
    install: (readers) => {
      deviceReaders = readers;
    },
  };

  /** The routers bonded to terminal t, with the configuration routers.ts keeps for them. */
  function routersOf(t: number, userTerminalId: string): UserTerminalResponseV2['routers'] {
    const routerId = routerIdOf(t);
    return hasRouter(t)
      ? [{ routerId, nickname: null, userTerminalId, configId: deviceReaders.routerConfigId(routerId, t), hardwareVersion: null, lastBonded: null }]
      : [];
  }

  const l2VpnCircuits = (t: number) => deviceReaders.l2VpnCircuits(t);

  // ---- Telemetry ----------------------------------------------------------------------------
  function telemetryProfile(t: number): TelemetryProfile {
    const d = draw(key(TAG.telemetry, t));
    const model = terminalModel(t);
    const obstructed = d.chance(0.12);
    const latitude = Math.abs(site(t).latitude);
    return {
      poorSignal: t !== 0 && d.chance(0.1),
      obstructionBase: obstructed && t !== 0 ? d.range(4, 25) : d.range(0, 1.5),
      // Kits from stock are freshly installed: online once on an active line.
      offline: t !== 0 && t < size && d.chance(OFFLINE_SHARE),
      offlineAgoMs: d.range(5 * 60_000, 14 * DAY_MS),
      bootAgoMs: d.range(0.5 * DAY_MS, 40 * DAY_MS),
      softwareVersion: weighted(d, SOFTWARE_VERSIONS).version,
      motorsStuck: model.hasMotors && d.chance(0.03),
      thermalThrottle: d.chance(0.02),
      mastNotVertical: d.chance(0.015),
      slowEthernet: d.chance(0.02),
      heating: latitude > 45 && d.chance(0.2),
    };
  }

  /** The outage injected for the terminal that holds now, if any. */
  function outageNow(t: number): { fromMs: number; toMs: number } | null {
    const outage = state.outages.get(t);
    const nowMs = clock().getTime();
    return outage && outage.fromMs <= nowMs && nowMs < outage.toMs ? outage : null;
  }

  function isOnline(t: number, profile: TelemetryProfile = telemetryProfile(t)): boolean {
    const line = lineOfTerminal(t);
    return line !== null && state.isActive(line) && !profile.offline && outageNow(t) === null;
  }

  function telemetryAt(t: number): TelemetryRecord {
    const nowMs = clock().getTime();
    const profile = telemetryProfile(t);
    const model = terminalModel(t);
    const line = lineOfTerminal(t);
    const online = isOnline(t, profile);
    let reportMs: number;
    if (online) {
      // Every terminal reports each 15 s, each at its own offset within the window.
      reportMs = Math.floor(nowMs / REPORT_INTERVAL_MS) * REPORT_INTERVAL_MS + (t % 15) * 1000;
      if (reportMs > nowMs) reportMs -= REPORT_INTERVAL_MS;
    } else if (outageNow(t)) {
      // Its last report is the one before the outage began.
      reportMs = Math.floor(outageNow(t)!.fromMs / REPORT_INTERVAL_MS) * REPORT_INTERVAL_MS;
    } else {
      const lineEnd = line === null ? null : lineProfile(line).endMs;
      reportMs = Math.min(state.createdMs - profile.offlineAgoMs, lineEnd ?? Infinity, nowMs - 5 * 60_000);
    }
    const tick = draw(key(TAG.tick, t, Math.floor(reportMs / REPORT_INTERVAL_MS)));
    const signal = profile.poorSignal ? tick.range(0.25, 0.75) : Math.min(1, 0.8 + 0.2 * tick.next());
    const obstruction = Math.min(100, profile.obstructionBase * tick.range(0.85, 1.15));
    const place = site(t).place;
    const latency = place.popLatencyMs * tick.range(0.9, 1.15) + (profile.poorSignal ? 25 : 0) + obstruction * 0.8;
    const troubled = profile.poorSignal || obstruction > 4;
    const dropRate = troubled ? Math.min(1, 0.01 + (obstruction / 100) * 0.8 + tick.next() * 0.05) : tick.next() * 0.008;
    const load = tick.next() ** 2;
    const bootMs = Math.max(state.createdMs - profile.bootAgoMs, state.rebootedAt.get(t) ?? -Infinity);
    let exceededQuota = false;
    if (online && line !== null) {
      const lp = lineProfile(line);
      const facts = usage.currentCycleFacts(line, lp, nowMs);
      exceededQuota = !lp.optedIn && facts.usage.billableGB > facts.capGB;
    }
    return {
      timestamp: iso(reportMs),
      uptimeSeconds: Math.max(0, Math.floor((reportMs - bootMs) / 1000)),
      downlinkThroughputMbps: online ? round2(model.maxDownlinkMbps * signal * load) : 0,
      uplinkThroughputMbps: online ? round2(model.maxUplinkMbps * signal * load * tick.range(0.3, 1)) : 0,
      popPingDropRateAvg: Math.round(dropRate * 10_000) / 10_000,
      popPingLatencyMsAvg: Math.round(latency * 10) / 10,
      obstructionPercentTime: round2(obstruction),
      signalQuality: Math.round(signal * 1000) / 1000,
      softwareVersion: profile.softwareVersion,
      hardwareVersion: model.hardwareVersion,
      alertHighTimeObstruction: obstruction > 5,
      alertDisabledDataUsageExceededQuota: exceededQuota,
      alertMotorsStuck: profile.motorsStuck,
      alertThermalThrottle: profile.thermalThrottle,
      alertThermalShutdown: false,
      alertMastNotNearVertical: profile.mastNotVertical,
      alertSlowEthernetSpeeds: profile.slowEthernet,
      alertRoaming: false,
      alertInstallPending: false,
      alertIsHeating: profile.heating,
    };
  }

  /** Telemetry of the terminals asked for (unknown ones come back as warnings), or of the whole account. */
  function telemetry(accountTerminals: () => IndexList, userTerminalIds?: string[]) {
    const records: Record<string, TelemetryRecord> = {};
    const warnings: ValidationResult[] = [];
    if (userTerminalIds && userTerminalIds.length > 0) {
      const { found, unknown } = parseList(userTerminalIds, ids.terminalIndex);
      for (const id of unknown) warnings.push({ memberNames: ['userTerminalIds'], errorMessage: `User terminal ${id} was not found on this account` });
      for (const t of found) records[ids.userTerminalIdOf(t)] = telemetryAt(t);
    } else {
      const all = accountTerminals();
      for (let k = 0; k < all.length; k++) records[ids.userTerminalIdOf(all.at(k))] = telemetryAt(all.at(k));
    }
    return { records, warnings };
  }

  function reboot(deviceId: string): Outcome {
    const t = ids.terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (!isOnline(t)) return rejected(`User terminal ${deviceId} is offline and cannot be rebooted`, ['deviceId']);
    state.rebootedAt.set(t, clock().getTime());
    return { ok: true, value: undefined, information: ['Reboot command sent'] };
  }

  /**
   * An outage (the simulator's controls, for demos and tests): the terminal stops reporting now for
   * `minutes`, then reports again. Its line stays active, so the portal sees it offline.
   */
  function injectOutage(deviceId: string, minutes: number): Outcome<{ from: string; to: string }> {
    const t = ids.terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    const fromMs = clock().getTime();
    const outage = { fromMs, toMs: fromMs + minutes * 60_000 };
    state.outages.set(t, outage);
    return { ok: true, value: { from: iso(outage.fromMs), to: iso(outage.toMs) }, information: [`User terminal ${deviceId} is offline for ${minutes} minutes`] };
  }

  return { hook, routersOf, l2VpnCircuits, isOnline, telemetryAt, telemetry, reboot, injectOutage };
}
