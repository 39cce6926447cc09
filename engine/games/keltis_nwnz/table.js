// Keltis "Neue Wege, neue Ziele": the board (from GET /v1/boards/keltis-nwnz) as SVG with every
// pawn, tile and stack, and each player's display, hand size and wish stones.
import { back, cardList, count, el, name, offer, section, seatPanel, shown, shownSvg, svg } from "/static/js/dom.js";

const STEP_X = 64;
const STEP_Y = 50;
const FILL = { R: "#d33", Y: "#e8c200", G: "#3a3", B: "#36c", V: "#93c", joker: "#bbb" };
const SEAT_COLOURS = ["#111", "#fff", "#e67e22", "#16a085"];
const ROWS = ["R", "Y", "G", "B", "V"];

function layout(board) {
  const top = Math.max(...board.cells.map((c) => c.row));
  const at = new Map(board.cells.map((c) => [c.id, [40 + c.x * STEP_X, 30 + (top - c.row) * STEP_Y]]));
  at.set(board.start.id, [40 + 4 * STEP_X, 30 + top * STEP_Y]);
  return { at, width: 80 + 8 * STEP_X, height: 60 + top * STEP_Y };
}

// The board itself never changes: it is drawn once as a picture, so a step lays out only what
// moves on it (pawns, tiles, stacks) and, to a player, the cells a move may go to.
const pictures = new WeakMap();

function picture(board, at, width, height) {
  if (!pictures.has(board)) {
    const edges = [board.start, ...board.cells].flatMap((c) => c.ahead.map((to) => {
      const [x1, y1] = at.get(c.id);
      const [x2, y2] = at.get(to);
      return svg("line", { x1, y1, x2, y2, stroke: "#a99", "stroke-width": 2 });
    }));
    const cells = [board.start, ...board.cells].map((c) => {
      const [x, y] = at.get(c.id);
      return svg("g", { transform: `translate(${x} ${y})` },
        svg("circle", { r: 17, fill: FILL[c.colour] || "#eee" }),
        svg("text", { y: 5, "text-anchor": "middle", "font-family": "sans-serif",
                      "font-size": 13, "font-weight": 700, text: c.value ?? "start" }));
    });
    const drawn = svg("svg", { xmlns: "http://www.w3.org/2000/svg", width, height,
                               viewBox: `0 0 ${width} ${height}` }, edges, cells);
    const text = new XMLSerializer().serializeToString(drawn);
    pictures.set(board, `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`);
  }
  return pictures.get(board);
}

function boardSvg(view, ctx) {
  const board = ctx.board;
  const { at, width, height } = layout(board);
  const targets = [board.start, ...board.cells].filter((c) => ctx.targets && ctx.targets.has(`cell:${c.id}`));
  const cells = targets.map((c) => {
    const [x, y] = at.get(c.id);
    return offer(svg("g", { class: "cell", "data-cell": c.id, transform: `translate(${x} ${y})` },
      svg("title", { text: `${c.id}: ${c.colour}, ${c.value} points` }),
      svg("circle", { r: 18, fill: "transparent" })), ctx, `cell:${c.id}`);
  });
  const tiles = view.tiles.map((t, i) => {
    if (t.taken_by !== null) return null;
    const [x, y] = at.get(t.cell);
    return svg("g", { class: "tile", transform: `translate(${x - 16} ${y - 30})` },
      svg("rect", { width: 32, height: 12, rx: 3 }),
      shownSvg("text", `/tiles/${i}/tile`, t.tile, { x: 16, y: 10, "text-anchor": "middle" }, short(t.tile)));
  });
  const stacks = Object.entries(view.stacks).map(([colour, s]) => {
    const [x, y] = at.get(s.cell);
    return svg("g", { class: "stack", transform: `translate(${x + 12} ${y + 8})` },
      svg("rect", { width: 18, height: 14, rx: 2, fill: FILL[colour] }),
      shownSvg("text", `/stacks/${colour}/left`, s.left, { x: 9, y: 11, "text-anchor": "middle" }));
  });
  const crowd = new Map();
  const pawns = view.players.flatMap((p) => Object.entries(p.pawns).map(([pawn, cell]) => {
    const [x, y] = at.get(cell);
    const n = crowd.get(cell) || 0;
    crowd.set(cell, n + 1);
    const angle = (n * 2 * Math.PI) / 7;
    const r = pawn === "big" ? 8 : 5;
    return svg("g", { class: "pawn", transform: `translate(${x + 20 * Math.cos(angle)} ${y + 20 * Math.sin(angle)})` },
      svg("title", { text: `${name(ctx, p.seat)}'s ${pawn === "big" ? "big pawn" : `pawn ${pawn}`} on ${cell}` }),
      shownSvg("circle", `/players/${p.seat}/pawns/${pawn}`, cell,
        { r, fill: SEAT_COLOURS[p.seat], stroke: "#000", "data-pawn": pawn }, ""));
  }));
  return svg("svg", { class: "board", viewBox: `0 0 ${width} ${height}`, role: "img",
                      "aria-label": `the board (${view.board}) with every pawn, tile and stack` },
    svg("image", { href: picture(board, at, width, height), width, height }),
    svg("g", {}, tiles), svg("g", {}, stacks), svg("g", {}, pawns), svg("g", {}, cells));
}

function short(tile) {
  return tile.replace("points-", "+").replace("wish-", "W").replace("discard", "×").replace("clover", "♣");
}

export function draw(view, ctx) {
  const top = el("div", { class: "summary" }, "phase: ", shown("b", "/phase", view.phase), " · ",
    count("pawns in the goal rows", "/goal_pawns", view.goal_pawns),
    view.blocked_piles.length ? ` · piles just discarded on: ${view.blocked_piles.join(", ")}` : "");
  const piles = section("draw and discard piles", { class: "piles" },
    offer(el("div", { class: "pile" }, el("span", { class: "label", text: "deck" }),
      back(view.deck_size, "/deck_size")), ctx, "deck"),
    Object.entries(view.discards).map(([pile, cards]) => offer(
      el("div", { class: "pile" }, el("span", { class: "label", text: pile }),
        cardList(cards, `/discards/${pile}`, ctx)), ctx, `pile:${pile}`)));
  const players = view.players.map((p) => seatPanel(ctx, p.seat,
    el("div", {}, count("cards in hand", `/players/${p.seat}/hand_size`, p.hand_size), " · ",
      count("tile points", `/players/${p.seat}/tile_points`, p.tile_points), " · wish stones: ",
      cardList(p.wish_stones, `/players/${p.seat}/wish_stones`, ctx)),
    el("div", { class: "rows" }, ROWS.map((colour) => el("div", { class: "row" },
      el("span", { class: "label", text: colour }),
      cardList(p.rows[colour], `/players/${p.seat}/rows/${colour}`, ctx,
        (code, i) => (i === p.rows[colour].length - 1 ? `display:${code}` : null)))))));
  const yours = view.you && view.you.hand ? section("your hand", { class: "hand" },
    cardList(view.you.hand, "/you/hand", ctx, (code) => `hand:${code}`)) : null;
  return [top, el("div", { class: "board-wrap" }, boardSvg(view, ctx)), piles, yours,
    el("div", { class: "seats" }, players)];
}

export function targetOf(move) {
  if (move.type === "move" || move.type === "clover") return `cell:${move.to}`;
  if (move.type === "discard") return `hand:${move.card}`;
  if (move.type === "discard-tile") return move.from === "display" ? `display:${move.card}` : `hand:${move.card}`;
  if (move.type === "draw") return move.from === "deck" ? "deck" : `pile:${move.from}`;
  return null;
}
