// The log in readable sentences ("ann drew orange", "bob's take row 2 was rejected: ..."), from
// the templates each game's spec holds (GET /v1/titles; the rule is stated in engine/spec.py).
// The command line says the same with engine/sentences.py; a test holds the two to the same
// text for every entry of the golden replays. The log reads as a game record: a submission
// and its verdict are one line, the verdict's (`folded` names the submissions so read).

// A section `[said|else]`, or a field `{name}`, `{name:how}`, `{?name}`; one pass over the
// template, so nothing a value holds is read as a template.
const PART = /\[([^\[\]|]*)(?:\|([^\[\]]*))?\]|\{(\?)?([a-z_]+)(?::([a-z]+))?\}/g;
const FIELD = /\{(\?)?([a-z_]+)(?::([a-z]+))?\}/g;

function who(players, seat) {
  if (seat === null || seat === undefined) return "";
  // A seat that is no number acts for the whole table (a table action).
  if (!Number.isInteger(seat)) return "the table";
  return seat >= 0 && seat < players.length ? players[seat] : `seat ${seat}`;
}

function value(v) {
  if (v === null || v === undefined) return "(hidden)";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.map(value).join(", ") || "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${value(x)}`).join(", ");
  return String(v);
}

const HOW = {
  seat: (v, players) => (v === null || v === undefined ? "nobody" : who(players, v)),
  seats: (v, players) => v.map((s) => who(players, s)).join(", ") || "nobody",
  each: (v, players) => v.map((x, s) => `${who(players, s)} ${value(x)}`).join(", "),
  card: (v) => (v === null || v === undefined ? "a hidden card" : value(v)),
  pile: (v) => (v === "deck" ? "the deck" : `the ${v} pile`),
  plus: (v) => v.map(value).join(" + "),
  counts: (v) => Object.entries(v).map(([k, n]) => `${value(n)} ${k}`).join(", "),
  sources: (v, players) => Object.entries(v)
    .map(([k, seats]) => `${k} from ${seats.map((s) => who(players, s)).join(", ")}`).join("; "),
  words: (v) => String(v).replace(/-/g, " "),
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

/** What no template says, in words: each field that holds something, by its name; a true flag
 *  by its name alone; nothing for a withheld, false or empty field. */
function plainly(values, players, skip) {
  return Object.entries(values).filter(([k, v]) => !skip.includes(k) && present(v)).map(([k, v]) => {
    const name = k.replace(/_/g, " ");
    if (v === true) return name;
    if (k.endsWith("seat") || k === "controller" || k === "taken_by") return `${name} ${who(players, v)}`;
    return `${name} ${value(v)}`;
  }).join(", ");
}

/** A move as a short phrase, by its game's `says`; one the spec cannot say, as its type and
 *  fields in words ("takeback to 5"). */
export function label(move, spec, players = []) {
  if (!move) return "a hidden move";
  const template = spec && spec.says[move.type];
  const said = template ? render(template, move, players) : null;
  if (said !== null) return said;
  const kind = String(move.type ?? "move").replace(/-/g, " ");
  return [kind, plainly(move, players, ["type"])].filter(Boolean).join(" ");
}

/** A fact an accepted move produced, by its game's `facts`; otherwise said plainly: its seat,
 *  its kind, its details. */
export function fact(f, players, spec) {
  const template = spec && spec.facts[f.type];
  const said = template ? render(template, f, players) : null;
  if (said !== null) return said;
  const details = plainly(f, players, ["type", "seat", "hidden"]);
  return [who(players, f.seat), f.type.replace(/-/g, " "), details].filter(Boolean).join(" ");
}

/** The submissions among `entries` whose verdict is among them too: each reads as one line
 *  with its verdict, the verdict's. */
export function folded(entries) {
  const submitted = new Set(entries.filter((e) => e.type === "move-submitted").map((e) => e.seq));
  return new Set(entries.filter((e) => submitted.has(e.of)).map((e) => e.of));
}

/** One log entry as a sentence; `bySeq` finds the submission a verdict is about. */
export function sentence(entry, players, bySeq, spec) {
  const name = who(players, entry.seat);
  switch (entry.type) {
    case "game-created":
      return `${entry.game} was set up for ${entry.players.join(", ")}`;
    case "move-submitted":
      return entry.move ? `${name} submitted: ${label(entry.move, spec, players)}`
        : `${name} submitted a move, kept secret until it is judged`;
    case "move-accepted": {
      const effects = (entry.effects || []).map((f) => fact(f, players, spec));
      return effects.length ? effects.join("; ") : `${name}: ${label(entry.move, spec, players)}`;
    }
    case "move-rejected": {
      const submitted = bySeq.get(entry.of);
      const what = submitted && submitted.move ? label(submitted.move, spec, players) : "move";
      return entry.detail
        ? `${name}'s ${what} was rejected: ${entry.detail}`
        : `${name}'s ${what} was rejected (the reason is for ${name}'s eyes)`;
    }
    case "game-finished":
      if (!("seed" in entry)) {  // a recorded game: dealt at the table, by nobody here
        return "the game is over; its cards were dealt at the table: no seed to reveal";
      }
      return `the game is over; the seed is revealed: ${entry.seed}`;
    default:
      return [name, entry.type.replace(/-/g, " ")].filter(Boolean).join(" ");
  }
}

/** Each accepted submission among `entries` to its verdict's seq: the line the log shows it on. */
export function verdictLines(entries) {
  return new Map([...entries].filter((e) => e.type === "move-accepted").map((e) => [e.of, e.seq]));
}

/** The lines of the log a score component's `events` stand for, each with what it brings the
 *  component (engine.sentences.cited, the same rule): a submission as its verdict's line, the
 *  setup (entry 1) as the spec's `dealt` says ("ann's starting card: green"). `lines` is
 *  `verdictLines` of the log in `bySeq`. */
export function cited(component, seat, bySeq, players, spec, lines = verdictLines(bySeq.values())) {
  const out = new Map();
  for (const event of component.events || []) {
    const line = lines.get(event) ?? event;
    const entry = bySeq.get(line);
    if (out.has(line) || !entry) {
      if (!out.has(line)) out.set(line, "");
      continue;
    }
    const dealt = entry.type === "game-created" && spec ? spec.dealt : null;
    const said = dealt ? render(dealt, { seat, label: component.label }, players) : null;
    out.set(line, said || sentence(entry, players, bySeq, spec));
  }
  return [...out].sort((a, b) => a[0] - b[0]);
}
