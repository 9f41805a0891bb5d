// Scheduled changes (/schedule): to be built.
export function ScheduleRoute() {
  return null;
}
