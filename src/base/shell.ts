// Text as one word for a POSIX shell, for the scripts and command lines Context Lens writes (the
// `ctxlens` launcher, the live proxy's terminal commands, Resume in Terminal). Pure.

/** Single-quoted; a quote inside written as '\'' (nothing else is special there). */
export const shellWord = (value: string): string => `'${value.replace(/'/g, "'\\''")}'`;
