// Die sieben Siegel: each player's prediction (the seals still held), the supply, the current
// trick, tricks won and the saboteur.
import { card, count, el, hand, handTarget, name, offer, section, seatPanel, shown } from "/static/js/dom.js";
import { colourCard, legend, sample, token } from "/static/js/faces.js";

/** The cards are colour cards; red trumps. */
export const face = colourCard;

function seal(kind) {
  return token(kind, "", `${kind} seal`, { class: "seal" });
}

function seals(counts, path, ctx, target = () => null) {
  return el("span", { class: "seals" }, Object.entries(counts).map(([kind, n]) => offer(
    el("span", { class: "held", "aria-label": `${n} ${kind}` }, seal(kind),
      shown("b", `${path}/${kind}`, n, {}, `×${n}`)),
    ctx, target(kind))));
}

// What the table's tokens mean (scoring.py: 2 points a colour seal left, 3 black, 4 white).
const LEGEND = legend("what the cards and seals mean", [
  [sample(colourCard("R7")), "a card: its colour and number; red trumps"],
  [seal("green"), "a colour seal: a trick of that colour still to win; 2 points if left"],
  [seal("white"), "a white seal: a trick of any colour; 4 points if left"],
  [seal("black"), "a black seal: 3 points if left; it lowers the saboteur's penalty"],
]);

function trick(played, path, ctx) {
  return el("span", { class: "trick" }, played.map((p, i) => el("span", { class: "played" },
    card(p.card, `${path}/${i}/card`, ctx),
    el("small", {}, shown("span", `${path}/${i}/seat`, p.seat, {}, name(ctx, p.seat))))));
}

export function draw(view, ctx) {
  // A recorded deal's hands are named only as their cards are seen: the rest are face down.
  ctx = { ...ctx, handSizes: view.hand_sizes };
  const top = el("div", { class: "summary" },
    count("round", "/round", view.round), ` of ${view.rounds} · phase: `,
    shown("b", "/phase", view.phase), " · saboteur: ",
    shown("b", "/saboteur", view.saboteur, {}, name(ctx, view.saboteur)));
  const middle = el("div", { class: "table-middle" },
    section("supply of seals", {}, seals(view.supply, "/supply", ctx)),
    section("current trick", {}, view.led ? el("span", {}, "led: ", shown("b", "/led", view.led)) : null,
      trick(view.trick, "/trick", ctx)),
    section("last trick", {}, trick(view.last_trick, "/last_trick", ctx)));
  const players = view.seals.map((held, s) => seatPanel(ctx, s,
    el("div", {}, count("cards in hand", `/hand_sizes/${s}`, view.hand_sizes[s]), " · ",
      count("tricks won", `/tricks_won/${s}`, view.tricks_won[s]), " · ",
      count("rounds scored", `/totals/${s}`, view.totals[s]),
      view.saboteur === s ? el("b", { class: "saboteur", text: " · saboteur" }) : null),
    el("div", {}, "seals: ", seals(held, `/seals/${s}`, ctx,
      (seal) => `seal:${s}:${seal}`))));
  return [top, LEGEND, middle, hand(view, ctx),
    el("div", { class: "seats" }, players)];
}

export function targetOf(move, seat) {
  if (move.type === "play") return handTarget(seat, move.card);
  if (move.type === "return") return `seal:${seat}:${move.seal}`;
  return null;
}

/** Predictions are hundreds of moves: chosen by counting seals, not picked from a list. */
export function chooser(choices, { submit, button }) {
  const predictions = choices.filter((c) => c.move.type === "predict");
  if (!predictions.length) return null;
  const colours = [...new Set(predictions.flatMap((c) => Object.keys(c.move.seals)))];
  const first = predictions[0].move.seals;
  const inputs = colours.map((seal) => el("input", { type: "number", min: 0, value: first[seal] || 0, size: 3,
                                                     "data-seal": seal, "aria-label": `${seal} seals` }));
  const found = el("div", { class: "predictions" });
  const predict = () => {
    const wanted = Object.fromEntries(inputs.map((i) => [i.dataset.seal, Number(i.value)]));
    const same = predictions.filter((c) => colours.every((s) => (c.move.seals[s] || 0) === wanted[s]));
    if (same.length === 1) submit(same[0]);
    else if (same.length) found.replaceChildren(el("p", { text: "take the missing seals from:" }), ...same.map(button));
    else found.replaceChildren(el("p", { class: "bad", text: "no such prediction is allowed now" }));
  };
  return {
    handled: new Set(predictions),
    node: el("form", { class: "predict", onsubmit: (e) => { e.preventDefault(); predict(); } },
      el("p", { text: "your prediction:" }),
      inputs.map((input) => el("label", { class: "predict-seal" }, seal(input.dataset.seal), ` ${input.dataset.seal} `, input)),
      el("button", { type: "submit", id: "predict" }, "predict"), found),
  };
}
