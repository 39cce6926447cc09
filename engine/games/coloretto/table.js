// Coloretto: the rows, each player's collection by colour, the deck and the last-round card.
import { card, count, el, name, offer, section, seatPanel, shown } from "/static/js/dom.js";
import { legend, sample } from "/static/js/faces.js";

const SPECIAL = {
  "+2": { class: "c-plus2", rank: "+2", word: "points", title: "+2: two points at the end" },
  joker: { class: "c-joker", rank: "★", word: "joker", title: "joker: counts as any colour you collect" },
  "last-round": { class: "c-last", rank: "!", word: "last", title: "the last-round card: this round is the last" },
};

/** A colour card is its colour; the +2, the jokers and the last-round card say what they do. */
export function face(code) {
  return SPECIAL[code] || { class: `c-${code}`, rank: "", word: code, title: `${code} card` };
}

// One legend for the page's life, so that a redraw keeps it open or folded as the reader left it.
const LEGEND = legend("what the cards show", [
  [sample(face("green")), "a colour card: your three biggest colours score, the others count against you"],
  ...Object.keys(SPECIAL).map((code) => [sample(face(code)), face(code).title]),
]);

/** What a recorded deal's setup may name (picker.js): a starting card is a colour card (one
 * of the colours the setup may leave out), of a colour in play; the others as the spec says. */
export function setupCards(field, view, spec) {
  if (field !== "starting_cards") return null;
  return spec.moves.setup.removed_color.choices.filter((colour) => colour !== view.removed_color);
}

export function draw(view, ctx) {
  // A recorded deal not set up yet has no deck to count: nothing of it is known.
  const deck = view.deck_size === null ? el("span", { class: "count" }, "deck: not set up yet")
    : count(view.recorded ? "cards not seen yet" : "deck", "/deck_size", view.deck_size);
  const top = el("div", { class: "summary" },
    count("deal", "/deal", view.deal), ` of ${view.deals} · `, deck, " · ",
    el("span", {}, "last-round card: ",
      shown("b", "/last_round", view.last_round, {}, view.last_round ? "drawn" : "not yet")),
    view.removed_color ? el("span", {}, " · left out: ",
      shown("b", "/removed_color", view.removed_color)) : null);
  const pile = el("div", { class: "deck" },
    el("span", { class: "card back", text: "deck" }),
    view.drawn ? el("span", {}, " drawn: ", card(view.drawn, "/drawn", ctx)) : null);
  const rows = section("rows", { class: "rows" }, view.rows.map((row, r) => offer(
    el("div", { class: "row", "aria-label": `row ${row.row}` },
      el("span", { class: "label", text: `row ${row.row}` }),
      el("span", { class: "cards" }, row.cards.map((c, i) => card(c, `/rows/${r}/cards/${i}`, ctx))),
      row.taken_by === null ? null : el("span", { class: "taken" }, "taken by ",
        shown("b", `/rows/${r}/taken_by`, row.taken_by, {}, name(ctx, row.taken_by)))),
    ctx, `row:${row.row}`)));
  const players = view.collected.map((collection, seat) => seatPanel(ctx, seat,
    el("div", { class: "collection" }, Object.entries(collection).map(([colour, n]) =>
      el("span", { class: "collected", "aria-label": `${n} ${colour}` }, sample(face(colour)),
        shown("b", `/collected/${seat}/${encode(colour)}`, n, {}, `×${n}`))))));
  return [top, LEGEND, section("table", {}, offer(pile, ctx, "deck"), rows), el("div", { class: "seats" }, players)];
}

export function targetOf(move) {
  if (move.type === "draw") return "deck";
  return `row:${move.row}`;
}

function encode(key) {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
