// The score panel: the breakdown at a step, with ranks and which way they run; a component names the lines of
// the log that earned it (as the log shows them: a move on its verdict's line), and clicking it
// marks them, each saying what it brought, and jumps the timeline there; the rule of each kind
// of component is said once below. A conceded seat is ranked last and says so; an abandoned
// game's score is provisional for good.
import { duration } from "./clock.js";
import { el } from "./dom.js";
import { cited, verdictLines } from "./sentences.js";

/** "1st", "2nd", "3rd", "4th": a place in the ranking. */
export function placed(rank) {
  const tens = rank % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[rank % 10] || "th";
  return `${rank}${suffix}`;
}

/** "1 point", "-4 points". */
export function points(total) {
  return `${total} point${Math.abs(total) === 1 ? "" : "s"}`;
}

/** How the title ranks, said wherever a ranking is shown: some titles rank the lowest first. */
export function ranking(spec) {
  return spec && spec.lowest_wins ? "the lowest total wins" : "the highest total wins";
}

/** The rules of the components shown, each once, with the labels it scores. */
function rules(players) {
  const labels = new Map();
  for (const c of players.flatMap((p) => p.components)) {
    if (!c.rule) continue;
    const named = labels.get(c.rule) || [];
    if (!named.includes(c.label)) labels.set(c.rule, [...named, c.label]);
  }
  if (!labels.size) return null;
  return el("div", { class: "rules", id: "score-rules" }, el("p", { text: "how each component scores:" }),
    el("ul", {}, [...labels].map(([rule, named]) => el("li", { "data-rule": rule },
      el("b", { text: `${named.join(", ")}: ` }), rule))));
}

/** `log` is the log as the page shows it (`bySeq`, `players`): a component cites its lines. */
export function drawScore(container, score, onComponent, spec, log = { bySeq: new Map(), players: [] }) {
  if (!score) {
    container.replaceChildren(el("p", { text: "…" }));
    return;
  }
  const players = [...score.players].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const lines = verdictLines(log.bySeq.values());
  const cites = (c, seat) => cited(c, seat, log.bySeq, log.players, spec, lines);
  container.replaceChildren(
    el("p", { class: score.final ? "final" : "provisional", id: "score-kind", "data-abandoned": String(Boolean(score.abandoned)) },
      score.final ? "final score" : score.abandoned ? "not final: the game was abandoned, this is its score then"
        : "provisional score",
      score.rounds > 1 ? ` over ${score.rounds} rounds` : ""),
    el("p", { class: "ranking", id: "ranking", "data-lowest-wins": String(Boolean(spec && spec.lowest_wins)) },
      `ranked: ${ranking(spec)}`),
    el("ul", { class: "players" }, players.map((p) => el("li", { "data-seat": p.seat, class: p.conceded ? "conceded" : null },
      el("div", { class: "player-total" },
        el("b", { text: `${p.rank}. ${p.name ?? `seat ${p.seat}`}` }), " ",
        el("span", { class: "total", text: points(p.total) }),
        p.conceded ? el("span", { class: "conceded-mark", text: " · conceded" }) : null,
        p.extras && p.extras.thinking_ms !== undefined
          ? el("small", { class: "thinking", text: ` · thought ${duration(p.extras.thinking_ms)}` }) : null),
      el("ul", { class: "components" }, p.components.map((c) => {
        const found = cites(c, p.seat);
        return el("li", {},
          el("button", {
            type: "button",
            class: "component",
            "data-seat": p.seat,
            "data-events": c.events.join(","),
            "data-lines": found.map(([line]) => line).join(","),
            "data-rule": c.rule || "",
            title: [...found.map(([line, said]) => `${line} ${said}`), c.rule].filter(Boolean).join("\n"),
            onclick: () => onComponent(found.map(([line]) => line), found),
          }, score.rounds > 1 ? `round ${c.round}, ` : "", `${c.label}: `, el("b", { text: c.points })),
          el("small", { text: ` ${c.detail}` }));
      }))))),
    // No component yet (a recorded deal not set up), no rules: nothing, not the word "null".
    rules(players) ?? "",
  );
}
