// The viewer: a stored game (`/games/{id}`, with a token in the fragment to play a seat) or a
// replay file (`/replay`), stepped through entry by entry from one request for the views of
// every step; a running game is followed live through the API's follow stream. A seat may sign
// its moves here (signing.js), and either page checks its replay in the browser (checked.js).
import { call, Problem, ReplayFile, StoredGame, titles } from "./api.js";
import { checkHere, drawChecked } from "./checked.js";
import { el, handTarget, UNKNOWN } from "./dom.js";
import { drawReport } from "./report.js";
import { held, heldLinks, hold } from "./held.js";
import { serverKeys } from "./kept.js";
import { drawScore, placed, points } from "./score.js";
import { byCardless, cardPicker, setupForm, unnamed } from "./picker.js";
import { label, sentence } from "./sentences.js";
import { SeatSigning } from "./signing.js";
import { lastUndoable, TableActions, takenBack, undoneBy } from "./table_actions.js";
const $ = (id) => document.getElementById(id);
const LISTED = 40;

// What the page knows; `window.tablelog` exposes the timings the browser tests print.
const page = {
  source: null, summary: null, spec: null, module: null, board: null, viewer: "spectator",
  entries: [], bySeq: new Map(), steps: [], at: 1, scores: new Map(), marked: [], seen: null,
  legal: null, targets: new Map(), listed: [], unplaced: [], live: null, undone: new Set(), signing: null,
  picking: null, // the place whose card picker is open
  document: null, givenKeys: null,
};
const actions = new TableActions($("table-actions"), $("clock"), $("undo"), submit);
window.tablelog = { openMs: null, redraws: [], ready: false, version: 0, verdicts: 0, keysKept: false };

function say(text, kind = "info") {
  $("message").replaceChildren(text ? el("p", { class: kind, text }) : "");
}

function version() {
  return page.entries.length;
}

/** Whether the game has ended: by its rules, or abandoned. */
function over() {
  return page.summary && ["finished", "abandoned"].includes(page.summary.status);
}

// -- opening ---------------------------------------------------------------------------------

async function open() {
  wireTimeline();
  // The server's keys are asked for once and kept: a replay is checked later with no server.
  serverKeys().then(() => { window.tablelog.keysKept = true; });
  if (location.pathname === "/replay") {
    $("file").hidden = false;
    wireFile();
    return;
  }
  const id = decodeURIComponent(location.pathname.split("/").pop());
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("seat") || fragment.get("table");
  await load(new StoredGame(id, token));
}

async function load(source) {
  page.source = source;
  try {
    const summarised = source.summary();
    // The title's spec says how its moves and facts read and whether it has a board; its
    // table is drawn by the module of its game package.
    const spec = Promise.all([summarised, titles()]).then(([s, all]) => all[s.game]);
    const [summary, entries, views, board, module] = await Promise.all([
      summarised, source.events(0), source.views(1).catch((e) => e),
      spec.then((t) => (t && t.board ? call(`/v1/boards/${encodeURIComponent(t.name)}`) : null)),
      summarised.then((s) => import(`/tables/${encodeURIComponent(s.game)}.js`)),
    ]);
    page.summary = summary;
    page.viewer = summary.viewer ?? "table";
    page.spec = await spec;
    page.module = module;
    page.board = board;
    page.entries = [];
    page.bySeq = new Map();
    $("log").replaceChildren();
    addEntries(entries);
    if (views instanceof Problem) {
      page.steps = [];
      say(views.message, "warning");
    } else {
      page.steps = views.steps;
    }
    drawHeader();
    if (source instanceof StoredGame) {
      offerHeld(source);
      page.signing = new SeatSigning($("signing"), source, sync);
      $("verify-here").hidden = false;
    }
    drawAuditForm();
    const asked = Number(new URLSearchParams(location.search).get("at"));
    go(asked >= 1 && asked <= version() ? asked : version());
    window.tablelog.openMs = performance.now();
    window.tablelog.ready = true;
    if (source instanceof StoredGame && !over()) follow();
    await refreshLegal();
  } catch (error) {
    say(error.message, "error");
  }
}

function drawHeader() {
  const s = page.summary;
  document.title = `${s.game}: ${s.players.join(", ")} — tablelog`;
  $("title").textContent = `${s.game}: ${s.players.join(", ")}`;
  const who = typeof page.viewer === "number" ? `you are ${s.players[page.viewer]} (seat ${page.viewer})`
    : page.viewer === "table" ? "you see everything (the table)" : "you are a spectator";
  const dealt = s.deal === "recorded" ? " · cards dealt at a real table" : s.seed ? ` · seed ${s.seed}` : "";
  $("who").textContent = `${who} · ${s.status}${dealt}`;
  $("who").dataset.viewer = page.viewer;
  // The table's page lays out its seats (every hand) before its moves on a phone.
  document.body.dataset.viewer = page.viewer;
  $("play-title").textContent = page.viewer === "table" ? "the table's moves" : "your move";
  $("who").dataset.status = s.status;
}

/** Keep the link this page was opened with, and offer the other seats this browser holds. */
function offerHeld(source) {
  const s = page.summary;
  if (source.token && page.viewer !== "spectator") {
    hold(source.id, { game: s.game, players: s.players, table: page.viewer === "table" ? source.token : null,
                 seats: typeof page.viewer === "number" ? { [page.viewer]: source.token } : {} });
  }
  const game = held(source.id);
  const others = game ? heldLinks(source.id, game).filter((l) => l.token !== source.token) : [];
  $("held").hidden = !others.length;
  $("held").replaceChildren(source.token ? "this browser also holds: " : "open as: ",
    ...others.flatMap((l, i) => [i ? " · " : "", el("a", { href: l.href, class: `held-${l.kind}`,
                                                            "data-seat": l.seat, text: l.label })]));
}

// -- the timeline ----------------------------------------------------------------------------

function wireTimeline() {
  const slider = $("step");
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("first").addEventListener("click", () => go(1));
  $("prev").addEventListener("click", () => go(page.at - 1));
  $("next").addEventListener("click", () => go(page.at + 1));
  $("last").addEventListener("click", () => go(version()));
  $("download").addEventListener("click", download);
  document.addEventListener("keydown", (e) => {
    if (!page.entries.length || e.target.closest("input, textarea, select")) return;
    const to = { ArrowLeft: page.at - 1, ArrowRight: page.at + 1, Home: 1, End: version() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
}

function stepAt(at) {
  let lo = 0;
  let hi = page.steps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (page.steps[mid].at <= at) lo = mid;
    else hi = mid - 1;
  }
  return page.steps[lo];
}

/** Draw the table as it stood right after entry `at`. */
function go(at) {
  if (!version()) return;
  const started = performance.now();
  page.at = Math.min(Math.max(1, at), version());
  const slider = $("step");
  slider.max = version();
  slider.value = page.at;
  $("position").textContent = `entry ${page.at} of ${version()}`;
  const step = page.steps.length ? stepAt(page.at) : null;
  drawTable(step);
  highlight();
  const query = `?at=${page.at}`;
  if (location.search !== query) history.replaceState(null, "", `${location.pathname}${query}${location.hash}`);
  window.tablelog.redraws.push(performance.now() - started);
  window.tablelog.version = version();
  actions.shown(page.bySeq.get(page.at), page.undone);
  scheduleScore(step);
}

function drawTable(step) {
  const table = $("table");
  if (!step) {
    table.replaceChildren(el("p", { text: "the table cannot be drawn from this replay: only its log" }));
    return;
  }
  const playing = page.legal && page.at === version();
  // A recorded deal waiting for its setup waits for the table, whoever plays first after it.
  const toAct = step.state && step.state.setup_needed ? [] : step.to_act;
  const ctx = {
    players: page.summary.players, toAct, board: page.board,
    spec: page.spec, face: page.module.face,
    seat: typeof page.viewer === "number" ? page.viewer : null,
    // The table sees every seat's hand (and what each chose face down): each seat's panel shows it.
    private: page.viewer === "table" ? step.state.private : null,
    targets: playing ? page.targets : null, choose,
  };
  table.replaceChildren(
    el("p", { class: "step-status" }, `right after entry ${page.at}: ${step.status}`,
      toAct.length ? ` · to act: ${toAct.map((s) => page.summary.players[s]).join(", ")}`
        : step.state && step.state.setup_needed ? " · the table names the setup" : ""),
    ...page.module.draw(step.state, ctx).filter(Boolean));
  table.dataset.at = page.at;
  table.dataset.step = step.at;
  if (playing) offerUnplaced(table);
  if (playing) keepPicking(table);
  const known = page.scores.get(step.at);
  if (known) seatScores(known);
}

// -- the log ---------------------------------------------------------------------------------

function addEntries(entries) {
  const players = page.summary ? page.summary.players : entries[0].players;
  const made = new Map();
  const items = entries.filter((e) => !page.bySeq.has(e.seq)).map((entry) => {
    page.entries.push(entry);
    page.bySeq.set(entry.seq, entry);
    const item = el("li", { id: `e${entry.seq}`, class: `entry ${entry.type}`, "data-seq": entry.seq },
      entryLink(entry.seq, String(entry.seq)), " ", el("span", { class: "said" }, sentence(entry, players, page.bySeq, page.spec)),
      entry.conceded ? el("small", { class: "for-conceded", text: " (played for a conceded seat)" }) : null,
      submission(entry, made.get(entry.of) || $(`e${entry.of}`)));
    made.set(entry.seq, item);
    return item;
  });
  $("log").append(...items);
  markTakenBack();
}

/** The entries a takeback took off the line stay in the log, struck through. */
function markTakenBack() {
  page.undone = undoneBy(page.entries);
  for (const entry of page.entries) {
    const item = $(`e${entry.seq}`);
    if (!item || item.classList.contains("taken-back") || !takenBack(entry, page.undone)) continue;
    item.classList.add("taken-back");
    item.append(el("small", { class: "taken-back-note", text: " taken back" }));
  }
}

function entryLink(seq, text, attrs = {}) {
  return el("a", { ...attrs, href: `?at=${seq}`, onclick: (e) => { e.preventDefault(); go(seq); } }, text);
}

/** A game record reads a judged move on one line, its verdict's: the submission's own entry
 *  (`item`) stays in the list, folded away (shown when stepped to), and linked from the verdict. */
function submission(verdict, item) {
  const submitted = page.bySeq.get(verdict.of);
  if (!item || !submitted || submitted.type !== "move-submitted") return null;
  item.classList.add("folded");
  // A move kept secret until judged is told by its verdict, where the viewer may see it.
  const told = { ...submitted, move: submitted.move || verdict.move };
  const players = page.summary ? page.summary.players : [];
  const said = sentence(told, players, page.bySeq, page.spec);
  item.querySelector(".said").textContent = said;
  return [" ", entryLink(submitted.seq, `submitted at ${submitted.seq}`, { class: "submission", title: said })];
}

function highlight() {
  const log = $("log");
  log.querySelector(".current")?.classList.remove("current");
  const item = $(`e${page.at}`);
  if (item) {
    item.classList.add("current");
    const top = item.offsetTop - log.offsetTop;
    if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - item.offsetHeight) {
      log.scrollTop = top - log.clientHeight / 2;
    }
  }
}

/** A score component clicked: its lines are marked in the log, each with what it brought where
 * its own words do not say it (the setup's: "ann's starting card: pink"), and the log is scrolled
 * to the first of them (clicked again, to the next). The table stays at the step it shows, so the
 * score, the seats' totals and the table all say one step; a marked line, clicked, takes them all
 * there. */
function mark(events, cited = []) {
  const again = events.length && events.join() === page.marked.join();
  for (const seq of page.marked) $(`e${seq}`)?.classList.remove("marked", "seen");
  for (const note of $("log").querySelectorAll(".brought")) note.remove();
  const seen = again ? events[(events.indexOf(page.seen) + 1) % events.length] : events[0];
  page.marked = events;
  page.seen = seen;
  for (const seq of events) $(`e${seq}`)?.classList.add("marked");
  for (const [seq, said] of cited) {
    const line = $(`e${seq}`);
    if (line && said && line.querySelector(".said").textContent !== said) {
      line.querySelector(".said").after(el("small", { class: "brought", text: ` · ${said}` }));
    }
  }
  const item = $(`e${seen}`);
  if (!item) return;
  item.classList.add("seen");
  // In the middle of the log's box, and of the window (clear of the timeline kept at its top).
  item.scrollIntoView({ block: "center" });
}

// -- the score -------------------------------------------------------------------------------

let scoreTimer = null;

/** The panel says which step its score is of: until a step's score comes, the last one stays. */
function showScore(score, at) {
  drawScore($("score"), score, mark, page.spec, { bySeq: page.bySeq, players: page.summary.players });
  $("score").dataset.at = at;
  seatScores(score);
}

/** Each seat's panel says the total and place the score panel says, never a total of its own. */
function seatScores(score) {
  for (const p of score.players) {
    const slot = document.querySelector(`#table .seat-score[data-seat="${p.seat}"]`);
    if (slot) slot.textContent = ` · ${points(p.total)}, ${placed(p.rank)}${p.conceded ? ", conceded" : ""}`;
  }
}

function scheduleScore(step) {
  clearTimeout(scoreTimer);
  if (!step) return;
  const known = page.scores.get(step.at);
  if (known) {
    showScore(known, step.at);
    return;
  }
  scoreTimer = setTimeout(async () => {
    try {
      const score = await page.source.scoreAt(step.at);
      page.scores.set(step.at, score);
      if (stepAt(page.at).at === step.at) showScore(score, step.at);
    } catch (error) {
      $("score").textContent = error.message;
    }
  }, 80);
}

// -- playing a seat --------------------------------------------------------------------------

async function refreshLegal() {
  const source = page.source;
  const plays = source instanceof StoredGame && source.token && !over();
  $("play").hidden = !plays;
  await page.signing?.draw(typeof page.viewer === "number" ? page.viewer : null, page.entries, !over());
  if (!plays) {
    page.legal = null;
    drawSetup();
    offerTableActions();
    return;
  }
  const legal = await source.legalMoves();
  // The same moves at the same head (the live log's news of an entry already drawn): the table,
  // and any chooser or picker open on it, stay as they are.
  if (page.legal && legal.version === page.legal.version && legal.version === version()
      && JSON.stringify(legal.moves) === JSON.stringify(page.legal.moves)) return;
  page.legal = legal;
  page.targets = new Map();
  page.listed = [];
  page.unplaced = [];
  for (const choice of page.legal.moves) {
    const key = placeOf(choice);
    if (key) page.targets.set(key, [...(page.targets.get(key) || []), choice]);
    else page.listed.push(choice);
  }
  drawSetup();
  drawCustom();
  drawMoves();
  offerTableActions();
  if (page.at === version()) go(page.at);
  window.tablelog.legalAt = page.legal.version;
}

/** Where a move is made on the table, as its title says (`targetOf`); in a recorded deal a card
 * played from a hand not known to hold it is one of the hand's face-down cards, tapped there. */
function placeOf(choice) {
  const key = page.module.targetOf(choice.move, choice.seat);
  if (!recorded() || key !== handTarget(choice.seat, choice.move.card)) return key;
  const state = head();
  const held = page.viewer === "table" ? state.private && state.private[choice.seat]
    : page.viewer === choice.seat ? state.you : null;
  return held && held.hand && !held.hand.includes(choice.move.card) ? handTarget(choice.seat, UNKNOWN) : key;
}

/** Every legal move is offered: one whose place the table drawn has not (a title that draws no
 * such place, or not for this viewer) is listed with the others below. */
function offerUnplaced(table) {
  const placed = new Set([...table.querySelectorAll("[data-target]")].map((n) => n.dataset.target));
  const unplaced = [...page.targets].filter(([key]) => !placed.has(key)).flatMap(([, choices]) => choices);
  if (unplaced.length === page.unplaced.length && unplaced.every((c, i) => c === page.unplaced[i])) return;
  page.unplaced = unplaced;
  drawMoves();
}

/** What this viewer may do at the table, read from the state at the log's head. */
function offerTableActions() {
  const head = page.steps[page.steps.length - 1];
  actions.draw({ viewer: page.viewer, table: head && head.state.table, players: page.summary.players,
                 open: Boolean(page.legal), running: !over(), version: version(),
                 last: lastUndoable(page.entries, page.bySeq, page.undone),
                 said: (entry) => sentence(entry, page.summary.players, page.bySeq, page.spec) });
  actions.shown(page.bySeq.get(page.at), page.undone);
}

/** The state at the log's head, as this viewer sees it. */
function head() {
  const last = page.steps[page.steps.length - 1];
  return last ? last.state : null;
}

/** Whether the game is recorded at a real table: its moves name the cards they bring to view. */
function recorded() {
  return Boolean(head() && head().recorded);
}

/** Whether a recorded deal waits for the table to name its setup (its state says so). */
function setupNeeded() {
  return Boolean(page.legal && head() && head().setup_needed && page.spec.moves.setup);
}

/** While a recorded deal waits for its setup, the table names it in a form made from the
 * title's `setup` move; drawn again only when another deal waits, so that a setup refused
 * stays as it was picked, to be put right. */
function drawSetup() {
  const wanted = setupNeeded() && page.viewer === "table" ? `${page.summary.id}:${head().deal ?? ""}` : "";
  if ($("setup").dataset.for === wanted) return;
  $("setup").dataset.for = wanted;
  $("setup").replaceChildren(wanted ? setupForm(page.spec.moves.setup, head(), {
    players: page.summary.players, spec: page.spec, face: page.module.face, board: page.board,
    cardsFor: page.module.setupCards, requiredFor: page.module.setupRequired,
    labelOf: page.module.setupLabel, submit }) : "");
}

/** What a card picker needs: the players, each card's face and copies left, and how to post. */
function pickerContext() {
  return { players: page.summary.players, spec: page.spec, face: page.module.face,
           left: head() && head().unaccounted, submit, closed: () => { page.picking = null; },
           said: (move) => label(move, page.spec, page.summary.players) };
}

/** A title may offer its own way to choose among many moves (Die sieben Siegel's predictions). */
function drawCustom() {
  const custom = page.module.chooser ? page.module.chooser(page.listed, { submit, button: moveButton }) : null;
  if (custom) {
    page.listed = page.listed.filter((c) => !custom.handled.has(c));
    custom.node.dataset.moves = JSON.stringify([...custom.handled].map(({ seat, move }) => ({ seat, move })));
  }
  $("custom").replaceChildren(custom ? custom.node : "");
}

function moveButton(choice) {
  const seat = page.viewer === "table" ? `${page.summary.players[choice.seat]}: ` : "";
  const show = (on) => point(choice, on);
  return el("button", { type: "button", class: "move", "data-move": JSON.stringify(choice.move), "data-seat": choice.seat,
                        onclick: () => submit(choice), onmouseenter: () => show(true),
                        onmouseleave: () => show(false), onfocus: () => show(true), onblur: () => show(false) },
    seat + label(choice.move, page.spec, page.summary.players));
}

/** Mark on the table what a move's words name (a title says where: keltis-nwnz's pawn and
 * cell), while the pointer or the focus is on the move. */
function point(choice, on) {
  const places = page.module.pointsAt ? page.module.pointsAt(choice.move, choice.seat) : [];
  for (const selector of places) {
    for (const node of $("table").querySelectorAll(selector)) node.classList.toggle("pointed", on);
  }
}

function drawMoves(filter = $("move-filter").value) {
  const none = !page.legal.moves.length;
  $("chooser").replaceChildren();
  if (setupNeeded()) {
    $("play-hint").replaceChildren(...(page.viewer === "table"
      ? [el("b", { id: "to-act", text: "the table names the setup" }), ": each card it laid face up, below"]
      : ["nothing to do now: waiting for the table to name the setup"]));
    $("moves").replaceChildren();
    $("move-filter").hidden = true;
    return;
  }
  const hint = none ? "nothing to do now: waiting for the others"
    : page.targets.size ? "click a highlighted place on the table, or a move below" : "choose a move";
  // The table plays for every seat: the panel names the seats it waits for.
  const waiting = [...new Set(page.legal.moves.map((c) => c.seat))].map((s) => page.summary.players[s]);
  $("play-hint").replaceChildren(...(page.viewer === "table" && waiting.length
    ? [el("b", { id: "to-act", text: `${waiting.join(", ")} to act` }), ": ",
       page.targets.size ? "click a highlighted card or place for them, or a move below" : "choose a move"]
    : [hint]));
  // Moves alike but for the card they name are one button, which opens their card picker.
  const { groups, others } = byCardless([...page.listed, ...page.unplaced], recorded());
  const matching = others.filter((c) => label(c.move, page.spec, page.summary.players).includes(filter));
  $("move-filter").hidden = others.length <= LISTED;
  $("moves").replaceChildren(...groups.map((choices) => el("li", {}, pickButton(choices))),
    ...matching.slice(0, LISTED).map((c) => el("li", {}, moveButton(c))));
}

/** A button that opens the card picker of `choices`, beside the place tapped (`node`), else in
 * the panel. */
function pickButton(choices, node = null) {
  const { seat } = choices[0];
  const who = page.viewer === "table" ? `${page.summary.players[seat]}: ` : "";
  return el("button", { type: "button", class: "picks", "data-seat": seat,
                        "data-moves": JSON.stringify(choices.map(({ seat: s, move }) => ({ seat: s, move }))),
                        onclick: () => { closePickers(); pickAt(node, choices).querySelector("button.pick")?.focus(); } },
    `${who}${label(unnamed(choices[0]).move, page.spec, page.summary.players)}: which card?`);
}

/** The card picker of `choices`: right after the hand it plays from, on the table's page (the
 * hand tapped, or the seat's for a place drawn in SVG or a move listed), else right after the
 * place tapped (`node`), or in the panel for a place drawn in SVG. */
function pickAt(node, choices) {
  const picker = cardPicker(choices, pickerContext());
  const drawn = node && !(node instanceof SVGElement) ? node : null;
  const hand = drawn ? drawn.closest(".seat .hand") : seatHand(choices[0].seat);
  if (hand) hand.after(picker);
  else if (drawn) drawn.after(picker);
  else $("chooser").replaceChildren(picker);
  return picker;
}

/** `seat`'s hand on the table's page, where the cards it plays are picked. */
function seatHand(seat) {
  return page.viewer === "table" ? $("table").querySelector(`.seat[data-seat="${seat}"] .hand`) : null;
}

/** A picker opened at a place stays open while the table is drawn again (the live log brought
 * the same head again, or another card was seen meanwhile) and the place still offers one. */
function keepPicking(table) {
  if (!page.picking) return;
  const node = table.querySelector(`[data-target="${CSS.escape(page.picking)}"]`);
  const { groups, others } = byCardless(page.targets.get(page.picking) || [], recorded());
  if (!node || groups.length !== 1 || others.length) {
    page.picking = null;
    return;
  }
  pickAt(node, groups[0]);
}

function closePickers() {
  page.picking = null;
  document.getElementById("hand-chooser")?.remove();
  document.getElementById("card-picker")?.remove();
}

function choose(target, node) {
  const choices = page.targets.get(target) || [];
  if (choices.length === 1) {
    submit(choices[0]);
    return;
  }
  // Moves naming the card they bring into view (a recorded draw) are picked by the card's face,
  // right where the place was tapped: one picker for each move they are without their card.
  const { groups, others } = byCardless(choices, recorded());
  if (groups.length === 1 && !others.length) {
    closePickers();
    page.picking = target;
    pickAt(node, groups[0]).querySelector("button.pick")?.focus();
    return;
  }
  const which = [el("p", { text: "which move?" }), el("ul", {}, [
    ...groups.map((g) => el("li", {}, pickButton(g, node))), ...others.map((c) => el("li", {}, moveButton(c)))])];
  // The table picks beside the seat's hand it clicked in, not in its panel a phone's screen away.
  closePickers();
  const hand = page.viewer === "table" && node ? node.closest(".seat .hand") : null;
  const place = hand ? el("div", { id: "hand-chooser", class: "chooser" }, which) : $("chooser");
  if (hand) {
    $("chooser").replaceChildren();
    hand.after(place);
  } else {
    place.replaceChildren(...which);
  }
  place.querySelector("button")?.focus();
}

async function submit(choice) {
  page.picking = null;
  const body = { move: choice.move };
  if (page.viewer === "table") body.seat = choice.seat;
  $("verdict").replaceChildren(el("p", { text: `sending: ${label(choice.move, page.spec, page.summary.players)}…` }));
  try {
    // Signed at the version the choice was offered at: a move signed for another is refused.
    const signed = page.signing ? await page.signing.signed(body, page.legal ? page.legal.version : version()) : body;
    const said = label(choice.move, page.spec, page.summary.players);
    const verdict = await judged(await page.source.post("/moves?wait=5", signed), said);
    $("verdict").replaceChildren(verdict.status === "accepted"
      ? el("p", { class: "good", id: "last-verdict", text: `accepted: ${said}` })
      : verdict.status === "rejected"
        ? el("p", { class: "bad", id: "last-verdict", text: `${said} was rejected: ${verdict.detail}` })
        : el("p", { id: "last-verdict", text: `sent: ${said}; its verdict has not come yet` }));
  } catch (error) {
    $("verdict").replaceChildren(el("p", { class: "bad", id: "last-verdict",
      text: `${label(choice.move, page.spec, page.summary.players)} was rejected: ${error.message}` }));
  }
  await sync();
  window.tablelog.verdicts += 1;
}

/** The verdict on a move whose post answered before it was judged (`pending`), asked for
 *  until it comes, for a minute at most: a pending move is not yet accepted. */
async function judged(verdict, said) {
  if (verdict.status === "pending") $("verdict").replaceChildren(el("p", { text: `sent: ${said}; waiting for its verdict…` }));
  for (let tries = 0; verdict.status === "pending" && tries < 240; tries += 1) {
    await new Promise((done) => setTimeout(done, 250));
    verdict = await page.source.get(`/moves/${verdict.seq}`);
  }
  return verdict;
}

// -- following a live game -------------------------------------------------------------------

let syncing = Promise.resolve();
let queued = false;

/** Bring the page up to the log's head: new entries, their views, the legal moves. */
function sync() {
  if (queued) return syncing;
  queued = true;
  syncing = syncing.then(() => { queued = false; return catchUp(); }).catch((e) => say(e.message, "error"));
  return syncing;
}

async function catchUp() {
  const before = version();
  const fresh = await page.source.events(before);
  if (fresh.some((e) => e.type === "game-finished")) {
    // Once finished, everything is public: what was withheld from this viewer is shown now;
    // a page that stood at the head opens again at the end.
    if (page.at === before) history.replaceState(null, "", `${location.pathname}${location.hash}`);
    await load(page.source);
    return;
  }
  if (fresh.length) {
    page.legal = null; // what was legal before these entries may not be any more
    addEntries(fresh);
    const views = await page.source.views(before + 1);
    page.steps = [...page.steps.filter((s) => s.at <= before), ...views.steps];
    if (page.at === before) go(version());
    else go(page.at);
  }
  await refreshLegal();
}

async function follow() {
  if (page.live) return;
  page.live = new AbortController();
  const { signal } = page.live;
  $("live").hidden = false;
  while (!over() && !signal.aborted) {
    const started = Date.now();
    try {
      await page.source.follow(version(), () => sync(), signal);
    } catch (error) {
      if (signal.aborted) break;
    }
    await syncing;
    // A connection ends after its lifetime; one that ended at once is not retried at once.
    if (Date.now() - started < 1000) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  $("live").hidden = true;
  page.live = null;
}

// -- audit, download, replay files -----------------------------------------------------------

function drawAuditForm() {
  const stored = page.source instanceof StoredGame;
  $("audit-form").hidden = !stored;
  if (!stored) return;
  $("claims").replaceChildren(...page.summary.players.map((name, seat) => el("label", {},
    `${name} claims `, el("input", { type: "number", name: String(seat), "data-seat": seat, size: 5 }))));
}

async function audit(event) {
  event.preventDefault();
  const claimed = {};
  for (const input of $("claims").querySelectorAll("input")) {
    if (input.value !== "") claimed[input.name] = Number(input.value);
  }
  $("report").textContent = "auditing…";
  try {
    drawReport($("report"), await page.source.audit(claimed), page.summary.players, go);
  } catch (error) {
    $("report").textContent = error.message;
  }
}

/** The replay checked here, asking the server nothing but the replay itself (a stored game's). */
async function verifyHere() {
  $("checked").textContent = "checking in this browser…";
  try {
    page.document = page.source instanceof ReplayFile ? page.document : await page.source.replay();
    const checked = await checkHere(page.document, page.givenKeys);
    drawChecked($("checked"), checked, go);
    for (const m of checked.mismatches) $(`e${m.seq}`)?.classList.add("broken");
    return checked;
  } catch (error) {
    $("checked").textContent = error.message;
    return null;
  }
}

async function download() {
  const document_ = await page.source.replay();
  const link = el("a", {
    href: URL.createObjectURL(new Blob([JSON.stringify(document_, null, 1)], { type: "application/json" })),
    download: `tablelog-${page.summary.id || "replay"}.json`,
  });
  link.click();
  URL.revokeObjectURL(link.href);
}

function wireFile() {
  const input = $("replay-file");
  input.addEventListener("change", () => input.files[0] && openFile(input.files[0]));
  const zone = $("drop");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
  });
  const keys = $("keys-file");
  keys.addEventListener("change", () => keys.files[0] && giveKeys(keys.files[0]));
}

/** The server's keys from a file (a saved `/v1/keys`): a replay open is checked again with them. */
async function giveKeys(file) {
  try {
    const given = JSON.parse(await file.text());
    if (!Array.isArray(given.keys)) throw new Error("it has no list of keys");
    page.givenKeys = given;
  } catch (error) {
    say(`${file.name} is not the server's keys (a /v1/keys document): ${error.message}`, "error");
    return;
  }
  if (page.document) await verifyHere();
}

async function openFile(file) {
  let document_;
  try {
    document_ = JSON.parse(await file.text());
  } catch {
    say(`${file.name} is not JSON`, "error");
    return;
  }
  const source = new ReplayFile(document_);
  page.source = source;
  page.document = document_;
  // Checked here first, so that what the browser found stands whatever the server answers.
  const checked = await verifyHere();
  say(`verifying ${file.name}…`);
  let report;
  try {
    report = await source.verify();
  } catch (error) {
    const unreachable = !(error instanceof Problem);
    say(unreachable ? `the server cannot be reached: ${file.name} was checked in this browser only${checked ? "" : " (it failed)"}, and its table cannot be drawn`
      : `${file.name} is not a replay: ${error.message}`, unreachable ? "warning" : "error");
    return;
  }
  say("");
  await load(source);
  drawReport($("report"), report, page.summary.players, go);
  // One verdict on the page: the browser's check says what the server's re-judging found too.
  if (checked) drawChecked($("checked"), checked, go, report);
  // The log is drawn afresh by load: the entries the browser's check flagged are marked again.
  for (const m of [...report.mismatches, ...(checked ? checked.mismatches : [])]) $(`e${m.seq}`)?.classList.add("broken");
  if (report.mismatches.length) {
    say(`this replay does not check out: ${report.mismatches.map((m) => `entry ${m.seq} (${m.detail ? `${m.what}: ${m.detail}` : m.what})`).join(", ")}`, "error");
  } else if (!report.ok) {
    // Nothing fails; what cannot be told yet is said with the server's own reason.
    const why = source.unbuilt ? `${source.unbuilt.message} (${source.unbuilt.code})` : "see the report";
    const drawn = source.drawnFrom ? `; the table is drawn from this server's copy of game ${source.drawnFrom}, as a spectator sees it` : "";
    say(`nothing in this replay fails, but it cannot be checked in full yet: ${why}${drawn}`, "warning");
  }
}

$("audit-form").addEventListener("submit", audit);
$("verify-here").addEventListener("click", verifyHere);
// Another seat's link differs from this page's address by its fragment only: open it afresh.
window.addEventListener("hashchange", () => location.reload());
$("move-filter").addEventListener("input", () => drawMoves());
open();
