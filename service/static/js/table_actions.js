// What a viewer may do at the table besides the title's moves (docs/api.md, "Table actions"):
// a seat proposes a takeback, accepts or declines another's (withdraws its own), concedes,
// votes to abandon and claims a timeout; the table takes back at once, abandons with a reason,
// concedes for a seat and claims a timeout. Only what the viewer may do now is offered; each is
// posted as a move through the viewer's own `submit`, which shows the verdict or the rule that
// refused it. What may be done is read from the state at the log's head (its `table`).
import { el } from "./dom.js";
import { IDLE, late, watchClock } from "./clock.js";

// A state whose table saw nothing yet carries no `table`: nobody conceded, nothing is open.
const QUIET = { conceded: [], proposal: null, votes: [], abandoned: null, clock: null };

/** The submissions the takebacks among `entries` took off the line (their `undone`). */
export function undoneBy(entries) {
  const undone = new Set();
  for (const entry of entries) {
    for (const effect of entry.effects || []) {
      if (effect.type === "taken-back") for (const seq of effect.undone) undone.add(seq);
    }
  }
  return undone;
}

/** Whether the log shows `entry` as taken back: an undone submission, or its verdict. */
export function takenBack(entry, undone) {
  return undone.has(entry.seq) || (entry.type !== "move-submitted" && undone.has(entry.of));
}

/** Whether a takeback may go to `entry`: the deal, or an accepted verdict still in play. */
function restorable(entry, undone) {
  return entry.seq === 1 || (entry.type === "move-accepted" && !undone.has(entry.of));
}

/** The last entry the table may undo, and where a takeback goes to undo it: the last accepted
 * verdict still in play that is not itself about a takeback (taking one back would go nowhere),
 * and the last place before it a takeback may go to. Null when nothing is left to undo. */
export function lastUndoable(entries, bySeq, undone) {
  for (let i = entries.length - 1; i > 0; i--) {
    const entry = entries[i];
    if (entry.type !== "move-accepted" || undone.has(entry.of)) continue;
    const move = (bySeq.get(entry.of) || {}).move || entry.move || {};
    if (String(move.type).startsWith("takeback")) continue;
    const before = entries.slice(0, i).reverse().find((e) => restorable(e, undone));
    return before ? { entry, to: before.seq } : null;
  }
  return null;
}

export class TableActions {
  /** `node` holds the actions, `clockNode` the turn clock, `undoNode` the table's "undo the
   *  last entry"; `submit({move, seat})` posts one. */
  constructor(node, clockNode, undoNode, submit) {
    this.node = node;
    this.clockNode = clockNode;
    this.undoNode = undoNode;
    this.undoing = null;
    this.submit = submit;
    this.here = el("button", { type: "button", id: "takeback-here", hidden: true });
    this.to = el("input", { type: "number", id: "takeback-to", min: 1, inputmode: "numeric",
                            "aria-label": "the entry to take the game back to" });
    this.reason = el("input", { type: "text", id: "abandon-reason", maxlength: 200,
                                placeholder: "why (optional)", "aria-label": "why the game is abandoned" });
    this.claim = el("button", { type: "button", id: "claim-timeout", hidden: true,
                                onclick: () => this.send({ type: "claim-timeout" }) }, "claim a timeout");
    this.offered = null;
  }

  /** Offer what `viewer` (a seat, "table" or "spectator") may do with `table` the head's side,
   *  when it may act in a game still `running` (`open`); the clock is shown to every viewer. */
  draw({ viewer, table, players, open, running, version, last = null, said = () => "" }) {
    const side = { ...QUIET, ...(table || {}) };
    // An ended game waits for nobody, though an abandoned one's state keeps its last waits.
    const clock = side.clock && (running ? side.clock : { ...side.clock, since: side.clock.since.map(() => IDLE) });
    this.players = players;
    this.viewer = viewer;
    this.version = version;
    const seat = typeof viewer === "number" ? viewer : null;
    const acts = open && (viewer === "table" || (seat !== null && !side.conceded.includes(seat)));
    this.node.hidden = !(open && (viewer === "table" || seat !== null));
    this.to.max = Math.max(1, version - 1);
    // Drawn again only when what may be done changed: the others' moves landing meanwhile leave
    // a half-made choice (a seat picked, a confirmation asked) as it was.
    const offered = JSON.stringify([viewer, acts, players, side.conceded, side.proposal, side.votes]);
    if (offered !== this.offered) {
      this.offered = offered;
      if (!acts) {
        this.node.replaceChildren(seat !== null && side.conceded.includes(seat)
          ? el("p", { id: "you-conceded", text: "you conceded: the service plays your turns" }) : "");
      } else {
        this.node.replaceChildren(el("h3", { text: "at the table" }),
          this.takeback(side, seat), this.conceding(side, seat), this.abandoning(side, seat), this.claim);
      }
    }
    this.undo(open && viewer === "table" ? last : null, said);
    // A claim is offered once a seat other than the claimant is late, as the clock ticks.
    watchClock(this.clockNode, clock, players, (now) => {
      const overdue = late(clock, side.conceded, now);
      this.claim.hidden = !overdue.length || overdue.includes(seat); // no seat claims its own
      this.claim.title = overdue.length ? `late: ${overdue.map((s) => players[s]).join(", ")}` : "";
    });
  }

  /** The timeline shows `entry`: offer to take the game back to it, when a takeback may. */
  shown(entry, undone) {
    const may = entry && entry.seq < this.version && restorable(entry, undone);
    this.here.hidden = !may;
    if (!may) return;
    this.here.textContent = `${this.viewer === "table" ? "take back" : "propose taking back"} to here (entry ${entry.seq})`;
    this.here.onclick = () => this.send({ type: "takeback", to: entry.seq });
    if (document.activeElement !== this.to) this.to.value = entry.seq;
  }

  /** The table undoes the last entry in one tap, asked once more first: a takeback to right
   *  before it. Drawn again only when that entry changed, so a question asked stays asked. */
  undo(last, said) {
    const undoing = last ? `${last.entry.seq}:${last.to}` : null;
    this.undoNode.hidden = !last;
    if (undoing === this.undoing) return;
    this.undoing = undoing;
    this.undoNode.replaceChildren(last ? confirming("undo", `undo the last entry (${last.entry.seq})`,
      `undo entry ${last.entry.seq}, "${said(last.entry)}": take the game back to right after entry ${last.to}?`,
      () => {
        // Sent once: a second tap on "yes" would undo the entry before it too.
        this.undoing = "sent";
        this.undoNode.replaceChildren(el("p", { text: `taking the game back to entry ${last.to}…` }));
        this.send({ type: "takeback", to: last.to });
      }) : "");
    this.undoNode.dataset.to = last ? last.to : "";
  }

  send(move, seat) {
    return this.submit({ move, seat });
  }

  name(seat) {
    return this.players[seat] ?? `seat ${seat}`;
  }

  takeback(side, seat) {
    const open = side.proposal;
    if (open && seat !== null) {
      const said = `${open.seat === seat ? "you" : this.name(open.seat)} proposed taking the game back to entry ${open.to}`;
      const accepted = open.accepted.length ? ` (accepted by ${open.accepted.map((s) => this.name(s)).join(", ")})` : "";
      const decline = (text, id) => el("button", { type: "button", id,
        onclick: () => this.send({ type: "takeback-decline", of: open.seq }) }, text);
      const answer = open.seat === seat ? decline("withdraw it", "takeback-withdraw")
        : open.accepted.includes(seat) ? "you accepted it: waiting for the others"
          : [el("button", { type: "button", id: "takeback-accept",
                            onclick: () => this.send({ type: "takeback-accept", of: open.seq }) }, "accept"),
            " ", decline("decline", "takeback-decline")];
      return el("div", { class: "proposal", "data-of": open.seq }, el("p", { text: said + accepted }), answer);
    }
    const verb = seat === null ? "take back" : "propose";
    return el("div", { class: "takeback" },
      open ? el("p", { class: "proposal", text: `${this.name(open.seat)} proposed taking the game back to entry ${open.to}` }) : null,
      this.here,
      el("form", { id: "takeback-form", onsubmit: (e) => {
        e.preventDefault();
        if (this.to.value) this.send({ type: "takeback", to: Number(this.to.value) });
      } }, el("label", {}, "take the game back to right after entry ", this.to, " ",
        el("button", { type: "submit" }, verb))));
  }

  conceding(side, seat) {
    if (seat !== null) {
      return confirming("concede", "concede", "concede: the service plays your turns from now on?",
        () => this.send({ type: "concede" }));
    }
    const playing = this.players.map((_, s) => s).filter((s) => !side.conceded.includes(s));
    const which = el("select", { id: "concede-seat", "aria-label": "the seat conceding" },
      playing.map((s) => el("option", { value: s, text: this.name(s) })));
    return el("div", { class: "concede-for" }, which, " ",
      confirming("concede", "concede for this seat", "concede for this seat: the service plays its turns from now on?",
        () => this.send({ type: "concede" }, Number(which.value))));
  }

  abandoning(side, seat) {
    const votes = side.votes.length ? el("p", { class: "votes", text:
      `voted to abandon: ${side.votes.map((s) => this.name(s)).join(", ")}` }) : null;
    if (seat !== null) {
      if (side.votes.includes(seat)) return el("div", {}, votes, el("p", { text: "you voted: the game is abandoned once every seat playing has" }));
      return el("div", {}, votes, confirming("abandon", "vote to abandon", "vote to abandon the game? It ends once every seat playing has voted",
        () => this.send({ type: "abandon" })));
    }
    return el("div", { class: "abandon" }, votes, this.reason, " ",
      confirming("abandon", "abandon the game", "abandon the game: it ends now, its score not final?",
        () => this.send(this.reason.value ? { type: "abandon", reason: this.reason.value } : { type: "abandon" })));
  }
}

/** A button that asks once more before `act`: what cannot be taken back is confirmed first. */
function confirming(id, text, question, act) {
  const ask = el("button", { type: "button", id, onclick: () => { ask.hidden = true; sure.hidden = false; } }, text);
  const sure = el("span", { class: "confirm", hidden: true }, `${question} `,
    el("button", { type: "button", id: `${id}-confirm`, onclick: () => act() }, "yes"), " ",
    el("button", { type: "button", onclick: () => { ask.hidden = false; sure.hidden = true; } }, "no"));
  return el("span", { class: "confirmable" }, ask, sure);
}
