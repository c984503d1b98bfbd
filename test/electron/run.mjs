// `npm run test:electron`: the smoke suite in desktop VS Code through @vscode/test-electron.
// Desktop VS Code must be downloaded; where that is impossible (no network) this says so and exits
// non-zero: a suite that could not run never counts as passed.
import * as esbuild from 'esbuild';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const suite = join(root, 'dist-test', 'electron', 'index.js');

await esbuild.build({
  entryPoints: [join(root, 'test/electron/suite/index.ts')],
  outfile: suite,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});

let executable;
try {
  executable = await downloadAndUnzipVSCode(process.env.CONTEXT_LENS_VSCODE_VERSION ?? 'stable');
} catch (error) {
  console.error(`test:electron: NOT RUN — desktop VS Code could not be downloaded (${error instanceof Error ? error.message : String(error)}).`);
  console.error(
    'test:electron: this suite needs internet access; it did not pass. The code-server e2e suite (npm run test:e2e) covers the same checks offline.',
  );
  process.exit(3);
}

try {
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [join(root, 'samples', 'demo-workspace'), '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (error) {
  console.error(`test:electron: failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
