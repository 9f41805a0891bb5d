// The account's inventory: user terminals (on the account, in stock, attached to lines) and the
// addresses lines are at, generated or created through the API.
import { PLACES, type Place } from '../catalog';
import type { AddressResponse, UserTerminalResponseV2 } from '../wire';
import type { Devices } from './devices';
import type { Ids } from './ids';
import { concat, fromArray, notFoundLine, notFoundTerminal, parseList, rejected, whole } from './shared';
import type { FleetState } from './state';
import type { AddressFilters, AddressInput, IndexList, Outcome, UserTerminalFilters } from './types';

// Addresses created through the API sit after the generated ones, at CREATED_ADDRESS + k.
const CREATED_ADDRESS = 0x8000_0000;

export type Inventory = ReturnType<typeof createInventory>;

export function createInventory(state: FleetState, ids: Ids, devices: Devices) {
  const { size, terminalCount, onAccount, accountChanges, lineOfTerminal, terminalsOfLine, site, terminalNickname } = state;
  const { serviceLineNumberOf, serviceLineIndex, userTerminalIdOf, kitSerialOf, dishSerialOf, terminalIndex } = ids;

  // ---- User terminals -----------------------------------------------------------------------
  function terminal(t: number): UserTerminalResponseV2 {
    if (!Number.isInteger(t) || t < 0 || t >= terminalCount) throw new RangeError(`no terminal ${t}`);
    const line = lineOfTerminal(t);
    const userTerminalId = userTerminalIdOf(t);
    const routers = devices.routersOf(t, userTerminalId);
    return {
      userTerminalId,
      nickname: terminalNickname(t),
      kitSerialNumber: kitSerialOf(t),
      dishSerialNumber: dishSerialOf(t),
      serviceLineNumber: line === null ? null : serviceLineNumberOf(line),
      l2VpnCircuits: devices.l2VpnCircuits(t),
      routers,
    };
  }

  /** The terminals on the account, in index order. */
  /** Built once per change of the account's terminals: a sync pages through it thousands of times. */
  let accountList: IndexList | null = null;
  function accountTerminals(): IndexList {
    if (accountChanges.size === 0) return whole(size);
    if (!accountList) {
      const result: number[] = [];
      for (let t = 0; t < terminalCount; t++) if (onAccount(t)) result.push(t);
      accountList = fromArray(result);
    }
    return accountList;
  }

  function userTerminals(filters: UserTerminalFilters = {}): IndexList {
    const { searchString, serviceLineNumbers, userTerminalIds, hasServiceLine } = filters;
    const needle = searchString?.trim().toLowerCase() || undefined;
    if (!needle && !serviceLineNumbers?.length && !userTerminalIds?.length && hasServiceLine === undefined) return accountTerminals();
    // Narrow by the cheap filters first; build strings only for the survivors.
    const wantedLines = serviceLineNumbers?.length ? new Set(parseList(serviceLineNumbers, serviceLineIndex).found) : null;
    let candidates: Iterable<number>;
    if (userTerminalIds?.length) {
      candidates = new Set(parseList(userTerminalIds, terminalIndex).found);
    } else if (wantedLines) {
      candidates = new Set([...wantedLines].flatMap(terminalsOfLine));
    } else {
      const all = accountTerminals();
      candidates = (function* () {
        for (let k = 0; k < all.length; k++) yield all.at(k);
      })();
    }
    const result: number[] = [];
    for (const t of candidates) {
      const line = lineOfTerminal(t);
      if (hasServiceLine !== undefined && (line !== null) !== hasServiceLine) continue;
      if (wantedLines && (line === null || !wantedLines.has(line))) continue;
      if (needle) {
        const haystack = [userTerminalIdOf(t), kitSerialOf(t), dishSerialOf(t), terminalNickname(t) ?? '', line === null ? '' : serviceLineNumberOf(line)];
        if (!haystack.some((value) => value.toLowerCase().includes(needle))) continue;
      }
      result.push(t);
    }
    return fromArray(result.sort((a, b) => a - b));
  }

  function userTerminalIds(): string[] {
    const all = accountTerminals();
    return Array.from({ length: all.length }, (_, k) => userTerminalIdOf(all.at(k)));
  }

  function stockKitSerials(): string[] {
    const serials: string[] = [];
    for (let t = size; t < terminalCount; t++) if (!onAccount(t)) serials.push(kitSerialOf(t));
    return serials;
  }

  function addTerminal(deviceId: string): Outcome {
    const t = ids.knownTerminalIndex(deviceId);
    if (t === undefined) return rejected(`No user terminal matches ${deviceId}: check the kit or dish serial number`, ['deviceId']);
    if (onAccount(t)) return rejected(`User terminal ${deviceId} is already on this account`, ['deviceId']);
    accountChanges.set(t, true);
    accountList = null;
    return { ok: true, value: undefined, information: [`User terminal ${userTerminalIdOf(t)} added to the account`] };
  }

  function removeTerminal(deviceId: string): Outcome {
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    const line = lineOfTerminal(t);
    if (line !== null) {
      return rejected(`User terminal ${deviceId} is on service line ${serviceLineNumberOf(line)}: remove it from the line first`, ['deviceId']);
    }
    accountChanges.set(t, false);
    accountList = null;
    state.rebootedAt.delete(t);
    return { ok: true, value: undefined };
  }

  function attach(serviceLineNumber: string, deviceId: string): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (!state.isActive(l)) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    const current = lineOfTerminal(t);
    if (current !== null) return rejected(`User terminal ${deviceId} is already on service line ${serviceLineNumberOf(current)}`, ['deviceId']);
    state.terminalLine.set(t, l);
    const overlay = state.lineOverlay.get(l);
    if (overlay) delete overlay.emptySinceMs;
    return { ok: true, value: undefined };
  }

  function detach(serviceLineNumber: string, deviceId: string): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (lineOfTerminal(t) !== l) return rejected(`User terminal ${deviceId} is not on service line ${serviceLineNumber}`, ['deviceId']);
    state.terminalLine.set(t, null);
    if (terminalsOfLine(l).length === 0) state.lineOverlay.set(l, { ...state.lineOverlay.get(l), emptySinceMs: state.clock().getTime() });
    return { ok: true, value: undefined };
  }

  // ---- Addresses ----------------------------------------------------------------------------
  const createdAddresses: AddressResponse[] = [];
  const createdAddressSlot = new Map<string, number>();
  /** Generated addresses replaced through the API, by line index. */
  const addressEdits = new Map<number, AddressResponse>();

  /** The address a line is at: its own generated one, or the one it was created with. */
  const lineAddressId = (l: number) => state.createdLines.get(l)?.addressReferenceId ?? ids.addressIdOf(l);

  /** The slot of an address: a generated line's index, or CREATED_ADDRESS + k. */
  function addressIndex(addressReferenceId: string): number | undefined {
    const created = createdAddressSlot.get(addressReferenceId.trim().toLowerCase());
    if (created !== undefined) return created;
    return ids.generatedAddressIndex(addressReferenceId);
  }

  function addressAt(slot: number): AddressResponse {
    if (slot >= CREATED_ADDRESS) return createdAddresses[slot - CREATED_ADDRESS]!;
    return addressEdits.get(slot) ?? generatedAddress(slot);
  }

  function generatedAddress(l: number): AddressResponse {
    const s = site(l);
    const p = s.place;
    const postal = p.postalCode ? ` ${p.postalCode}` : '';
    return {
      addressReferenceId: ids.addressIdOf(l),
      addressLines: [s.addressLine],
      locality: p.locality,
      administrativeArea: p.administrativeArea,
      administrativeAreaCode: p.administrativeAreaCode,
      region: p.region,
      regionCode: p.regionCode,
      postalCode: p.postalCode,
      metadata: null,
      formattedAddress: `${s.addressLine}, ${p.locality}, ${p.administrativeAreaCode}${postal}, ${p.regionCode}`,
      latitude: s.latitude,
      longitude: s.longitude,
    };
  }

  function addresses(filters: AddressFilters = {}): IndexList {
    const created = { length: createdAddresses.length, at: (k: number) => CREATED_ADDRESS + k };
    if (filters.metadata !== undefined) {
      // Generated addresses carry no metadata: only created or replaced ones can match.
      const matches = [...addressEdits.keys()].sort((a, b) => a - b);
      for (let k = 0; k < created.length; k++) matches.push(created.at(k));
      return fromArray(matches.filter((slot) => addressAt(slot).metadata === filters.metadata));
    }
    if (!filters.addressIds?.length) return concat(fromArray(state.linesByIndex), created);
    const found = parseList(filters.addressIds, addressIndex).found;
    return fromArray([...new Set(found)].sort((a, b) => a - b));
  }

  /** The catalog place nearest a point: the provider derives region codes from coordinates. */
  function nearestPlace(latitude: number, longitude: number): Place {
    let best = PLACES[0]!;
    let bestDistance = Infinity;
    const cos = Math.cos((latitude * Math.PI) / 180);
    for (const place of PLACES) {
      const dLat = place.latitude - latitude;
      const dLon = (((place.longitude - longitude + 540) % 360) - 180) * cos;
      const distance = dLat * dLat + dLon * dLon;
      if (distance < bestDistance) {
        best = place;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** The provider's check of an address: it must be somewhere a terminal can be served. */
  function addressProblem(input: AddressInput): string | null {
    if (input.latitude === 0 && input.longitude === 0) return 'The address could not be located: latitude and longitude are 0, 0';
    if (Math.abs(input.latitude) > 85) return 'Starlink service is not available at this location';
    return null;
  }

  function addressRecord(addressReferenceId: string, input: AddressInput): AddressResponse {
    const place = nearestPlace(input.latitude, input.longitude);
    const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
    return {
      addressReferenceId,
      addressLines: input.addressLines.map((line) => line.trim()),
      locality: text(input.locality),
      administrativeArea: text(input.administrativeArea),
      // Deprecated in requests: the provider sets both codes from the coordinates.
      administrativeAreaCode: place.administrativeAreaCode,
      region: text(input.region),
      regionCode: place.regionCode,
      postalCode: input.postalCode?.trim() ?? '',
      metadata: text(input.metadata),
      formattedAddress: input.formattedAddress.trim(),
      latitude: input.latitude,
      longitude: input.longitude,
    };
  }

  function createAddress(input: AddressInput): Outcome<AddressResponse> {
    const problem = addressProblem(input);
    if (problem) return rejected(problem, ['latitude', 'longitude']);
    const k = createdAddresses.length;
    const record = addressRecord(ids.createdAddressId(k), input);
    createdAddresses.push(record);
    createdAddressSlot.set(record.addressReferenceId, CREATED_ADDRESS + k);
    return { ok: true, value: record };
  }

  function updateAddress(addressReferenceId: string, input: AddressInput): Outcome<AddressResponse> {
    const slot = addressIndex(addressReferenceId);
    if (slot === undefined) {
      return { ok: false, status: 404, message: `Address ${addressReferenceId} was not found on this account`, memberNames: ['addressReferenceId'] };
    }
    const problem = addressProblem(input);
    if (problem) return rejected(problem, ['latitude', 'longitude']);
    const record = addressRecord(addressAt(slot).addressReferenceId, input);
    if (slot >= CREATED_ADDRESS) createdAddresses[slot - CREATED_ADDRESS] = record;
    else addressEdits.set(slot, record);
    return { ok: true, value: record };
  }

  return {
    terminal,
    accountTerminals,
    userTerminals,
    userTerminalIds,
    stockKitSerials,
    addTerminal,
    removeTerminal,
    attach,
    detach,
    lineAddressId,
    addressIndex,
    addressAt,
    addresses,
    createAddress,
    updateAddress,
  };
}
