// What a page hands the browser to save (ExportButton's saveFile: an object URL on a link with
// `download`, clicked): the UI tests read the file's name and bytes from here.
import { vi } from 'vitest';

export interface SavedFile {
  name: string;
  blob: Blob;
}

/** Starts capturing; the list fills as files are saved (the spies are restored after each test). */
export function captureDownloads(): SavedFile[] {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:download/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '')! });
  });
  return saved;
}
