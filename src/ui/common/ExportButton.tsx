// Export CSV on every list page: the button, and the hook behind it that fetches the filter's CSV
// with the bearer token (a plain link would carry none) and hands it to the browser's downloads.
// One download at a time; the button says so while it runs, and a refusal or a lost connection
// is a toast, never a half-saved file.
import { useState } from 'react';
import { Button } from 'primereact/button';
import { toast } from 'react-hot-toast';
import { NetworkError, type ApiResult, type Download } from '../../api';
import { NETWORK_ERROR_MESSAGE } from '../../domain/login';

export const EXPORT_TEXTS = {
  exportCsv: 'Export CSV',
  exporting: 'Exporting...',
} as const;

/** Hands a file to the browser's downloads, as a link to it with `download` would. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over; the address can go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface CsvExport {
  exporting: boolean;
  exportCsv(): Promise<void>;
}

/**
 * `fetchCsv` asks for the CSV of what the page shows now (read the filter when called, not when
 * rendered); `filename` is used when the server names none; `failed` is the toast of a refusal
 * without a message of its own.
 */
export function useCsvExport(fetchCsv: () => Promise<ApiResult<Download>>, filename: string, failed: string): CsvExport {
  const [exporting, setExporting] = useState(false);
  return {
    exporting,
    async exportCsv() {
      setExporting(true);
      try {
        const result = await fetchCsv();
        if (result.ok) saveFile(result.data.blob, result.data.filename ?? filename);
        else toast.error(result.message || failed, { id: `export-${filename}` });
      } catch (failure) {
        if (!(failure instanceof NetworkError)) throw failure;
        toast.error(NETWORK_ERROR_MESSAGE, { id: `export-${filename}` });
      } finally {
        setExporting(false);
      }
    },
  };
}

export function ExportButton(props: { exporting: boolean; onExport(): void; disabled?: boolean; label?: string }) {
  return (
    <Button
      type="button"
      label={props.exporting ? EXPORT_TEXTS.exporting : (props.label ?? EXPORT_TEXTS.exportCsv)}
      icon={props.exporting ? 'pi pi-spin pi-spinner' : 'pi pi-download'}
      outlined
      disabled={props.exporting || props.disabled === true}
      onClick={props.onExport}
    />
  );
}
