/** The bundled viewer of the sources in `dir` (this folder by default), as text. */
export function bundleViewer(dir?: string): string;
