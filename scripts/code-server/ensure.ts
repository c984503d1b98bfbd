// `npx tsx scripts/code-server/ensure.ts`: installs code-server and Node 24 into the cache now,
// so the first e2e run or `npm start` does not pay for it. Prints where they are.
import { ensureCodeServer } from './install';

const install = ensureCodeServer();
console.log(`code-server: ${install.entry}\nnode: ${install.node}`);
