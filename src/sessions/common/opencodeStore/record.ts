// SQLite's record format (https://www.sqlite.org/fileformat2.html#record_format, facts only): a
// header of serial types, then the values. Every length is checked against the bytes that exist.
import { CorruptError } from './pager';

export type Value = null | number | string | Uint8Array;

/** A varint at `at`: its value (up to 2^53 exactly; larger ones only as an approximate size) and its length. */
export function varint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 8; index++) {
    const byte = bytes[at + index];
    if (byte === undefined) throw new CorruptError(`a varint runs past its page at byte ${at}`);
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, index + 1];
  }
  const last = bytes[at + 8];
  if (last === undefined) throw new CorruptError(`a varint runs past its page at byte ${at}`);
  return [value * 256 + last, 9];
}

/** How many bytes a value of serial type `type` takes. */
export function serialSize(type: number): number {
  if (type >= 12) return Math.floor((type - 12) / 2);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0][type] ?? 0;
}

/** The serial types of a record whose first bytes are `bytes` (null: its header is not all there). */
export function serialTypes(bytes: Uint8Array): { types: number[]; bodyStart: number } | null {
  const [headerSize, length] = varint(bytes, 0);
  if (headerSize > bytes.length) return null;
  if (headerSize < length) throw new CorruptError(`a record header of ${headerSize} bytes`);
  const types: number[] = [];
  for (let at = length; at < headerSize;) {
    const [type, used] = varint(bytes, at);
    if (type === 10 || type === 11) throw new CorruptError(`serial type ${type} is reserved`);
    types.push(type);
    at += used;
  }
  return { types, bodyStart: headerSize };
}

const decoders = new Map<number, InstanceType<typeof TextDecoder>>([
  [1, new TextDecoder('utf-8')],
  [2, new TextDecoder('utf-16le')],
  [3, new TextDecoder('utf-16be')],
]);

/** One value of serial type `type` from `bytes` at `at`. */
function valueOf(bytes: Uint8Array, at: number, type: number, encoding: number): Value {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, Math.max(0, Math.min(8, bytes.length - at)));
  switch (type) {
    case 0:
      return null;
    case 1:
      return view.getInt8(0);
    case 2:
      return view.getInt16(0, false);
    case 3:
      return (view.getInt8(0) << 16) | (view.getUint8(1) << 8) | view.getUint8(2);
    case 4:
      return view.getInt32(0, false);
    case 5:
      return view.getInt16(0, false) * 2 ** 32 + view.getUint32(2, false);
    case 6:
      return Number(view.getBigInt64(0, false));
    case 7:
      return view.getFloat64(0, false);
    case 8:
      return 0;
    case 9:
      return 1;
    default: {
      const size = serialSize(type);
      const slice = bytes.subarray(at, at + size);
      return type % 2 === 0 ? slice.slice() : (decoders.get(encoding) ?? decoders.get(1))!.decode(slice);
    }
  }
}

/** Every value of a whole record. */
export function decodeRecord(bytes: Uint8Array, encoding: number): Value[] {
  const header = serialTypes(bytes);
  if (header === null) throw new CorruptError(`a record header claims more bytes than the record's ${bytes.length}`);
  const values: Value[] = [];
  let at = header.bodyStart;
  for (const type of header.types) {
    const size = serialSize(type);
    if (at + size > bytes.length) throw new CorruptError(`a record's values run past its ${bytes.length} bytes`);
    values.push(valueOf(bytes, at, type, encoding));
    at += size;
  }
  return values;
}
