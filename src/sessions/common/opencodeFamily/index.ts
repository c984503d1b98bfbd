// The OpenCode family's session reading and fork writing, shared by OpenCode's adapter and its forks'
// (Kilo's) without one adapter importing another: each names its flavour (flavour.ts) and builds its
// port from it (ports.ts). The database itself is read through ../opencodeStore.
export type { OpencodeFlavour } from './flavour';
export { opencodeFamilyPorts, type OpencodeFamilyPorts } from './ports';
export { parseSessionPath, resolveDatabases, sessionPath, type OpencodeWhere, type SessionPath } from './paths';
export { storageFileOf, storageRefusal, type StorageFile } from './storageFile';
