import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text assets worth compressing (source maps are fetched only by developer tools). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_BYTES = 1024;
/** Brotli's best setting takes seconds on Monaco's multi-megabyte chunks; those get a faster one. */
const LARGE_BYTES = 1024 * 1024;

/**
 * Writes `file.br` and `file.gz` beside every text asset of the build, so that the server sends the console
 * compressed at the best ratio without compressing anything per request (@fastify/static's preCompressed).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'lumi-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const data = await readFile(file);
          if (data.length < MIN_BYTES) return;
          const quality = data.length > LARGE_BYTES ? 9 : constants.BROTLI_MAX_QUALITY;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: quality,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzipAsync(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}
