// A replay checked in this browser (verify.js), with the server's keys this browser kept or a
// keys file its user gives, and the receipts it kept for the game; and what the check says,
// drawn: what was checked, how many of each, and every entry that fails with the reason.
import { el } from "./dom.js";
import { receipts, serverKeys } from "./kept.js";
import { verdict, whatBreaks } from "./report.js";
import { verifyReplay } from "./verify.js";

/** `document` checked here; `given` is a `/v1/keys` document the user gave, if any. */
export async function checkHere(document, given = null) {
  const keys = given ? given.keys : await serverKeys(document.head && document.head.kid);
  const result = await verifyReplay(document, { keys, receipts: receipts(document.id) });
  return { ...result, keysFrom: given ? "given" : keys ? "kept" : null };
}

function chainSaid(c) {
  const breaks = c.mismatches.find((m) => m.what === "hash");
  return verdict(c.chain, `holds over all ${c.entries} entries (SHA-256)`,
    `breaks at entry ${breaks && breaks.seq}`, `holds but for ${c.redacted.length} entries withheld from whoever downloaded it`);
}

function signaturesSaid(c) {
  const { checked, seats } = c.signatures;
  if (!seats.length) return el("span", { class: "unknown", text: "no seat registered a key: none to check" });
  const bad = c.mismatches.filter((m) => m.what === "signature").length;
  return verdict(!bad, `${checked} checked, each made with its seat's key (seats ${seats.join(", ")})`,
    `${bad} of ${checked} do not verify`);
}

function headSaid(c) {
  if (!c.head) {
    return el("span", { class: "unknown", text: c.keysFrom ? "this replay carries none"
      : "not checked: no server keys kept here (give a saved /v1/keys file)" });
  }
  return verdict(c.head.ok, `entry ${c.head.seq} signed by the server's key ${c.head.kid} (${c.keysFrom === "given" ? "the keys file given" : "keys kept by this browser"})`,
    `does not verify against key ${c.head.kid}`);
}

function receiptsSaid(c) {
  if (!c.receipts) return el("span", { class: "unknown", text: "not checked: no server keys" });
  if (!c.receipts.checked) return el("span", { class: "unknown", text: "this browser kept none for this game" });
  const first = c.mismatches.find((m) => m.what === "receipt");
  return verdict(c.receipts.ok, `${c.receipts.checked} kept, each extended by this replay`,
    `the replay differs from what the server signed at entry ${first && first.seq}`);
}

/** What a mismatch is, with its detail when it has one. */
function why(m) {
  return m.detail ? `${m.what}: ${m.detail}` : m.what;
}

/** Draw the check `c` into `container`; `go(seq)` steps to an entry. `report` is the server's
 *  of the same replay, when there is one (a file opened on /replay): what its re-judging finds
 *  that no check here can (a verdict, a stored score) fails this one too, so that the page
 *  says one verdict. */
export function drawChecked(container, c, go, report = null) {
  const judged = report ? report.mismatches.filter((m) => !c.mismatches.some((k) => k.seq === m.seq && k.what === m.what)) : [];
  const ok = c.ok && !judged.length;
  const first = c.mismatches[0] || judged[0];
  const said = !c.ok ? `✘ checked in this browser: entry ${first.seq} fails (${why(first)})`
    : judged.length ? `✘ does not check out: entry ${first.seq} fails (${why(first)}), found by the server re-judging it; the hash chain, signatures, head and receipts below hold as checked in this browser`
      : "✔ checked in this browser, asking the server nothing: nothing fails";
  container.replaceChildren(el("div", {},
    el("p", { class: `overall ${ok ? "good" : "bad"}`, id: "checked-ok", "data-ok": String(ok),
              "data-first": first ? first.seq : "" }, said),
    el("ul", {},
      el("li", { "data-checked": "chain" }, "hash chain: ", chainSaid(c)),
      el("li", { "data-checked": "signatures" }, "seat signatures: ", signaturesSaid(c)),
      el("li", { "data-checked": "head" }, "head: ", headSaid(c)),
      el("li", { "data-checked": "receipts" }, "receipts: ", receiptsSaid(c))),
    whatBreaks(c.mismatches, go)));
}
