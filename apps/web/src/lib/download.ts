import { apiResponse, type RequestOptions } from './api-client';

/** Hands a file made in the page to the browser, which saves it as any other downloaded file. */
export function saveFile(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** 1.2 MB, 350 kB: how much of a download has arrived, in the reader's language. */
export function formatByteSize(bytes: number): string {
  const [unit, size] =
    bytes < 1e6 ? (['kilobyte', bytes / 1e3] as const) : (['megabyte', bytes / 1e6] as const);
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, maximumFractionDigits: 1 }).format(size);
}

/** A finished download: the name the server gave it and its bytes. */
export interface DownloadedFile {
  name: string;
  blob: Blob;
}

export interface DownloadOptions {
  query?: RequestOptions['query'];
  /** The file's media type: asked for in `Accept` and given to the blob. */
  type: string;
  /** The name to use when the answer names none in `Content-Disposition`. */
  fallbackName: string;
  signal?: AbortSignal;
  onProgress?: (bytes: number) => void;
}

/** The name in `Content-Disposition: attachment; filename="…"`, else the fallback. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GETs a file the server streams (an export). The access token lives in memory, not in a cookie, so a
 * plain link cannot download it: the file is fetched through the one API client (once more after a
 * refresh, as every call is) and read as it arrives, `onProgress` hearing the bytes so far. A download the
 * server breaks off part way rejects, so a short file is never offered as the whole.
 */
export async function downloadFile(
  path: string,
  { query, type, fallbackName, signal, onProgress }: DownloadOptions,
): Promise<DownloadedFile> {
  const response = await apiResponse('GET', path, { query, headers: { accept: type }, signal });
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      received += chunk.value.byteLength;
      onProgress?.(received);
    }
  }
  return { name: fileNameOf(response, fallbackName), blob: new Blob(parts, { type }) };
}
