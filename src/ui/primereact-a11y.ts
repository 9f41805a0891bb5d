// Accessibility repairs to PrimeReact 10's markup, made once for every component through the
// global pass-through (AppRoot's PrimeReactProvider) instead of at each use. Each is a WCAG 2 A/AA
// rule axe-core failed on the portal's screens:
// - Dropdown: its trigger is a role=button with no name (aria-command-name), and the hidden
//   <select> it keeps for forms has no label (select-name). Neither is reached by Tab; the
//   combobox input carries the name, so both leave the accessibility tree (the portal's forms
//   are read from state, never from that select).
// - BreadCrumb: its separators are <li role="separator"> inside the <ol>, which may hold only list
//   items (list). They stay plain, hidden list items.
// - Checkbox and InputSwitch: the wrapper gets role=checkbox around the native checkbox input
//   (nested-interactive; without aria-checked, aria-required-attr). The input is the control.
// - DataTable: a table wider than its card scrolls in its wrapper, which a keyboard user must be
//   able to reach to scroll (scrollable-region-focusable); the wrapper is a named, focusable region.
import type { PrimeReactPTOptions } from 'primereact/api';

export const TABLE_REGION_LABEL = 'Table (scrolls sideways when wider than the screen)';

export const A11Y_PASS_THROUGH: PrimeReactPTOptions = {
  dropdown: {
    trigger: { 'aria-hidden': true },
    // Only the select: the same part name also wraps the combobox's own focusable input.
    // Disabled as well, or axe counts it as focusable content hidden from readers (aria-hidden-focus).
    select: { 'aria-hidden': true, disabled: true },
  },
  breadcrumb: {
    separator: { role: undefined, 'aria-hidden': true },
  },
  checkbox: {
    root: { role: undefined, 'aria-checked': undefined },
  },
  inputswitch: {
    root: { role: undefined, 'aria-checked': undefined },
  },
  datatable: {
    wrapper: { tabIndex: 0, role: 'region', 'aria-label': TABLE_REGION_LABEL },
  },
};
