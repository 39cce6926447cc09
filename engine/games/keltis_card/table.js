// Keltis card game: each player's five rows with their direction, the discard piles, the
// deck, the wish stones and the point cards.
import { back, card, cardList, count, el, hand, offer, section, seatPanel, shown } from "/static/js/dom.js";

const ROWS = ["R", "Y", "G", "B", "V"];
const NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", V: "violet", P: "points" };

export function draw(view, ctx) {
  const top = el("div", { class: "summary" },
    `phase: `, shown("b", "/phase", view.phase), " · ",
    count("set aside", "/set_aside_size", view.set_aside_size), " · ",
    count("cards to draw", "/to_draw", view.to_draw));
  const piles = section("discard piles", { class: "piles" },
    offer(el("div", { class: "pile" }, el("span", { class: "label", text: "deck" }),
      back(view.deck_size, "/deck_size")), ctx, "deck"),
    Object.entries(view.discards).map(([pile, cards]) => offer(
      el("div", { class: "pile", "aria-label": `${NAMES[pile]} discards` },
        el("span", { class: "label", text: NAMES[pile] }),
        cardList(cards, `/discards/${pile}`, ctx)), ctx, `pile:${pile}`)));
  const stones = section("wish stones in the supply", {},
    cardList(view.wish_stones, "/wish_stones", ctx));
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
  return [top, el("div", { class: "table-middle" }, piles, stones),
    hand(view, ctx, (code) => `hand:${code}`), el("div", { class: "seats" }, seats)];
}

/** A row runs up or down once two of its cards differ; a final card has no number. */
export function direction(cards) {
  const values = cards.map((c) => Number(c.slice(1))).filter((v) => !Number.isNaN(v));
  for (let i = 1; i < values.length; i++) {
    if (values[i] !== values[0]) return values[i] > values[0] ? "↑ ascending" : "↓ descending";
  }
  return values.length ? "· open" : "";
}

export function targetOf(move) {
  if (move.type === "play" || move.type === "discard") return `hand:${move.card}`;
  if (move.type === "draw") return move.from === "deck" ? "deck" : `pile:${move.from}`;
  return null;
}
