// Keltis "Neue Wege, neue Ziele": the board (from GET /v1/boards/keltis-nwnz) as SVG with every
// pawn, tile and stack, and each player's display, hand size and wish stones.
import { back, cardList, count, el, hand, handTarget, name, offer, pile, section, seatPanel, shown, shownSvg, svg } from "/static/js/dom.js";
import { COLOUR_NAMES, colourCard, legend } from "/static/js/faces.js";

// Cells of a row stand two columns apart: 44 units a column keeps the board narrow enough that,
// scaled to a phone's width, its numbers and labels stay readable.
const STEP_X = 44;
const STEP_Y = 50;
const FILL = { R: "#d33", Y: "#e8c200", G: "#3a3", B: "#36c", V: "#93c", joker: "#bbb" };
const SEAT_COLOURS = ["#111", "#fff", "#e67e22", "#16a085"];
const SEAT_INK = ["#fff", "#000", "#000", "#fff"];
const SEAT_COLOUR_NAMES = ["black", "white", "orange", "teal"];
const ROWS = ["R", "Y", "G", "B", "V"];
const PAWN_ROOM = 5; // pawns on one cell stand in rows of five beneath it
const PAWN_GAP = 13;

/** A colour card; a lone colour letter is a wish stone of that colour; a path tile by its
 * name (as a recorded game's setup names it). */
export function face(code) {
  if (code in COLOUR_NAMES) {
    return { class: `stone c-${COLOUR_NAMES[code]}`, rank: "", word: "wish",
             title: `${COLOUR_NAMES[code]} wish stone` };
  }
  const wish = code.startsWith("wish-") ? code.slice(5) : null;
  if (wish) return { class: `tile c-${COLOUR_NAMES[wish]}`, rank: `W${wish}`, word: "wish", title: TILE_MEANING.wish };
  if (code in TILE_TEXT) return { class: "tile", rank: TILE_TEXT[code], word: code, title: TILE_MEANING[code] };
  return colourCard(code);
}

// The box's path tiles (state.py's TILES), each as often as the box holds it: a recorded game's
// setup names where each lies, and no tile more often than this.
const BOX_TILES = [["clover", 5], ["wish-R", 1], ["wish-Y", 1], ["wish-G", 1], ["wish-B", 1], ["wish-V", 1],
  ["points-2", 5], ["points-3", 2], ["discard", 5]].flatMap(([tile, n]) => Array(n).fill(tile));

/** The tiles a recorded game's setup names, one a tile spot of the board. */
export function setupCards(field) {
  return field === "tiles" ? BOX_TILES : null;
}

/** Each tile of the setup by the board's cell it lies on, in `tile_spots` order. */
export function setupLabel(field, index, board) {
  return field === "tiles" && board ? board.tile_spots[index] : null;
}

function layout(board) {
  const top = Math.max(...board.cells.map((c) => c.row));
  const at = new Map(board.cells.map((c) => [c.id, [40 + c.x * STEP_X, 30 + (top - c.row) * STEP_Y]]));
  at.set(board.start.id, [40 + 4 * STEP_X, 30 + top * STEP_Y]);
  // Room beneath the start stone for every pawn of four players.
  return { at, width: 80 + 8 * STEP_X, height: 60 + top * STEP_Y + 3 * PAWN_GAP };
}

// The drawings the board and its legend share, each centred on (0, 0).

function cellMark(colour, value) {
  return [svg("circle", { r: 17, fill: FILL[colour] || "#eee" }),
    svg("text", { y: 5, "text-anchor": "middle", "font-family": "sans-serif", "font-size": 13,
                  "font-weight": 700, text: value ?? "start" })];
}

function cellName(id) {
  return svg("text", { x: -20, y: 4, "text-anchor": "end", "font-family": "sans-serif", "font-size": 11,
                       fill: "#444", text: id });
}

const TILE_TEXT = { clover: "♣", discard: "×", "points-2": "+2", "points-3": "+3" };

function tileMark(tile) {
  const wish = tile.startsWith("wish-") ? tile.slice(5) : null;
  return [svg("rect", { x: -16, y: -6, width: 32, height: 12, rx: 3, fill: wish ? FILL[wish] : "#fff", stroke: "#555" }),
    svg("text", { y: 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
                  fill: wish ? "#fff" : "#000", text: wish ? `W${wish}` : TILE_TEXT[tile] ?? tile })];
}

function stackMark(colour, left) {
  return [svg("rect", { x: -9, y: -7, width: 18, height: 14, rx: 2, fill: FILL[colour], stroke: "#333" }),
    svg("text", { y: 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff", text: left })];
}

function pawnLabel(pawn) {
  return pawn === "big" ? "B" : pawn.slice(1);
}

function pawnMark(seat, pawn) {
  return [svg("circle", { r: pawn === "big" ? 7.5 : 6, fill: SEAT_COLOURS[seat], stroke: "#000" }),
    svg("text", { y: 3, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: SEAT_INK[seat],
                  text: pawnLabel(pawn) })];
}

/** One mark of the board drawn on its own, for the legend and the seat panels. */
function icon(marks, width = 36, height = 36) {
  return svg("svg", { class: "icon", viewBox: `${-width / 2} ${-height / 2} ${width} ${height}`,
                      width, height, "aria-hidden": "true" }, marks);
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
      return svg("g", { transform: `translate(${x} ${y})` }, cellMark(c.colour, c.value),
        c === board.start ? null : cellName(c.id));
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
    return svg("g", { class: "tile", transform: `translate(${x} ${y - 24})`, "data-path": `/tiles/${i}/tile`,
                      "data-value": JSON.stringify(t.tile) },
      svg("title", { text: `${t.cell}: ${TILE_MEANING[tileKind(t.tile)]}` }), tileMark(t.tile));
  });
  const stacks = Object.entries(view.stacks).map(([colour, s]) => {
    const [x, y] = at.get(s.cell);
    return svg("g", { class: "stack", transform: `translate(${x + 21} ${y - 12})` },
      svg("title", { text: `${s.left} ${COLOUR_NAMES[colour]} wish stones left on ${s.cell}` }),
      stackMark(colour, ""), shownSvg("text", `/stacks/${colour}/left`, s.left,
        { y: 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff" }));
  });
  const crowd = new Map();
  const pawns = view.players.flatMap((p) => Object.entries(p.pawns).map(([pawn, cell]) => {
    const [x, y] = at.get(cell);
    const n = crowd.get(cell) || 0;
    crowd.set(cell, n + 1);
    const px = x + ((n % PAWN_ROOM) - (PAWN_ROOM - 1) / 2) * PAWN_GAP;
    const py = y + 24 + Math.floor(n / PAWN_ROOM) * PAWN_GAP;
    return svg("g", { class: "pawn", transform: `translate(${px} ${py})`, path: `/players/${p.seat}/pawns/${pawn}`,
                      "data-value": JSON.stringify(cell), "data-pawn": pawn, "data-seat": p.seat },
      svg("title", { text: `${name(ctx, p.seat)}'s ${pawn === "big" ? "big pawn" : `pawn ${pawn}`} on ${cell}` }),
      pawnMark(p.seat, pawn));
  }));
  return svg("svg", { class: "board", viewBox: `0 0 ${width} ${height}`, role: "img",
                      "aria-label": `the board (${view.board}) with every pawn, tile and stack` },
    svg("image", { href: picture(board, at, width, height), width, height }),
    svg("g", {}, tiles), svg("g", {}, stacks), svg("g", {}, pawns), svg("g", {}, cells));
}

function tileKind(tile) {
  return tile.startsWith("wish-") ? "wish" : tile;
}

// What each tile does (docs/rules-notes.md, keltis-nwnz): all but a wish stone stay and act
// for every pawn that arrives.
const TILE_MEANING = {
  clover: "clover: move one of your pawns one cell on, free of card and colour",
  discard: "discard: discard a card from your hand or the top of one of your rows",
  "points-2": "2 points for every pawn that arrives",
  "points-3": "3 points for every pawn that arrives",
  wish: "a wish stone of its colour for the first pawn to arrive",
};

// One legend for the page's life, so that a redraw keeps it open or folded as the reader left it.
const LEGEND = legend("the board's symbols", [
  [icon(cellMark("G", 3)), "a cell: entered with a card of its colour; a pawn standing there scores its number (the big pawn double)"],
  [icon(cellMark("joker", 0)), "a grey cell: entered with a card of any colour"],
  [icon(cellName("c7"), 36, 16), "a cell's name, as the moves say it (\"move s1 to c7\")"],
  [icon(pawnMark(0, "s1")), "a pawn: 1 to 4 are pawns s1 to s4, in their player's colour"],
  [icon(pawnMark(0, "big")), "B: the big pawn, which scores its cell double"],
  [icon(tileMark("clover")), TILE_MEANING.clover],
  [icon(tileMark("discard")), TILE_MEANING.discard],
  [icon(tileMark("points-2")), `+2, +3: ${TILE_MEANING["points-2"].replace("2 points", "that many points")}`],
  [icon(tileMark("wish-R")), `WR, WY, WG, WB, WV: ${TILE_MEANING.wish}`],
  [icon(stackMark("B", 5)), "a stack of wish stones of its colour and how many are left; a pawn arriving takes one"],
], true);

export function draw(view, ctx) {
  const top = el("div", { class: "summary" }, "phase: ", shown("b", "/phase", view.phase), " · ",
    count("pawns in the goal rows", "/goal_pawns", view.goal_pawns),
    view.blocked_piles.length ? ` · piles just discarded on: ${view.blocked_piles.join(", ")}` : "");
  const piles = section("draw and discard piles", { class: "piles" },
    offer(el("div", { class: "pile" }, el("span", { class: "label", text: "deck" }),
      back(view.deck_size, "/deck_size")), ctx, "deck"),
    Object.entries(view.discards).map(([colour, cards]) => pile(COLOUR_NAMES[colour], cards,
      `/discards/${colour}`, ctx, `pile:${colour}`, { "aria-label": `${COLOUR_NAMES[colour]} discards` })));
  const players = view.players.map((p) => seatPanel(ctx, p.seat,
    el("div", { class: "pawn-key" }, icon(pawnMark(p.seat, "s1"), 16, 16),
      ` ${SEAT_COLOUR_NAMES[p.seat]} pawns`),
    el("div", {}, count("cards in hand", `/players/${p.seat}/hand_size`, p.hand_size), " · ",
      count("tile points", `/players/${p.seat}/tile_points`, p.tile_points), " · wish stones: ",
      cardList(p.wish_stones, `/players/${p.seat}/wish_stones`, ctx)),
    el("div", { class: "rows" }, ROWS.map((colour) => el("div", { class: "row" },
      el("span", { class: "label", text: COLOUR_NAMES[colour] }),
      cardList(p.rows[colour], `/players/${p.seat}/rows/${colour}`, ctx,
        (code, i) => (i === p.rows[colour].length - 1 ? `display:${p.seat}:${code}` : null)))))));
  return [top, el("div", { class: "board-wrap" }, boardSvg(view, ctx)), LEGEND, piles, hand(view, ctx),
    el("div", { class: "seats" }, players)];
}

/** The pawn a move names and the cell it goes to, marked while the move is pointed at. */
export function pointsAt(move, seat) {
  if (!move.pawn) return [];
  return [`.pawn[data-seat="${seat}"][data-pawn="${move.pawn}"]`, `.cell[data-cell="${move.to}"]`];
}

export function targetOf(move, seat) {
  if (move.type === "move" || move.type === "clover") return `cell:${move.to}`;
  if (move.type === "discard") return handTarget(seat, move.card);
  if (move.type === "discard-tile") {
    return move.from === "display" ? `display:${seat}:${move.card}` : handTarget(seat, move.card);
  }
  if (move.type === "draw") return move.from === "deck" ? "deck" : `pile:${move.from}`;
  return null;
}
