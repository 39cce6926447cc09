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

const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue", V: "violet", P: "points" };

/** A card by its contract code; the code is its text, so it reads without the colours. */
export function card(code, path, ctx, target) {
  const node = shown("span", path, code, {
    class: `card ${cardClass(code)}`,
    "data-card": code,
    title: code,
  });
  return offer(node, ctx, target);
}

export function cardClass(code) {
  const colour = COLOURS[code[0]] && /^[RYGBVP](\d+|F)$/.test(code) ? COLOURS[code[0]] : code;
  return `c-${colour.replace(/[^a-z0-9+-]/gi, "")}`;
}

/** A face-down card: only how many there are is known. */
export function back(count, path) {
  return shown("span", path, count, { class: "card back", title: `${count} face down` },
    `${count} ×`);
}

/** Make `node` a place to click for the legal moves of `target`, if there are some. */
export function offer(node, ctx, target) {
  if (!target || !ctx || !ctx.targets) return node;
  node.dataset.target = target;
  const moves = ctx.targets.get(target);
  if (moves && moves.length) {
    node.classList.add("playable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.addEventListener("click", () => ctx.choose(target));
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.choose(target); }
    });
  }
  return node;
}

export function section(title, attrs = {}, ...children) {
  return el("section", { class: `zone ${attrs.class || ""}`, "aria-label": title },
    el("h3", { text: title }), ...children);
}

export function name(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  return ctx.players[seat] ?? `seat ${seat}`;
}

/** A player's panel: their name, and whether the game waits for them. */
export function seatPanel(ctx, seat, ...children) {
  const acting = ctx.toAct.includes(seat);
  const you = ctx.seat === seat ? " (you)" : "";
  return el("section", { class: `seat${acting ? " acting" : ""}`, "data-seat": seat,
                         "aria-label": name(ctx, seat) },
    el("h3", {}, `${name(ctx, seat)}${you}`, acting ? el("span", { class: "to-act", text: " · to act" }) : null),
    ...children);
}

export function count(label, path, value) {
  return el("span", { class: "count" }, `${label}: `, shown("b", path, value));
}

export function cardList(codes, path, ctx, target = () => null) {
  return el("span", { class: "cards" },
    (codes || []).map((code, i) => card(code, `${path}/${i}`, ctx, target(code, i))));
}

export function hand(view, ctx, target) {
  if (!view.you || !view.you.hand) return null;
  return section("your hand", { class: "hand" }, cardList(view.you.hand, "/you/hand", ctx, target));
}
