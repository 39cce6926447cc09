// Keltis card game: each player's five rows with their direction, the discard piles, the
// deck, the wish stones and the point cards.
import { back, cardList, count, el, hand, handTarget, offer, pile, section, seatPanel, shown } from "/static/js/dom.js";
import { COLOUR_NAMES, colourCard, legend, sample } from "/static/js/faces.js";

const ROWS = ["R", "Y", "G", "B", "V"];
const NAMES = { ...COLOUR_NAMES, P: "points" };

/** A colour card (colour and number), a point card ("P7") or a wish stone ("W3", taken with a
 * pair of 3s). */
export function face(code) {
  const number = code.slice(1);
  if (code[0] === "P") {
    return { class: "c-points", rank: number, word: "points", title: `point card ${number}` };
  }
  if (code[0] === "W") {
    return { class: "stone c-stone", rank: number, word: "wish", title: `wish stone ${number}` };
  }
  return colourCard(code);
}

// One legend for the page's life, so that a redraw keeps it open or folded as the reader left it.
const LEGEND = legend("what the cards show", [
  [sample(face("G7")), "a colour card: its colour and number"],
  [sample(face("GF")), "a final card: it closes its colour's row"],
  [sample(face("P4")), "a point card: played into the point row (1 point each) or into a colour row"],
  [sample(face("W4")), "a wish stone, taken with a pair of cards of its number"],
]);

export function draw(view, ctx) {
  const top = el("div", { class: "summary" },
    `phase: `, shown("b", "/phase", view.phase), " · ",
    count("set aside", "/set_aside_size", view.set_aside_size), " · ",
    count("cards to draw", "/to_draw", view.to_draw));
  const piles = section("discard piles", { class: "piles" },
    offer(el("div", { class: "pile" }, el("span", { class: "label", text: "deck" }),
      back(view.deck_size, "/deck_size")), ctx, "deck"),
    Object.entries(view.discards).map(([colour, cards]) => pile(NAMES[colour], cards,
      `/discards/${colour}`, ctx, `pile:${colour}`, { "aria-label": `${NAMES[colour]} discards` })));
  // A wish stone is taken with a pair of cards of its number: tapped, it offers the pairs.
  const stones = section("wish stones in the supply", {},
    cardList(view.wish_stones, "/wish_stones", ctx, (code) => `wish:${code.slice(1)}`));
  const seats = view.seats.map((seat, s) => seatPanel(ctx, s,
    count("cards in hand", `/hand_sizes/${s}`, view.hand_sizes[s]),
    el("div", { class: "rows" }, ROWS.map((colour) => {
      const cards = seat.rows[colour];
      return el("div", { class: "row", "aria-label": `${NAMES[colour]} row` },
        el("span", { class: "label", text: NAMES[colour] }),
        el("span", { class: "direction", text: direction(cards) }),
        cardList(cards, `/seats/${s}/rows/${colour}`, ctx));
    })),
    el("div", {}, "point cards: ", cardList(seat.point_row, `/seats/${s}/point_row`, ctx)),
    el("div", {}, "wish stones: ", cardList(seat.wish_stones, `/seats/${s}/wish_stones`, ctx))));
  return [top, LEGEND, el("div", { class: "table-middle" }, piles, stones),
    hand(view, ctx), el("div", { class: "seats" }, seats)];
}

/** A row runs up or down once two of its cards differ; a final card has no number. */
export function direction(cards) {
  const values = cards.map((c) => Number(c.slice(1))).filter((v) => !Number.isNaN(v));
  for (let i = 1; i < values.length; i++) {
    if (values[i] !== values[0]) return values[i] > values[0] ? "↑ ascending" : "↓ descending";
  }
  return values.length ? "· open" : "";
}

export function targetOf(move, seat) {
  if (move.type === "play" || move.type === "discard") return handTarget(seat, move.card);
  if (move.type === "draw") return move.from === "deck" ? "deck" : `pile:${move.from}`;
  if (move.type === "wish") return `wish:${move.cards[0].slice(1)}`;
  return null;
}
