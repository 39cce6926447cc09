// Hermit: the groups in front of each player with the card that controls each, the
// five-player centre, the score piles, the two-player stagecoach and the running totals.
import { back, card, cardList, count, el, hand, name, offer, section, seatPanel, shown } from "/static/js/dom.js";

// Ranks for control (Ace 1, numbered 2 to 9, Crown 10; a Crown beside its own Ace ranks 0),
// to name the card that holds each group: a card takes a group when it ranks at least as high
// as every card already there.
const CROWNS = { huntress: "moons", bard: "suns", sea: "waves", end: "leaves",
                 calamity: "wyrms", windfall: "knots" };
const RANKS = {
  author: 2, desert: 2, origin: 2, journey: 3, painter: 3, savage: 3, mountain: 4, sailor: 4,
  battle: 4, forest: 5, discovery: 5, soldier: 5, lunatic: 6, penitent: 6, market: 6,
  "chance-meeting": 7, castle: 7, cave: 7, diplomat: 8, mill: 8, betrayal: 8, pact: 9,
  merchant: 9, darkness: 9,
};

function rankIn(cardName, group) {
  if (cardName.startsWith("ace-")) return 1;
  if (cardName in CROWNS) return group.includes(`ace-${CROWNS[cardName]}`) ? 0 : 10;
  return RANKS[cardName];
}

/** The index of the card holding the group: the last one that took it. */
export function controlling(cards) {
  let holder = 0;
  for (let i = 1; i < cards.length; i++) {
    const names = cards.slice(0, i + 1);
    const top = Math.max(...names.slice(0, i).map((c) => rankIn(c, names)));
    if (rankIn(cards[i], names) >= top) holder = i;
  }
  return holder;
}

function group(g, index, ctx) {
  const holder = g.controller === null ? -1 : controlling(g.cards);
  return offer(el("div", { class: "group", "aria-label": `group ${g.group}` },
    el("span", { class: "label", text: `group ${g.group}` }),
    el("span", { class: "cards" }, g.cards.map((c, i) => {
      const node = card(c, `/groups/${index}/cards/${i}`, ctx);
      if (i === holder) node.classList.add("controls");
      return node;
    })),
    el("small", {}, " held by ", shown("span", `/groups/${index}/controller`, g.controller, {},
      name(ctx, g.controller)), holder >= 0 ? ` with the ${g.cards[holder]}` : "")),
  ctx, `group:${g.group}`);
}

export function draw(view, ctx) {
  const top = el("div", { class: "summary" },
    count("hand", "/deal", view.deal), view.deals ? ` of ${view.deals}` : "",
    view.target ? el("span", {}, " · playing to ", shown("b", "/target", view.target)) : null,
    view.choosing ? el("span", {}, ` · choosing a ${view.choosing.move} card, waiting for `,
      view.choosing.waiting.map((s) => name(ctx, s)).join(", ")) : null);
  const indexed = view.groups.map((g, i) => [g, i]);
  const centre = indexed.filter(([g]) => g.controller === null);
  const middle = el("div", { class: "table-middle" },
    centre.length ? section("centre", {}, centre.map(([g, i]) => group(g, i, ctx))) : null,
    view.stagecoach_size === null ? null : section("stagecoach", {},
      back(view.stagecoach_size, "/stagecoach_size"),
      view.you && view.you.stagecoach ? el("span", {}, " yours: ",
        cardList(view.you.stagecoach, "/you/stagecoach", ctx)) : null),
    view.set_aside.length ? section("set aside", {}, cardList(view.set_aside, "/set_aside", ctx)) : null);
  const players = view.piles.map((pile, s) => seatPanel(ctx, s,
    el("div", {}, count("cards in hand", `/hand_sizes/${s}`, view.hand_sizes[s]), " · ",
      count("total", `/totals/${s}`, view.totals[s])),
    el("div", { class: "groups" }, indexed.filter(([g]) => g.controller === s)
      .map(([g, i]) => group(g, i, ctx))),
    el("div", {}, "score pile: ", cardList(pile, `/piles/${s}`, ctx))));
  const you = view.you && view.you.choice
    ? el("div", {}, "your choice: ", card(view.you.choice, "/you/choice", ctx)) : null;
  return [top, middle, you, hand(view, ctx, (code) => `hand:${code}`),
    el("div", { class: "seats" }, players)];
}

export function targetOf(move) {
  return move.card ? `hand:${move.card}` : null;
}
