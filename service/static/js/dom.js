// Small helpers to build the page: elements, SVG, cards, and the marks the tests read.
//
// Every value drawn from a view carries `data-path` (a JSON pointer into the view) and
// `data-value` (that value as JSON), so a test can check the page against the API's own state.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  return fill(node, attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "path") {
      node.dataset.path = value;
    } else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A drawn value: its text, and the pointer and JSON the tests compare with the API. */
export function shown(tag, path, value, attrs = {}, text = value) {
  return el(tag, { ...attrs, path, "data-value": JSON.stringify(value) }, String(text));
}

/** The same inside an SVG drawing. */
export function shownSvg(tag, path, value, attrs = {}, text = value) {
  return svg(tag, { ...attrs, path, "data-value": JSON.stringify(value) }, String(text));
}

// The code of a card nobody at the table has seen (engine.recorded.UNKNOWN): a card in a hand
// of a game recorded at a real table, dealt face down.
export const UNKNOWN = "?";

/** A card by its contract code, its face drawn as its title says (`ctx.face`, from the title's
 * table module); the code stays in its tooltip and marks, so the tests and a reader of the
 * markup see the same card the API names. An unknown card is drawn face down. */
export function card(code, path, ctx, target) {
  if (code === UNKNOWN) return unseen(path, ctx, target);
  const face = ctx && ctx.face ? ctx.face(code, ctx.spec) : { rank: code };
  const node = shown("span", path, code, {
    class: `card face ${face.class || ""}`,
    "data-card": code,
    title: face.title || code,
  }, "");
  node.append(...faceParts(face));
  return offer(node, ctx, target);
}

/** What a face or token holds: its rank or number, its symbols, and a word (its colour). */
export function faceParts(face) {
  return [
    el("span", { class: "rank", text: face.rank }),
    face.marks && face.marks.length ? el("span", { class: "marks" }, face.marks) : null,
    face.word ? el("span", { class: "word", text: face.word }) : null,
  ].filter(Boolean);
}

/** A face-down card: only how many there are is known. */
export function back(count, path) {
  return shown("span", path, count, { class: "card back", title: `${count} face down` },
    `${count}`);
}

/** A card in a hand that nobody at the table has seen: its back. Playing it names it, in the
 * picker of the cards it may still be. */
function unseen(path, ctx, target) {
  const node = el("span", { class: "card back unseen", path, "data-value": path && JSON.stringify(UNKNOWN),
                            "data-card": UNKNOWN, title: "face down: not seen yet" });
  return offer(node, ctx, target);
}

/** Make `node` a place to click for the legal moves of `target`, if there are some; it says
 * which (`data-moves`, each `{seat, move}` as the API lists it). */
export function offer(node, ctx, target) {
  if (!target || !ctx || !ctx.targets) return node;
  node.dataset.target = target;
  const moves = ctx.targets.get(target);
  if (moves && moves.length) {
    node.classList.add("playable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.dataset.moves = JSON.stringify(moves.map(({ seat, move }) => ({ seat, move })));
    node.addEventListener("click", () => ctx.choose(target, node));
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.choose(target, node); }
    });
  }
  return node;
}

/** The place of a card in `seat`'s hand: a seat's page and the table's name it alike, since the
 * table sees every hand and two seats may hold the same code. */
export function handTarget(seat, code) {
  return `hand:${seat}:${code}`;
}

export function section(title, attrs = {}, ...children) {
  return el("section", { class: `zone ${attrs.class || ""}`, "aria-label": title },
    el("h3", { text: title }), ...children);
}

export function name(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  return ctx.players[seat] ?? `seat ${seat}`;
}

/** A player's panel: their name, whether the game waits for them, and their score as the
 * score panel has it (the viewer fills `.seat-score` in when the score of the step comes).
 * The table, which sees every hand (`ctx.private`, the view's), finds the seat's hand in it,
 * right under the name, each card a place to play it for that seat. */
export function seatPanel(ctx, seat, ...children) {
  const acting = ctx.toAct.includes(seat);
  const you = ctx.seat === seat ? " (you)" : "";
  const held = ctx.private && ctx.private[seat] && ctx.private[seat].hand;
  return el("section", { class: `seat${acting ? " acting" : ""}`, "data-seat": seat,
                         "aria-label": name(ctx, seat) },
    el("h3", {}, `${name(ctx, seat)}${you}`, acting ? el("span", { class: "to-act", text: " · to act" }) : null,
      el("span", { class: "seat-score", "data-seat": seat })),
    held ? el("div", { class: "hand", "aria-label": `${name(ctx, seat)}'s hand` },
      el("span", { class: "label", text: "hand" }), handCards(held, `/private/${seat}/hand`, ctx, seat)) : null,
    ...children);
}

/** The cards of `seat`'s hand, each a place to play it: those the view names, then, where the
 * title counts more (`ctx.handSizes`, a recorded deal's hand of cards not seen yet), the others
 * face down. */
function handCards(held, path, ctx, seat) {
  const list = cardList(held, path, ctx, (code) => handTarget(seat, code));
  const more = ctx.handSizes ? ctx.handSizes[seat] - held.length : 0;
  for (let i = 0; i < more; i++) list.append(unseen(null, ctx, handTarget(seat, UNKNOWN)));
  return list;
}

export function count(label, path, value) {
  return el("span", { class: "count" }, `${label}: `, shown("b", path, value));
}

export function cardList(codes, path, ctx, target = () => null) {
  return el("span", { class: "cards" },
    (codes || []).map((code, i) => card(code, `${path}/${i}`, ctx, target(code, i))));
}

/** A pile on the table under its name, so that a name is never read as its neighbour's: an empty
 * pile shows an empty place, not nothing. `target` makes the whole pile a place to click. */
export function pile(label, codes, path, ctx, target, attrs = {}) {
  return offer(el("div", { ...attrs, class: "pile" }, el("span", { class: "label", text: label }),
    codes.length ? cardList(codes, path, ctx) : el("span", { class: "card empty", text: "empty" })), ctx, target);
}

/** A seat's own hand, on its page (the table's are in the seats' panels). */
export function hand(view, ctx) {
  if (!view.you || !view.you.hand) return null;
  return section("your hand", { class: "hand" }, handCards(view.you.hand, "/you/hand", ctx, ctx.seat));
}
