// An audit or verification report, readable: what holds, what does not, and for a claimed
// total the recomputed one, the difference and the components that make it.
import { el } from "./dom.js";

export function verdict(value, yes, no, unknown) {
  if (value === null || value === undefined) return el("span", { class: "unknown", text: unknown });
  return el("span", { class: value ? "good" : "bad", text: value ? yes : no });
}

/** What the report comes to, in one line: a claim that is not the total fails it as a broken
 *  log does; a log with nothing failing but something not told yet is no failure. */
function overall(report) {
  const failed = report.mismatches.length
    || [report.hash_chain_ok, report.seed_ok, report.replay_ok].includes(false);
  if (failed) return ["bad", "✘ the log does not check out"];
  if (!report.ok) return ["unknown", "? nothing fails, but the log cannot be checked in full yet"];
  const wrong = (report.claims || []).filter((c) => c.difference !== 0).length;
  if (wrong) return ["bad", `✘ the log checks out, but ${wrong === 1 ? "a claim is" : `${wrong} claims are`} not the recomputed total`];
  return ["good", "✔ the log checks out"];
}

export function drawReport(container, report, players, go) {
  const name = (seat) => players[seat] ?? `seat ${seat}`;
  const [kind, said] = overall(report);
  container.replaceChildren(el("div", {},
    el("p", { class: `overall ${kind}`, id: "report-ok", "data-ok": String(report.ok), "data-overall": kind }, said),
    el("ul", {},
      el("li", {}, "hash chain: ", verdict(report.hash_chain_ok, "holds", "broken",
        "unknown (entries withheld from you)")),
      el("li", {}, "seed: ", verdict(report.seed_ok, "matches its commitment", "does not match",
        "not revealed yet")),
      el("li", {}, "verdicts and scores: ", verdict(report.replay_ok, "recomputed the same",
        "differ", "not rebuilt"))),
    whatBreaks(report.mismatches, go),
    report.redacted && report.redacted.length ? el("p", { class: "unknown" },
      `${report.redacted.length} entries were withheld from whoever downloaded this replay`) : null,
    (report.claims || []).map((c) => el("div", { class: "claim", "data-seat": c.seat },
      el("p", {}, `${name(c.seat)} claimed ${c.claimed}, recomputed `, el("b", { text: c.recomputed }),
        ": difference ", el("b", { class: "difference", text: signed(c.difference) })),
      el("ul", { class: "components" }, c.components.map((k) => el("li", {},
        `${k.label}: ${k.points} (${k.detail}; entries ${k.events.join(", ")})`))))),
  ));
}

/** The entries that do not check out, each linked to its step, with why when it is said. */
export function whatBreaks(mismatches, go) {
  if (!mismatches.length) return null;
  return el("div", { class: "mismatches" }, el("h4", { text: "what breaks" }),
    el("ul", {}, mismatches.map((m) => el("li", { class: "mismatch", "data-seq": m.seq, "data-what": m.what },
      el("a", { href: `?at=${m.seq}`, onclick: (e) => { e.preventDefault(); go(m.seq); } },
        `entry ${m.seq}`), `: ${m.what}`, m.detail ? ` (${m.detail})` : ""))));
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
