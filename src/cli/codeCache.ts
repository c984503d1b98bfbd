// V8's compiled code for our bundles, kept between runs. Every command is a new process, and
// compiling half a megabyte of bundle before the first line of output costs about as much as
// Node's own start. Node 22 keeps such a cache itself (`module.enableCompileCache`); on Node 20
// each bundle beside this one is compiled through `vm.Script` with the code V8 produced last time.
// Code from that cache cannot run a dynamic `import()` on Node 20: Node finds a script's import
// callback by a symbol kept in the script, V8 keeps that symbol in the cached code, and the next
// process's symbol is another (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; no option of `vm.Script`
// helps: a callback of our own needs --experimental-vm-modules). So esbuild.mjs builds the bundles
// without `import()`, and a bundle that still holds one is compiled as Node would, without the cache.
// A cache, never the truth: a file keyed by the bundle's size, modification time and inode and the
// Node version, private, written atomically after the command ran (so it holds the functions the
// command compiled), and any failure (unreadable, rejected by V8, disk full) only means compiling as
// usual. Keyed as Python keys its .pyc files, not by a hash of the bundle: hashing half a megabyte
// and loading node:crypto (and the streams it pulls in) cost a third of what the cache saves.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheRoot } from '../base/node/cacheDir';

interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

type Compile = CompilingModule['_compile'];

/** Node 22.1+: the runtime's own compile cache, for every module loaded after the call. */
type EnableCompileCache = (directory: string) => unknown;

/**
 * `import(` that is not part of a name, a property or the start of a string: a dynamic import (or
 * text that looks like one, which only costs that bundle its cache).
 */
const DYNAMIC_IMPORT = /(?<![\w$.'"`])import\s*\(/;

/** True when a bundle's text may hold a dynamic `import()`: that bundle is never run from the cache. */
export function holdsDynamicImport(content: string): boolean {
  return DYNAMIC_IMPORT.test(content);
}

/** Caches the compiled code of the bundles in `bundleDir` loaded from now on. */
export function enableCodeCache(bundleDir: string, env: Readonly<Record<string, string | undefined>>): void {
  try {
    const directory = join(cacheRoot(env), 'code');
    const native = (Module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
    if (native !== undefined) {
      native(directory);
      return;
    }
    hookCompile(`${bundleDir}/`, directory);
  } catch {
    // No cache: the bundles compile as usual.
  }
}

function hookCompile(prefix: string, directory: string): void {
  const prototype = (Module as unknown as { prototype: CompilingModule }).prototype;
  const original: Compile = prototype._compile;
  const produced: Array<{ script: Script; path: string }> = [];
  prototype._compile = function (this: CompilingModule, content: string, filename: string): unknown {
    if (!filename.startsWith(prefix) || holdsDynamicImport(content)) return original.call(this, content, filename);
    const path = join(directory, cacheName(filename));
    const cachedData = readCache(path);
    // Module.wrap: the same function Node would compile, so `require`, `module` and line numbers are as usual.
    const script = new Script((Module as unknown as { wrap(source: string): string }).wrap(withoutHashbang(content)), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected === true) produced.push({ script, path });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
  };
  // After the command: the cache then holds every function it compiled, not just the top level.
  process.once('exit', () => {
    for (const { script, path } of produced) writeCache(path, script);
  });
}

/**
 * `<bundle>-<node version>-<arch>-<size>.<mtime in ns>.<inode>`: a rebuilt or replaced bundle (a new
 * file, or the same one rewritten, which moves its nanosecond mtime) or another Node never meets this file.
 */
function cacheName(filename: string): string {
  const stats = statSync(filename, { bigint: true });
  return `${basename(filename)}-${process.version}-${process.arch}-${stats.size}.${stats.mtimeNs}.${stats.ino}`;
}

/** A `#!` line is valid only at the very start of a script: blanked, keeping the line count. */
function withoutHashbang(content: string): string {
  return content.startsWith('#!') ? `//${content.slice(2)}` : content;
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Written to a private temp file and renamed over the name; older caches of the same bundle and Node go. */
function writeCache(path: string, script: Script): void {
  const directory = dirname(path);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
    const stem = basename(path).slice(0, basename(path).lastIndexOf('-') + 1);
    for (const name of readdirSync(directory)) if (name.startsWith(stem) && name !== basename(path)) unlinkSync(join(directory, name));
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Never written.
    }
  }
}
