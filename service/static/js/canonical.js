// The bytes that are hashed and signed, as the server makes them (engine/log.py, `canonical`):
// JSON with keys sorted, no whitespace, UTF-8 (non-ASCII as itself), and the base64url without
// padding that keys and signatures travel in. A log holds integers, strings, booleans, null,
// lists and objects, never a fraction: those are written byte for byte as Python writes them.

const encoder = new TextEncoder();

/** `value`'s canonical JSON text: its UTF-8 bytes are what the chain hashes and a seat signs. */
export function canonical(value) {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    // JSON.parse rounds an integer past 2^53: its text here would not be the server's.
    if (!Number.isSafeInteger(value)) throw new TypeError(`${value} is not an integer a browser holds exactly`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  throw new TypeError(`a log holds no ${typeof value}`);
}

/** Python sorts keys by code point; JavaScript by UTF-16 unit, which puts a character past
 *  U+FFFF (a surrogate pair, D800-DFFF) before one in E000-FFFF. Shifting the two ranges
 *  restores the code point order. */
function byCodePoint(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

function inCodePointOrder(unit) {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

export function utf8(text) {
  return encoder.encode(text);
}

/** SHA-256 of `text`'s UTF-8 bytes, in hex. */
export async function sha256(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function b64(bytes) {
  const raw = String.fromCharCode(...new Uint8Array(bytes));
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url text; a TypeError when it is not base64url. */
export function unb64(text) {
  if (typeof text !== "string" || /[^A-Za-z0-9_-]/.test(text)) throw new TypeError("not base64url");
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}
