// The account's ids: service line numbers, user terminal ids, kit and dish serials, address
// reference ids. Each is built from a keyed permutation of the index (so an id in a request
// decodes to its index without a table) and from the seed (so two accounts never share one).
import { digits, hex } from '../random';
import { TAG, notFoundLine, rejected } from './shared';
import type { FleetState } from './state';
import type { Outcome } from './types';

export type Ids = ReturnType<typeof createIds>;

export function createIds(state: FleetState) {
  const { key, accountDigits, lineCodes, kitCodes, dishCodes, terminalCodes, addressCodes, terminalCount } = state;

  function serviceLineNumberOf(l: number): string {
    const code = lineCodes.forward(l);
    return `AST-${accountDigits}-${digits(Math.floor(code / 100), 5)}-${digits(code % 100, 2)}`;
  }

  function serviceLineIndex(serviceLineNumber: string): number | undefined {
    const match = /^AST-(\d{6})-(\d{5})-(\d{2})$/.exec(serviceLineNumber.trim().toUpperCase());
    if (!match || match[1] !== accountDigits) return undefined;
    const l = lineCodes.inverse(Number(match[2]) * 100 + Number(match[3]));
    return state.isLine(l) ? l : undefined;
  }

  function userTerminalIdOf(t: number): string {
    const h = key(TAG.terminal, t, 3);
    return `0002${hex(h >>> 16, 4)}-00${hex(h, 6)}-${hex(terminalCodes.forward(t), 8)}`;
  }
  const kitSerialOf = (t: number) => `KIT${digits(kitCodes.forward(t), 8)}`;
  const dishSerialOf = (t: number) => `${state.terminalModel(t).dishPrefix}${digits(dishCodes.forward(t), 8)}`;

  /** On the account only: a kit in stock is unknown to every call but adding it. */
  function terminalIndex(deviceId: string): number | undefined {
    const t = knownTerminalIndex(deviceId);
    return t !== undefined && state.onAccount(t) ? t : undefined;
  }

  /** Any kit the provider knows for the reseller, on the account or in stock. */
  function knownTerminalIndex(deviceId: string): number | undefined {
    const id = deviceId.trim();
    // Each id carries the index in its last digits; the rest must match what the index generates.
    const terminalId = /^[0-9a-f]{8}-[0-9a-f]{8}-([0-9a-f]{8})$/i.exec(id);
    if (terminalId) {
      const t = terminalCodes.inverse(parseInt(terminalId[1]!, 16));
      return t < terminalCount && userTerminalIdOf(t) === id.toLowerCase() ? t : undefined;
    }
    const kit = /^KIT(\d{8})$/i.exec(id);
    if (kit) {
      const t = kitCodes.inverse(Number(kit[1]));
      return t < terminalCount ? t : undefined;
    }
    const dish = /^[0-9A-Z]{4}(\d{8})$/i.exec(id);
    if (dish) {
      const t = dishCodes.inverse(Number(dish[1]));
      return t < terminalCount && dishSerialOf(t) === id.toUpperCase() ? t : undefined;
    }
    return undefined;
  }

  /** The generated address of line l. */
  function addressIdOf(l: number): string {
    const h1 = key(TAG.site, l, 1);
    const h2 = key(TAG.site, l, 2);
    const variant = '89ab'[h2 & 3];
    return `${hex(h1, 8)}-${hex(h2 >>> 16, 4)}-4${hex(h2 >>> 4, 3)}-${variant}${hex(h1 >>> 20, 3)}-${hex(addressCodes.forward(l), 8)}${hex(h1 >>> 4, 4)}`;
  }

  /** A created address's id: seeded and counted, so the same requests make the same ids. */
  function createdAddressId(k: number): string {
    const h1 = key(TAG.address, k, 1);
    const h2 = key(TAG.address, k, 2);
    const h3 = key(TAG.address, k, 3);
    return `${hex(h1, 8)}-${hex(h2 >>> 16, 4)}-4${hex(h2 >>> 4, 3)}-${'89ab'[h3 & 3]}${hex(h3 >>> 20, 3)}-${hex(h3, 8)}${hex(h1 >>> 8, 4)}`;
  }

  /** The generated address an id names: the line index, or undefined. */
  function generatedAddressIndex(addressReferenceId: string): number | undefined {
    const match = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{8})[0-9a-f]{4}$/i.exec(addressReferenceId.trim());
    if (!match) return undefined;
    const l = addressCodes.inverse(parseInt(match[1]!, 16));
    return state.hasGeneratedLine(l) && addressIdOf(l) === addressReferenceId.trim().toLowerCase() ? l : undefined;
  }

  /** An active line by number, or why not. */
  function activeLine(serviceLineNumber: string): Outcome<number> {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    if (!state.isActive(l)) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    return { ok: true, value: l };
  }

  return {
    serviceLineNumberOf,
    activeLine,
    serviceLineIndex,
    userTerminalIdOf,
    kitSerialOf,
    dishSerialOf,
    terminalIndex,
    knownTerminalIndex,
    addressIdOf,
    createdAddressId,
    generatedAddressIndex,
  };
}
