// The log in readable sentences: "ann drew orange", "bob's take row 2 was rejected: ...".

/** A move as a short phrase, from the contract's move vocabulary. */
export function label(move) {
  if (!move) return "a hidden move";
  const m = move;
  switch (m.type) {
    case "draw": return m.from ? `draw from ${m.from === "deck" ? "the deck" : `the ${m.from} pile`}` : "draw";
    case "place": return `place on row ${m.row}`;
    case "take": return `take row ${m.row}`;
    case "play": return `play ${m.card}${m.row ? ` on the ${m.row} row` : ""}${m.group !== undefined ? ` to group ${m.group}` : ""}`;
    case "discard": return `discard ${m.card}`;
    case "discard-tile": return `discard ${m.card} for the tile${m.from ? ` (from ${m.from})` : ""}`;
    case "wish": return `take a wish stone with ${m.cards.join(" + ")}`;
    case "pass": return "pass";
    case "predict": return `predict ${Object.entries(m.seals).map(([s, n]) => `${n} ${s}`).join(", ") || "no seals"}${m.from ? ` (taking ${Object.entries(m.from).map(([s, seats]) => `${s} from seat ${seats.join(", ")}`).join("; ")})` : ""}`;
    case "saboteur": return "become the saboteur";
    case "return": return `return the ${m.seal} seal`;
    case "start": return `start with ${m.card}`;
    case "stagecoach": return `put ${m.card} on the stagecoach`;
    case "move": return `move ${m.pawn} to ${m.to} with ${m.card}`;
    case "clover": return `move ${m.pawn} to ${m.to} (clover)`;
    default: return JSON.stringify(m);
  }
}

function who(players, seat) {
  return seat === null || seat === undefined ? "" : players[seat] ?? `seat ${seat}`;
}

function value(v) {
  if (v === null) return "(hidden)";
  if (Array.isArray(v)) return v.map(value).join(", ") || "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${value(x)}`).join(", ");
  return String(v);
}

function hidden(card) {
  return card === null ? "a hidden card" : card;
}

// The facts most entries carry, said as a person would; any other reads generically below.
const SAID = {
  drew: (f, w) => `${w} drew ${hidden(f.card)}${f.source && f.source !== "deck" ? ` from the ${f.source} pile` : ""}`,
  "took-discard": (f, w) => `${w} took ${f.card} from the ${f.pile} pile`,
  placed: (f, w) => `${w} placed ${f.card} on row ${f.row}`,
  took: (f, w) => `${w} took row ${f.row}: ${f.cards.join(", ")}`,
  played: (f, w) => `${w} played ${hidden(f.card)}${f.row ? ` on the ${f.row} row` : ""}`
    + `${f.group !== undefined ? ` to group ${f.group}${f.took_control ? ", taking it" : ""}` : ""}`,
  discarded: (f, w) => `${w} discarded ${hidden(f.card)}`,
  moved: (f, w) => `${w} moved ${f.pawn} from ${f.origin} to ${f.to} with ${f.card}`,
  "trick-won": (f, w) => `${w} won trick ${f.trick}: ${f.cards.join(", ")}`,
  "seal-returned": (f, w) => `${w} returned a ${f.seal} seal`,
  predicted: (f, w) => `${w} predicted ${f.seals.length ? f.seals.join(", ") : "no seals"}`,
  "seal-taken-from": (f, w, players) => `${w} took a ${f.seal} seal from ${who(players, f.from_seat)}`,
};

/** A fact an accepted move produced, said plainly: its seat, its kind, its details. */
export function fact(f, players) {
  const subject = who(players, f.seat);
  if (SAID[f.type] && subject) return SAID[f.type](f, subject, players);
  const verb = f.type.replace(/-/g, " ");
  const details = Object.entries(f)
    .filter(([k]) => !["type", "seat", "hidden"].includes(k))
    .map(([k, v]) => {
      if (k === "card" || k === "cards") return v === null ? "a hidden card" : value(v);
      if (k.endsWith("seat") || k === "controller" || k === "taken_by") return `${k.replace(/_/g, " ")} ${v === null ? "nobody" : who(players, v)}`;
      return `${k.replace(/_/g, " ")} ${value(v)}`;
    });
  return [subject, verb, details.join(", ")].filter(Boolean).join(" ");
}

/** One log entry as a sentence; `bySeq` finds the submission a verdict is about. */
export function sentence(entry, players, bySeq) {
  const name = who(players, entry.seat);
  switch (entry.type) {
    case "game-created":
      return `${entry.game} was set up for ${entry.players.join(", ")}`;
    case "move-submitted":
      return entry.move ? `${name} submitted: ${label(entry.move)}` : `${name} submitted a move (hidden until judged)`;
    case "move-accepted": {
      const effects = (entry.effects || []).map((f) => fact(f, players));
      return effects.length ? effects.join("; ") : `${name}: ${label(entry.move)}`;
    }
    case "move-rejected": {
      const submitted = bySeq.get(entry.of);
      const what = submitted && submitted.move ? label(submitted.move) : "move";
      return entry.detail
        ? `${name}'s ${what} was rejected: ${entry.detail}`
        : `${name}'s ${what} was rejected (the reason is for ${name}'s eyes)`;
    }
    case "game-finished":
      return `the game is over; the seed is revealed: ${entry.seed}`;
    default:
      return entry.type;
  }
}
