// A JSON text walked as bytes, for reading a few fields of a large body and noting where values lie
// without building it: strings are jumped with a native search for their closing quote, containers
// the caller does not read are jumped by a stack of their closers (no recursion, so no depth limit),
// and keys are matched against the names the caller reads without making a string of each (most of
// the time went there). What the caller reads is checked as JSON.parse reads it; a value it jumps
// over is only checked for balance.
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;
/** Longer than any number or keyword; a run past it is not a literal. */
const MAX_LITERAL = 400;

/** A failed step returns -1 after noting the first reason. */
export const FAILED = -1;
/** What Keys.match says of a key the scan does not read (indexOf's not found), and of one that is not JSON. */
export const NOT_READ = -1;
const BAD_KEY = -2;

/**
 * The keys one kind of object has that the scan reads, matched against a key's bytes without making
 * a string of every key (most of the scan's time went there).
 */
export class Keys {
  private readonly bytes: Buffer[];
  constructor(readonly names: readonly string[]) {
    this.bytes = names.map((name) => Buffer.from(name, 'latin1'));
  }

  /** The key's index in `names`, NOT_READ for another key, BAD_KEY for one JSON cannot read. */
  match(scanner: JsonBytes, start: number, end: number): number {
    const { raw } = scanner;
    if (!scanner.plain(start + 1, end - 1)) {
      const key = scanner.value(start, end);
      return typeof key === 'string' ? this.names.indexOf(key) : BAD_KEY;
    }
    const length = end - start - 2;
    for (let key = 0; key < this.bytes.length; key++) {
      const name = this.bytes[key] as Buffer;
      if (name.length !== length) continue;
      let at = 0;
      while (at < length && raw[start + 1 + at] === name[at]) at++;
      if (at === length) return key;
    }
    return NOT_READ;
  }
}

export class JsonBytes {
  reason = '';
  constructor(readonly raw: Buffer) {}

  /** Not JSON as far as the scan can tell. */
  fail(reason: string): number {
    return this.refuse(`body is not JSON (${reason})`);
  }

  /** JSON, but not the Messages shape the proxy edits. */
  refuse(reason: string): number {
    this.reason ||= reason;
    return FAILED;
  }

  space(at: number): number {
    while (isSpace(this.raw[at])) at++;
    return at;
  }

  /** The index after the string that opens at `at`: its closing quote is the first one not escaped. */
  stringEnd(at: number): number {
    if (this.raw[at] !== QUOTE) return this.fail(`a string expected at byte ${at}`);
    let from = at + 1;
    for (;;) {
      const quote = this.raw.indexOf(QUOTE, from);
      if (quote === -1) return this.fail('a string is not closed');
      let backslashes = 0;
      while (this.raw[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }

  /** Any value, jumped over: containers by a stack of their closers (no recursion, so no depth limit). */
  skip(at: number): number {
    const first = this.raw[at];
    if (first === QUOTE) return this.stringEnd(at);
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return this.literal(at);
    const closers: number[] = [];
    let index = at;
    while (index < this.raw.length) {
      const byte = this.raw[index];
      if (byte === QUOTE) {
        index = this.stringEnd(index);
        if (index === FAILED) return FAILED;
        continue;
      }
      if (byte === OPEN_OBJECT) closers.push(CLOSE_OBJECT);
      else if (byte === OPEN_ARRAY) closers.push(CLOSE_ARRAY);
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (closers.pop() !== byte) return this.fail(`an unbalanced bracket at byte ${index}`);
        if (closers.length === 0) return index + 1;
      }
      index++;
    }
    return this.fail('the body ends inside a value');
  }

  literal(at: number): number {
    let end = at;
    while (end < this.raw.length && end - at <= MAX_LITERAL) {
      const byte = this.raw[end];
      if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
      end++;
    }
    return end > at && LITERAL.test(this.raw.toString('latin1', at, end)) ? end : this.fail(`not a JSON value at byte ${at}`);
  }

  /** A small value as JSON.parse reads it (a key, an id, the model); undefined if it is not JSON. */
  value(start: number, end: number): unknown {
    if (this.raw[start] === QUOTE && this.plain(start + 1, end - 1)) return this.raw.toString('latin1', start + 1, end - 1);
    try {
      return JSON.parse(this.raw.toString('utf8', start, end)) as unknown;
    } catch {
      return undefined;
    }
  }

  /** ASCII without escapes reads the same as bytes: most keys and ids, without JSON.parse's cost per call. */
  plain(start: number, end: number): boolean {
    for (let index = start; index < end; index++) {
      const byte = this.raw[index] as number;
      if (byte === BACKSLASH || byte >= 0x80) return false;
    }
    return true;
  }

  /**
   * An object's members: `member` gets each key the caller reads (others as '') and the index where
   * its value starts, and returns the index after the value. A key read twice is refused (JSON.parse
   * would keep the last one, and we might have read the first).
   */
  object(at: number, keys: Keys, member: (key: string, at: number) => number): number {
    if (this.raw[at] !== OPEN_OBJECT) return this.fail(`an object expected at byte ${at}`);
    let index = this.space(at + 1);
    if (this.raw[index] === CLOSE_OBJECT) return index + 1;
    let seen = 0;
    for (;;) {
      const keyEnd = this.stringEnd(index);
      if (keyEnd === FAILED) return FAILED;
      const key = keys.match(this, index, keyEnd);
      if (key === BAD_KEY) return this.fail(`a key with a bad escape at byte ${index}`);
      if (key !== NOT_READ) {
        if (seen & (1 << key)) return this.refuse(`a duplicate '${keys.names[key]}'`);
        seen |= 1 << key;
      }
      index = this.space(keyEnd);
      if (this.raw[index] !== COLON) return this.fail(`':' expected at byte ${index}`);
      index = member(keys.names[key] ?? '', this.space(index + 1));
      if (index === FAILED) return FAILED;
      index = this.space(index);
      if (this.raw[index] === CLOSE_OBJECT) return index + 1;
      if (this.raw[index] !== COMMA) return this.fail(`',' or '}' expected at byte ${index}`);
      index = this.space(index + 1);
    }
  }

  array(at: number, element: (at: number) => number): number {
    if (this.raw[at] !== OPEN_ARRAY) return this.fail(`an array expected at byte ${at}`);
    let index = this.space(at + 1);
    if (this.raw[index] === CLOSE_ARRAY) return index + 1;
    for (;;) {
      index = element(index);
      if (index === FAILED) return FAILED;
      index = this.space(index);
      if (this.raw[index] === CLOSE_ARRAY) return index + 1;
      if (this.raw[index] !== COMMA) return this.fail(`',' or ']' expected at byte ${index}`);
      index = this.space(index + 1);
    }
  }
}
