// Hermit: the groups in front of each player with the card that controls each, the
// five-player centre, the score piles, the two-player stagecoach and the running totals.
import { back, card, cardList, count, el, hand, handTarget, name, offer, section, seatPanel, shown, svg } from "/static/js/dom.js";
import { legend } from "/static/js/faces.js";

// Ranks as the title declares them (GET /v1/titles, `cards`): Ace 1, numbered 2 to 9, Crown 10;
// a Crown beside its own Ace ranks 0.
const ACE = 1;
const CROWN = 10;

function rankIn(cards, cardName, group) {
  const { rank, suits } = cards[cardName];
  return rank === CROWN && group.includes(`ace-${suits[0]}`) ? 0 : rank;
}

/** The index of the card holding the group: the last one that took it, a card taking a group
 * when it ranks at least as high as every card already there. */
export function controlling(cards, group) {
  let holder = 0;
  for (let i = 1; i < group.length; i++) {
    const names = group.slice(0, i + 1);
    const top = Math.max(...names.slice(0, i).map((c) => rankIn(cards, c, names)));
    if (rankIn(cards, group[i], names) >= top) holder = i;
  }
  return holder;
}

// The six Decktet suits, each a small drawing (16 units square) in a colour of its own.
const SUITS = {
  moons: ["#3f51b5", [["path", { d: "M11 2.5A6 6 0 1 0 11 13.5A4.6 4.6 0 1 1 11 2.5Z" }]]],
  suns: ["#e08a00", [["circle", { cx: 8, cy: 8, r: 3.4 }],
    ["path", { d: "M8 .8V3.2M8 12.8v2.4M.8 8h2.4M12.8 8h2.4M2.9 2.9l1.7 1.7M11.4 11.4l1.7 1.7M2.9 13.1l1.7-1.7M11.4 4.6l1.7-1.7",
               fill: "none", "stroke-width": 1.6 }]]],
  waves: ["#0277bd", [["path", { d: "M1 5.5q1.75-2.5 3.5 0t3.5 0t3.5 0t3.5 0M1 10.5q1.75-2.5 3.5 0t3.5 0t3.5 0t3.5 0",
                                 fill: "none", "stroke-width": 1.8 }]]],
  leaves: ["#2e7d32", [["path", { d: "M2.5 13.5C2.5 6 7 2.5 13.5 2.5C13.5 9 10 13.5 2.5 13.5Z" }],
    ["path", { d: "M2.5 13.5L10 6", stroke: "#fff", "stroke-width": 1 }]]],
  wyrms: ["#b71c1c", [["path", { d: "M2.5 14C2 9.5 12.5 11 12 6.5C11.6 3.4 7.5 3 6 5", fill: "none", "stroke-width": 2 }],
    ["circle", { cx: 6, cy: 5, r: 1.8 }]]],
  knots: ["#6d4c41", [["path", { d: "M2 8C2 3.5 6.5 3.5 8 8C9.5 12.5 14 12.5 14 8C14 3.5 9.5 3.5 8 8C6.5 12.5 2 12.5 2 8Z",
                                 fill: "none", "stroke-width": 1.8 }]]],
};

function suit(name) {
  const [colour, shapes] = SUITS[name];
  return svg("svg", { class: "suit", viewBox: "0 0 16 16", fill: colour, stroke: colour, role: "img", "aria-label": name },
    svg("title", { text: name }), shapes.map(([tag, attrs]) => svg(tag, attrs)));
}

function rankName(rank) {
  return { [ACE]: "ace", [CROWN]: "crown" }[rank] ?? String(rank);
}

/** A Decktet card: its rank (A for an Ace, C for a Crown) and its suits, then its whole name
 * ("chance meeting" on two lines rather than cut); a personality, which scores in a score pile,
 * is starred. */
export function face(code, spec) {
  const declared = spec && spec.cards[code];
  if (!declared) return { rank: code };
  const { rank, suits, personality } = declared;
  return { class: `decktet${personality ? " personality" : ""}`,
           rank: { [ACE]: "A", [CROWN]: "C" }[rank] ?? String(rank),
           marks: suits.map(suit), word: rank === ACE ? "ace" : code.replaceAll("-", " "),
           title: `${code}: ${rankName(rank)} of ${suits.join(" and ")}${personality ? ", a personality" : ""}` };
}

// One legend for the page's life, so that a redraw keeps it open or folded as the reader left it.
const LEGEND = legend("the suits, and what the cards show",
  [...Object.keys(SUITS).map((s) => [suit(s), s]),
    [el("b", { text: "A · 2–9 · C" }), "the rank: Ace 1, 2 to 9, Crown 10 (0 beside its own Ace)"],
    [el("span", { class: "card face decktet personality", text: "" }),
      "★ a personality: in a score pile it scores its rank (a Crown 10, even annulled)"],
    [el("span", { class: "card face controls", text: "" }), "the card holding the group"]]);

function group(g, index, ctx) {
  const holder = g.controller === null ? -1 : controlling(ctx.spec.cards, g.cards);
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
  // A recorded deal's hands are named only as their cards are seen: the rest are face down.
  ctx = { ...ctx, handSizes: view.hand_sizes };
  const top = el("div", { class: "summary" },
    // "round", the word of the score panel ("over 2 rounds"): a round is one deal of hands.
    count("round", "/deal", view.deal), view.deals ? ` of ${view.deals}` : "",
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
      count("points from rounds scored", `/totals/${s}`, view.totals[s])),
    el("div", { class: "groups" }, indexed.filter(([g]) => g.controller === s)
      .map(([g, i]) => group(g, i, ctx))),
    el("div", {}, "score pile: ", cardList(pile, `/piles/${s}`, ctx)), chosen(ctx, s)));
  const you = view.you && view.you.choice
    ? el("div", {}, "your choice: ", card(view.you.choice, "/you/choice", ctx)) : null;
  return [top, LEGEND, middle, you, hand(view, ctx),
    el("div", { class: "seats" }, players)];
}

/** What the table sees that a seat chose face down: its starting or Stagecoach card, and its
 * cards in the Stagecoach. */
function chosen(ctx, s) {
  const secret = ctx.private && ctx.private[s];
  if (!secret) return null;
  return [
    secret.choice ? el("div", {}, "chosen, face down: ", card(secret.choice, `/private/${s}/choice`, ctx)) : null,
    secret.stagecoach && secret.stagecoach.length ? el("div", {}, "in the stagecoach: ",
      cardList(secret.stagecoach, `/private/${s}/stagecoach`, ctx)) : null,
  ];
}

/** A recorded hand's setup names the centre card with five players only, any card of the deck
 * (each hand deals it whole; nothing of it is accounted for before the setup): with fewer,
 * nothing is laid face up, and the setup is one tap. */
export function setupCards(field, view, spec) {
  if (field !== "centre") return null;
  return view.piles.length === 5 ? Object.keys(spec.cards) : [];
}

/** With five players the centre card is laid face up: the setup names it. */
export function setupRequired(field, view) {
  return field === "centre" && view.piles.length === 5;
}

export function targetOf(move, seat) {
  return move.card ? handTarget(seat, move.card) : null;
}
