// The global pass-through's repairs, one per axe rule it answers (src/ui/primereact-a11y.ts):
// without the provider the markup is PrimeReact's own, with it the repair is there.
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { PrimeReactProvider } from 'primereact/api';
import { BreadCrumb } from 'primereact/breadcrumb';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputSwitch } from 'primereact/inputswitch';
import { A11Y_PASS_THROUGH, TABLE_REGION_LABEL } from '../../src/ui/primereact-a11y';
import { renderStrict } from './render';

function Screen({ repaired }: { repaired: boolean }) {
  const body: ReactNode = (
    <>
      <Dropdown ariaLabel="Status" value="a" options={[{ label: 'A', value: 'a' }]} onChange={() => undefined} />
      <BreadCrumb model={[{ label: 'Billing' }, { label: 'Statements' }]} />
      <Checkbox role="checkbox" aria-label="Pick" checked={false} onChange={() => undefined} />
      <InputSwitch aria-label="On" checked onChange={() => undefined} />
      <DataTable value={[{ id: 1 }]}>
        <Column field="id" header="Id" />
      </DataTable>
    </>
  );
  return repaired ? <PrimeReactProvider value={{ pt: A11Y_PASS_THROUGH }}>{body}</PrimeReactProvider> : body;
}

describe("PrimeReact's markup under the accessibility pass-through", () => {
  it('hides the nameless dropdown trigger and its hidden select, keeps breadcrumb lists to list items, leaves the checkbox role to the input, and makes table wrappers reachable regions', () => {
    const bare = renderStrict(<Screen repaired={false} />);
    expect(bare.container.querySelector('.p-dropdown-trigger')!.getAttribute('aria-hidden')).toBeNull();
    expect(bare.container.querySelector('.p-menuitem-separator')!.getAttribute('role')).toBe('separator');
    expect(bare.container.querySelector('.p-checkbox')!.getAttribute('role')).toBe('checkbox');
    bare.unmount();

    const { container } = renderStrict(<Screen repaired />);
    expect(container.querySelector('.p-dropdown-trigger')!.getAttribute('aria-hidden')).toBe('true');
    const select = container.querySelector('.p-dropdown select')!;
    expect(select.getAttribute('aria-hidden')).toBe('true');
    expect(select.hasAttribute('disabled')).toBe(true);
    const separator = container.querySelector('.p-menuitem-separator')!;
    expect(separator.getAttribute('role')).toBeNull();
    expect(separator.getAttribute('aria-hidden')).toBe('true');
    expect(container.querySelector('.p-checkbox')!.getAttribute('role')).toBeNull();
    expect(container.querySelector('.p-checkbox input')!.getAttribute('type')).toBe('checkbox');
    expect(container.querySelector('.p-inputswitch')!.getAttribute('role')).toBeNull();
    expect(container.querySelector('.p-inputswitch input')!.getAttribute('role')).toBe('switch');
    const wrapper = container.querySelector('.p-datatable-wrapper')!;
    expect(wrapper.getAttribute('tabindex')).toBe('0');
    expect(wrapper.getAttribute('role')).toBe('region');
    expect(wrapper.getAttribute('aria-label')).toBe(TABLE_REGION_LABEL);
  });
});
