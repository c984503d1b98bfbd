// What code-server's first install needs on the machine: its postinstall builds native modules
// (node-gyp: a C++ compiler, make and Python 3) and one of them (kerberos) includes
// <gssapi/gssapi.h>. Without them the install fails minutes in, deep in node-gyp's output; checked
// first, the person is told at once what to install. Only asked while code-server is not installed.
import { spawnSync } from 'node:child_process';

export interface Prerequisite {
  readonly what: string;
  /** The Debian/Ubuntu package that provides it. */
  readonly debianPackage: string;
}

/** How the machine is asked (injected by the tests). */
export interface Probe {
  /** The command runs (`--version` exits 0). */
  hasCommand(command: string): boolean;
  /** The C++ compiler finds `header` (`#include <header>` preprocesses). */
  hasHeader(header: string): boolean;
}

export const systemProbe: Probe = {
  hasCommand: (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0,
  hasHeader: (header) => spawnSync('c++', ['-E', '-x', 'c++', '-'], { input: `#include <${header}>\n`, stdio: ['pipe', 'ignore', 'ignore'] }).status === 0,
};

/** What is missing to build code-server, in the order to install it (empty: nothing). */
export function missingPrerequisites(probe: Probe = systemProbe): Prerequisite[] {
  const missing: Prerequisite[] = [];
  const compiler = probe.hasCommand('c++');
  if (!compiler || !probe.hasCommand('make')) missing.push({ what: 'a C++ toolchain (c++, make)', debianPackage: 'build-essential' });
  if (!probe.hasCommand('python3')) missing.push({ what: 'Python 3', debianPackage: 'python3' });
  // Without a compiler the header cannot be looked for: it is named too, so one install covers all.
  if (!compiler || !probe.hasHeader('gssapi/gssapi.h')) missing.push({ what: 'the Kerberos headers (gssapi/gssapi.h)', debianPackage: 'libkrb5-dev' });
  return missing;
}

/** One message naming what is missing and the command that installs it; null when nothing is. */
export function prerequisitesMessage(missing: readonly Prerequisite[]): string | null {
  if (missing.length === 0) return null;
  return (
    `code-server's first install builds native modules and needs ${missing.map((item) => item.what).join(', ')}, not found on this machine.\n` +
    `On Debian or Ubuntu: sudo apt-get install ${missing.map((item) => item.debianPackage).join(' ')}\n` +
    '(then run npm start again; this is checked only until code-server is installed in the cache)'
  );
}
