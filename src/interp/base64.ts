// Base64 (RFC 4648, with padding) without Node's Buffer, so the core runs in a browser.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + (i + 1 < b.length ? ALPHABET[(n >> 6) & 63]! : '=') + (i + 2 < b.length ? ALPHABET[n & 63]! : '=');
  }
  return out;
}

/** Decodes base64 text; undefined when it is not base64. */
export function decodeBase64(s: string): Uint8Array | undefined {
  const t = s.replace(/\s+/g, '');
  if (t.length % 4 !== 0) return undefined;
  const pad = t.endsWith('==') ? 2 : t.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((t.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < t.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const c = t.charCodeAt(i + k);
      const isPad = c === 61 && i + k >= t.length - pad;
      const v = isPad ? 0 : c < 128 ? INDEX[c] ?? -1 : -1;
      if (v < 0) return undefined;
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 0xff;
    if (o < out.length) out[o++] = (n >> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}
