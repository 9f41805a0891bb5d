// The event fixtures and actor answers the schedule models walk, shared by the machine run and the
// page the UI run opens: one of each way through the form, with times relative to the run's start
// (the screen checks the time against the clock when Schedule is pressed).
import { fieldRefusal, schedulePlans, upcomingChange } from '../../fixtures/schedule';
import { ok, refused } from '../../machines/scripted-actors';
import { customerChoice } from '../../machines/starters/schedule';
import { done, failed } from '../framework/model';

export const MODEL_NOW = Date.now();
/** A week from the run's start at 10:30 local time: what the picker gives for "yyyy-mm-dd 10:30". */
export const MODEL_AT = (() => {
  const at = new Date(MODEL_NOW + 7 * 24 * 3600_000);
  at.setHours(10, 30, 0, 0);
  return at;
})();
const pad = (n: number) => String(n).padStart(2, '0');
export const MODEL_AT_TYPED = `${MODEL_AT.getFullYear()}-${pad(MODEL_AT.getMonth() + 1)}-${pad(MODEL_AT.getDate())} 10:30`;

export const scheduleChangeResults = [
  done('findCustomers', ok([customerChoice])),
  failed('findCustomers', new TypeError('fetch failed')),
  done('loadPlans', ok(schedulePlans)),
  done('loadPlans', refused('Provider unavailable')),
  failed('loadPlans', new TypeError('fetch failed')),
  done('scheduleChange', ok(upcomingChange)),
  done('scheduleChange', { ok: false as const, status: 400, message: 'Validation failed', errors: fieldRefusal('at', 'Too soon').body.errors }),
  failed('scheduleChange', new TypeError('fetch failed')),
];
