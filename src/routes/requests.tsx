// Placeholder while the page is being built (issue 19).
export function RequestsRoute() {
  return null;
}
