// Go module zips for the generators (gen-openapi.mjs, gen-api-types.mjs): a module version as the
// Go module proxy serves it, cached in build/openapi/, and the files of such a zip read without a
// dependency (stored or deflated entries, as module zips have).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const CACHE_DIR = 'build/openapi';

/** `module@version`'s zip from proxy.golang.org, downloaded once into build/openapi/. */
export async function moduleZip(module, version) {
  const cache = `${CACHE_DIR}/${module.replaceAll('/', '_')}-${version}.zip`;
  if (!existsSync(cache)) {
    const url = `https://proxy.golang.org/${module}/@v/${version}.zip`;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(cache, new Uint8Array(await res.arrayBuffer()));
  }
  return readFileSync(cache);
}

/** The files of a zip archive whose names start with `prefix`: name without the prefix → text. */
export function unzip(buf, prefix) {
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (!name.startsWith(prefix)) continue;
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) out.set(name.slice(prefix.length), data.toString('utf8'));
    else if (method === 8) out.set(name.slice(prefix.length), inflateRawSync(data).toString('utf8'));
    else throw new Error(`${name}: unsupported compression method ${method}`);
  }
  return out;
}
