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
