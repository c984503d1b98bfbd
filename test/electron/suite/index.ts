// Entry point that desktop VS Code loads as extensionTestsPath: runs the mocha suite inside the
// extension host and rejects when any test fails.
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  mocha.suite.emit('pre-require', globalThis, 'smoke.test', mocha);
  // Loaded after pre-require so describe/it exist as globals.
  await import('./smoke.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
