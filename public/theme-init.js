// Runs before the first paint (a plain script in <head>; the CSP allows no inline script): marks
// <html> with the theme the portal's own colours key on, by the rule of src/domain/theme.ts.
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem('portal.theme');
  } catch {
    // Storage refused (private mode): follow the system.
  }
  var dark = stored === 'dark' || (stored !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
})();
