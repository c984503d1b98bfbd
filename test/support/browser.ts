// Debian's Chromium driven by playwright-core: no browser download, flags that keep it off the
// (closed) network, a fresh profile per launch.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = CANDIDATES.find((candidate): candidate is string => !!candidate && existsSync(candidate));
  if (!found) throw new Error("No Chromium found: install Debian's `chromium` (apt-get install chromium) or set CHROMIUM_PATH");
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
