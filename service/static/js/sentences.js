// The log in readable sentences ("ann drew orange", "bob's take row 2 was rejected: ..."), from
// the templates each game's spec holds (GET /v1/titles; the rule is stated in engine/spec.py).
// The command line says the same with engine/sentences.py; a test holds the two to the same
// text for every entry of the golden replays.

// A section `[said|else]`, or a field `{name}`, `{name:how}`, `{?name}`; one pass over the
// template, so nothing a value holds is read as a template.
const PART = /\[([^\[\]|]*)(?:\|([^\[\]]*))?\]|\{(\?)?([a-z_]+)(?::([a-z]+))?\}/g;
const FIELD = /\{(\?)?([a-z_]+)(?::([a-z]+))?\}/g;

function who(players, seat) {
  if (seat === null || seat === undefined) return "";
  return seat >= 0 && seat < players.length ? players[seat] : `seat ${seat}`;
}

function value(v) {
  if (v === null || v === undefined) return "(hidden)";
  if (Array.isArray(v)) return v.map(value).join(", ") || "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${value(x)}`).join(", ");
  return String(v);
}

const HOW = {
  seat: (v, players) => (v === null || v === undefined ? "nobody" : who(players, v)),
  card: (v) => (v === null || v === undefined ? "a hidden card" : value(v)),
  pile: (v) => (v === "deck" ? "the deck" : `the ${v} pile`),
  plus: (v) => v.map(value).join(" + "),
  counts: (v) => Object.entries(v).map(([k, n]) => `${value(n)} ${k}`).join(", "),
  sources: (v) => Object.entries(v).map(([k, seats]) => `${k} from seat ${seats.map(value).join(", ")}`).join("; "),
};

function present(v) {
  if (v === null || v === undefined || v === false || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  return typeof v !== "object" || Object.keys(v).length > 0;
}

/** `template` said of `values`, or null when a field it needs outside sections is missing. */
export function render(template, values, players) {
  const outside = template.replace(PART, (m, said) => (said !== undefined ? "" : m));
  for (const f of outside.matchAll(FIELD)) if (!(f[2] in values)) return null;
  const field = (silent, name, how) => {
    if (silent) return "";
    return how ? HOW[how](values[name], players) : value(values[name]);
  };
  return template.replace(PART, (m, said, otherwise, silent, name, how) => {
    if (said === undefined) return field(silent, name, how);
    const shown = [...said.matchAll(FIELD)].every((f) => present(values[f[2]]));
    return (shown ? said : otherwise || "").replace(FIELD, (_, s, n, h) => field(s, n, h));
  });
}

/** A move as a short phrase, by its game's `says`; one the spec cannot say, as its JSON. */
export function label(move, spec) {
  if (!move) return "a hidden move";
  const template = spec && spec.says[move.type];
  const said = template ? render(template, move, []) : null;
  return said ?? JSON.stringify(move);
}

function detail(k, v, players) {
  if (k === "card" || k === "cards") return v === null ? "a hidden card" : value(v);
  if (k.endsWith("seat") || k === "controller" || k === "taken_by") return `${k.replace(/_/g, " ")} ${v === null ? "nobody" : who(players, v)}`;
  return `${k.replace(/_/g, " ")} ${value(v)}`;
}

/** A fact an accepted move produced, by its game's `facts`; otherwise said plainly: its seat,
 *  its kind, its details. */
export function fact(f, players, spec) {
  const template = spec && spec.facts[f.type];
  const said = template ? render(template, f, players) : null;
  if (said !== null) return said;
  const details = Object.entries(f)
    .filter(([k]) => !["type", "seat", "hidden"].includes(k))
    .map(([k, v]) => detail(k, v, players));
  return [who(players, f.seat), f.type.replace(/-/g, " "), details.join(", ")].filter(Boolean).join(" ");
}

/** One log entry as a sentence; `bySeq` finds the submission a verdict is about. */
export function sentence(entry, players, bySeq, spec) {
  const name = who(players, entry.seat);
  switch (entry.type) {
    case "game-created":
      return `${entry.game} was set up for ${entry.players.join(", ")}`;
    case "move-submitted":
      return entry.move ? `${name} submitted: ${label(entry.move, spec)}` : `${name} submitted a move (hidden until judged)`;
    case "move-accepted": {
      const effects = (entry.effects || []).map((f) => fact(f, players, spec));
      return effects.length ? effects.join("; ") : `${name}: ${label(entry.move, spec)}`;
    }
    case "move-rejected": {
      const submitted = bySeq.get(entry.of);
      const what = submitted && submitted.move ? label(submitted.move, spec) : "move";
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
