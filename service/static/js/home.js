// The home page: a form to start a game, the seats this browser holds, and the games, newest
// first, filtered and paged. After creating, every link is shown with a copy button and kept in
// this browser (held.js); a token rides in the URL fragment, which a browser never sends, so it
// never reaches a server log.
import { call, receipted, titles } from "./api.js";
import { el } from "./dom.js";
import { copyButton, heldGames, heldLinks, hold, link } from "./held.js";
import { drawOptions, fitOptions, readOptions } from "./options.js";

const $ = (id) => document.getElementById(id);
let cursor = null;
let specs = {};

/** A cell under its column's heading; on a phone, where the list has no header row, it says
 * its heading itself ("log entries: 10", tablelog.css). */
function cell(field, attrs, ...children) {
  return el("td", { ...attrs, "data-field": field }, ...children);
}

function row(game) {
  return el("tr", { "data-id": game.id },
    cell("id", { class: "game-id" }, el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: game.id })),
    cell("game", {}, game.game),
    cell("players", {}, game.players.join(", ")),
    cell("status", {}, game.status),
    cell("log entries", {}, String(game.version)),
    cell("created", {}, el("time", { datetime: game.created_at, text: game.created_at.replace("T", " ").slice(0, 19) })));
}

async function list(more = false) {
  const query = new URLSearchParams({ order: "newest", limit: "25" });
  if ($("filter-game").value) query.set("game", $("filter-game").value);
  if ($("filter-status").value) query.set("status", $("filter-status").value);
  if (more && cursor) query.set("cursor", cursor);
  try {
    const page = await call(`/v1/games?${query}`);
    const rows = page.games.map(row);
    const body = $("games").tBodies[0];
    if (more) body.append(...rows);
    else body.replaceChildren(...rows);
    if (!more && !rows.length) body.append(el("tr", {}, el("td", { colspan: 6, text: "no games yet" })));
    cursor = page.next;
    $("more").hidden = !cursor;
  } catch (error) {
    $("message").textContent = error.message;
  }
}

/** A link that opens in a tab of its own, with a button to copy it. */
function shared(kind, label, href, attrs = {}) {
  return el("li", { ...attrs, class: `${kind}-link` }, `${label}: `,
    el("a", { href, target: "_blank", rel: "noopener", text: href }), copyButton(href, `${label}'s link`));
}

function players() {
  return $("new-players").value.split(",").map((p) => p.trim()).filter(Boolean);
}

async function create(event) {
  event.preventDefault();
  const spec = specs[$("new-game").value];
  const body = { game: spec.name, players: players(), options: readOptions($("options"), spec, players().length) };
  if (recorded()) body.deal = "recorded";
  else if ($("new-seed").value) body.seed = $("new-seed").value;
  try {
    const game = await receipted(call("/v1/games", { method: "POST", body }));
    const created = { game: spec.name, players: body.players, table: game.table_token,
                      seats: Object.fromEntries(game.seats.map((s) => [s.seat, s.token])) };
    hold(game.id, created);
    $("created").replaceChildren(
      el("p", { class: "good" }, `Created game ${game.id}. `, body.deal === "recorded"
        ? "Open the table's link to name the setup, then each card as the table sees it; this browser keeps every link."
        : "Give each player their link; this browser keeps them all."),
      el("ul", { class: "links" },
        heldLinks(game.id, created).map((l) => shared(l.kind, l.label, l.href, { "data-seat": l.seat })),
        el("li", { class: "table-token" }, "the table token (for the command line): ",
          el("code", { text: game.table_token }), copyButton(game.table_token, "the table token")),
        shared("spectator", "spectators", link(game.id))));
    list();
    showHeld();
  } catch (error) {
    $("created").replaceChildren(el("p", { class: "bad", id: "create-error", text: error.message }));
  }
}

/** The games this browser holds seats of, with a link to each seat. */
function showHeld() {
  const games = heldGames();
  $("held-games").hidden = !games.length;
  $("held-games").querySelector("ul").replaceChildren(...games.map((game) => el("li", { "data-id": game.id },
    el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: `${game.game} ${game.id}` }),
    el("small", { text: ` ${game.players.join(", ")}: ` }),
    heldLinks(game.id, game).flatMap((l, i) => [i ? ", " : "", el("a", { href: l.href, text: l.label })]))));
}

/** Whether the cards come from a real table: the game is recorded as they come into view
 * (a title whose spec says it may be), so nobody here deals and there is no seed to give. */
function recorded() {
  return $("new-recorded").checked && !$("new-recorded").disabled;
}

function fitted() {
  const spec = specs[$("new-game").value];
  $("seats-hint").textContent = `${spec.seats[0]} to ${spec.seats[1]} players`;
  fitOptions($("options"), spec, players().length);
  $("new-recorded").disabled = !spec.recorded;
  $("recorded-hint").textContent = spec.recorded
    ? "recorded as the cards come into view: the table's page names each card, nobody here deals"
    : `${spec.name} is dealt here only, from a seed, for now`;
  $("seed-field").hidden = recorded();
}

async function offer() {
  specs = await titles();
  for (const title of Object.keys(specs)) {
    $("filter-game").append(el("option", { text: title }));
    $("new-game").append(el("option", { text: title }));
  }
  const chosen = () => {
    drawOptions($("options"), specs[$("new-game").value], players().length);
    fitted();
  };
  $("new-game").addEventListener("change", chosen);
  $("new-players").addEventListener("input", fitted);
  $("new-recorded").addEventListener("change", fitted);
  chosen();
}

offer().catch((error) => { $("message").textContent = error.message; });
$("filters").addEventListener("change", () => list());
$("more").addEventListener("click", () => list(true));
$("create").addEventListener("submit", create);
showHeld();
list();
