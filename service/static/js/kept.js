// What this browser keeps as evidence, in its own storage and never sent anywhere: every
// receipt the server gave it, per game, and the server's published keys (GET /v1/keys), asked
// for once, so that a replay is checked later with no server at all.

const RECEIPTS = "tablelog:receipts:";
const KEYS = "tablelog:keys";

/** Keep `receipt` (an answer's, for its game); one already kept is not kept twice. */
export function keepReceipt(receipt) {
  if (!receipt || typeof receipt.game !== "string") return;
  const all = receipts(receipt.game);
  if (all.some((r) => r.sig === receipt.sig)) return;
  localStorage.setItem(RECEIPTS + receipt.game, JSON.stringify([...all, receipt]));
}

export function receipts(game) {
  return JSON.parse(localStorage.getItem(RECEIPTS + game) || "[]");
}

/** The server's keys as kept (a `/v1/keys` list), or null when none were. */
export function keptKeys() {
  const kept = localStorage.getItem(KEYS);
  return kept ? JSON.parse(kept).keys : null;
}

/** The server's keys: the kept ones, asked for (and kept) when none are or when `kid` is not
 *  among them (a key the server took since); the kept ones when the server cannot be asked. */
export async function serverKeys(kid = null) {
  const kept = keptKeys();
  if (kept && (kid === null || kept.some((k) => k.kid === kid))) return kept;
  try {
    const answer = await fetch("/v1/keys");
    if (!answer.ok) return kept;
    const document = await answer.json();
    localStorage.setItem(KEYS, JSON.stringify(document));
    return document.keys;
  } catch {
    return kept; // unreachable: what was kept is all there is
  }
}
