// What an image costs in the prompt, from its own header. Anthropic documents an image as about
// width × height / 750 tokens after it is scaled to fit 1,568 pixels on its long edge (and ~1.15
// megapixels); OpenAI and Google charge the same order. The dimensions are read from the first bytes
// of the base64 data (PNG, JPEG, GIF, WebP), so a screenshot counts ~1,000 tokens, not as the 3 of
// its placeholder text. Used only where no call measured the image yet, or to split a measured step.

/** Pixels per token (Anthropic's documented rule). */
const PIXELS_PER_TOKEN = 750;
const MAX_EDGE = 1568;
const MAX_PIXELS = 1_150_000;
/** An image whose size cannot be read: a typical screenshot. */
export const UNKNOWN_IMAGE_TOKENS = 1_000;
/** Enough bytes for every header read here (a JPEG's SOF may follow EXIF data). */
const HEADER_BYTES = 64 * 1024;

export function imageTokens(block: { type: string; [key: string]: unknown }): number {
  const source = block.source as { type?: unknown; data?: unknown } | undefined;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return UNKNOWN_IMAGE_TOKENS;
  const size = dimensions(Buffer.from(source.data.slice(0, (HEADER_BYTES / 3) * 4), 'base64'));
  return size === null ? UNKNOWN_IMAGE_TOKENS : tokensFor(size.width, size.height);
}

export function tokensFor(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return UNKNOWN_IMAGE_TOKENS;
  let scale = Math.min(1, MAX_EDGE / Math.max(width, height));
  scale = Math.min(scale, Math.sqrt(MAX_PIXELS / (width * height)));
  return Math.max(1, Math.ceil((width * scale * (height * scale)) / PIXELS_PER_TOKEN));
}

function dimensions(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 30 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return webp(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  return null;
}

function webp(bytes: Buffer): { width: number; height: number } | null {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === 'VP8 ' && bytes.length >= 30) return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the size. */
function jpeg(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    const length = bytes.readUInt16BE(at + 2);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}
