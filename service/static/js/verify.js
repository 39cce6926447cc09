// A replay checked in the browser, trusting nobody and asking the server nothing: the hash
// chain (SHA-256), every signature a keyed seat owed, the head against the server's published
// keys, and the receipts this browser kept. The same checks as the server's and the command
// line's (engine/log.py `broken_links`, engine/signatures.py), so that a player need not take
// the server's word for its own log.
import { canonical, sha256, unb64, utf8 } from "./canonical.js";

const FORMAT = "tablelog-replay/1";
const GENESIS = "0".repeat(64);
const RECEIPT_FIELDS = ["game", "seq", "hash", "at", "kid", "sig"];

/** What was checked and what fails: `{entries, chain, redacted, signatures: {checked, seats},
 *  head, receipts, mismatches: [{seq, what, detail}]}`. `chain` is null when only entries
 *  withheld from the replay's downloader fail to hash (no evidence of tampering); `head` is
 *  null with no head or no keys; `keys` a `/v1/keys` list, `receipts` the ones a player kept. */
export async function verifyReplay(document, { keys = null, receipts = [] } = {}) {
  if (!document || document.format !== FORMAT) throw new Error(`it is not a replay: its format is not ${FORMAT}`);
  const entries = document.entries;
  if (!Array.isArray(entries) || !entries.length) throw new Error("it is not a replay: it has no entries");
  const game = typeof document.id === "string" ? document.id : "";
  const mismatches = [];
  const { chain, redacted } = await chainOf(entries, mismatches);
  const signatures = await seatSignatures(entries, game, mismatches);
  const head = keys && document.head ? await headOf(document.head, entries, game, keys, mismatches) : null;
  const kept = keys ? await extended(receipts, entries, game, keys, mismatches) : null;
  mismatches.sort((a, b) => a.seq - b.seq);
  return { entries: entries.length, chain, redacted, signatures, head, receipts: kept, mismatches,
           ok: chain !== false && !mismatches.length };
}

// -- the chain -------------------------------------------------------------------------------

async function chainOf(entries, mismatches) {
  let previous = GENESIS;
  let broken = false;
  const redacted = [];
  for (const [index, entry] of entries.entries()) {
    const seq = index + 1;
    const problem = await linkProblem(previous, entry, seq);
    if (problem && isRedacted(entry)) redacted.push(seq);
    else if (problem) {
      broken = true;
      mismatches.push({ seq, what: "hash", detail: problem });
    }
    previous = entry && typeof entry.hash === "string" ? entry.hash : "";
  }
  return { chain: broken ? false : redacted.length ? null : true, redacted };
}

async function linkProblem(previous, entry, seq) {
  if (!entry || entry.seq !== seq) return `the entries are not numbered 1, 2, …: this one says ${entry && entry.seq}`;
  const { hash, ...body } = entry;
  let made;
  try {
    made = await sha256(previous + canonical(body));
  } catch (error) {
    return `it cannot be hashed: ${error.message}`;
  }
  return made === hash ? null
    : `its hash is not SHA-256 of the previous entry's hash and its own canonical JSON (${made})`;
}

/** Whether some field of `value` was withheld from its viewer (hidden and null). */
function isRedacted(value) {
  if (Array.isArray(value)) return value.some(isRedacted);
  if (!value || typeof value !== "object") return false;
  if ((value.hidden || []).some((k) => value[k] === null || value[k] === undefined)) return true;
  return Object.values(value).some(isRedacted);
}

// -- seats' signatures -----------------------------------------------------------------------

/** Every submission of a keyed seat against the key its log registered (engine.signatures,
 *  `seat_mismatches`): how many were checked, and which seats were keyed. */
async function seatSignatures(entries, game, mismatches) {
  const keys = { ...((entries[0] && entries[0].public_keys) || {}) };
  const conceded = new Set();
  let checked = 0;
  for (const entry of entries) {
    if (!entry) continue;
    const seat = entry.seat;
    if (entry.type === "seat-key-registered") {
      if (String(seat) in keys) mismatches.push(signature(entry.seq, `seat ${seat} registered a second key`));
      else keys[String(seat)] = entry.public_key;
    } else if (entry.type === "move-accepted") {
      for (const fact of entry.effects || []) {
        if (fact.type === "conceded") conceded.add(fact.seat);
        if (fact.type === "timed-out") for (const s of fact.seats || []) conceded.add(s);
      }
    } else if (entry.type === "move-submitted" && String(seat) in keys) {
      // A turn played for a seat that conceded needs no signature; a move withheld from the
      // downloader cannot be checked (the chain says so already).
      if ((entry.conceded && conceded.has(seat)) || entry.move === null || entry.move === undefined) continue;
      checked += 1;
      if (!("signature" in entry)) {
        mismatches.push(signature(entry.seq, `seat ${seat}'s move carries no signature, and the seat registered a key`));
        continue;
      }
      const payload = { game, seat, expected_version: entry.expected_version ?? null, move: entry.move };
      if (!await verified(keys[String(seat)], entry.signature, payload)) {
        mismatches.push(signature(entry.seq, `seat ${seat}'s signature does not verify with its registered key`));
      }
    }
  }
  return { checked, seats: Object.keys(keys).map(Number).sort((a, b) => a - b) };
}

function signature(seq, detail) {
  return { seq, what: "signature", detail };
}

/** Whether `sig` (base64url) is `publicKey`'s Ed25519 signature over `value`'s canonical JSON. */
export async function verified(publicKey, sig, value) {
  try {
    const key = await crypto.subtle.importKey("raw", unb64(publicKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, unb64(sig), utf8(canonical(value)));
  } catch {
    return false; // not a key, not a signature, or a value with nothing canonical to sign
  }
}

// -- the server's receipts -------------------------------------------------------------------

/** Why `receipt` is not the server's signature by one of `keys`, made while that key was in
 *  use; null when it is (engine.signatures, `receipt_problem`). */
export async function receiptProblem(receipt, keys) {
  if (!receipt || typeof receipt !== "object" || RECEIPT_FIELDS.some((f) => !(f in receipt))) {
    return `a receipt has the fields ${RECEIPT_FIELDS.join(", ")}`;
  }
  const key = keys.find((k) => k.kid === receipt.kid);
  if (!key) return `it is signed with key ${receipt.kid}, which is not among the server's keys`;
  const { sig, ...signed } = receipt;
  if (!await verified(key.public_key, sig, signed)) return `its signature does not verify with key ${receipt.kid}`;
  // ISO 8601 in UTC to the millisecond, all in one form: compared as text.
  const at = String(receipt.at);
  if ((key.from && at < key.from) || (key.until && at > key.until)) {
    return `it is dated ${at}, outside the time key ${receipt.kid} was in use (${key.from || "always"} to ${key.until || "now"})`;
  }
  return null;
}

async function headOf(head, entries, game, keys, mismatches) {
  let problem = await receiptProblem(head, keys);
  const last = entries[entries.length - 1] || {};
  if (!problem && head.game !== game) problem = `it is the receipt of game ${head.game}, not ${game}`;
  else if (!problem && (head.seq !== last.seq || head.hash !== last.hash)) {
    problem = `it signs entry ${head.seq} with hash ${head.hash}, not the last entry (${last.seq}, ${last.hash})`;
  }
  if (problem) mismatches.push({ seq: Number.isInteger(head.seq) ? head.seq : entries.length, what: "head", detail: problem });
  return { seq: head.seq, kid: head.kid, ok: !problem };
}

/** Whether the log extends every receipt kept: the same hash at each one's seq. */
async function extended(receipts, entries, game, keys, mismatches) {
  const mine = receipts.filter((r) => r && r.game === game);
  for (const receipt of mine) {
    let problem = await receiptProblem(receipt, keys);
    const seq = receipt.seq;
    if (!problem && !(seq >= 1 && seq <= entries.length)) {
      problem = `the log has ${entries.length} entries: it does not reach entry ${seq}, which the server signed`;
    } else if (!problem && entries[seq - 1].hash !== receipt.hash) {
      problem = `entry ${seq} hashes to ${entries[seq - 1].hash}, but the server signed ${receipt.hash} for it at ${receipt.at}: the log was rewritten at or before it`;
    }
    if (problem) mismatches.push({ seq: Number.isInteger(seq) ? seq : 0, what: "receipt", detail: problem });
  }
  return { checked: mine.length, ok: !mismatches.some((m) => m.what === "receipt") };
}
