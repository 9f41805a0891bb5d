// Automatic actions (/alerts/actions): to be built.
export function AutomaticActionsRoute() {
  return null;
}
