// The home page: the games, newest first, filtered and paged, and a form to start one. After
// creating, each seat's link is shown once; its token rides in the URL fragment, which a
// browser never sends, so it never reaches a server log.
import { call, titles } from "./api.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
let cursor = null;

function row(game) {
  return el("tr", { "data-id": game.id },
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(game.id)}` }, game.game)),
    el("td", { text: game.players.join(", ") }),
    el("td", { text: game.status }),
    el("td", { text: game.version }),
    el("td", {}, el("time", { datetime: game.created_at, text: game.created_at.replace("T", " ").slice(0, 19) })));
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
    if (!more && !rows.length) body.append(el("tr", {}, el("td", { colspan: 5, text: "no games yet" })));
    cursor = page.next;
    $("more").hidden = !cursor;
  } catch (error) {
    $("message").textContent = error.message;
  }
}

function link(id, kind, token) {
  const url = new URL(`/games/${encodeURIComponent(id)}`, location.origin);
  if (token) url.hash = `${kind}=${token}`;
  return url.href;
}

async function create(event) {
  event.preventDefault();
  const form = new FormData($("create"));
  const body = {
    game: form.get("game"),
    players: form.get("players").split(",").map((p) => p.trim()).filter(Boolean),
  };
  try {
    body.options = JSON.parse(form.get("options") || "{}");
  } catch {
    $("created").replaceChildren(el("p", { class: "bad", text: "the options are not JSON" }));
    return;
  }
  if (form.get("seed")) body.seed = form.get("seed");
  try {
    const game = await call("/v1/games", { method: "POST", body });
    $("created").replaceChildren(
      el("p", { class: "good", text: "Created. These links are shown once: give each player theirs." }),
      el("ul", { class: "links" },
        game.seats.map((s) => el("li", { class: "seat-link", "data-seat": s.seat },
          `${s.name}: `, el("a", { href: link(game.id, "seat", s.token), text: link(game.id, "seat", s.token) }))),
        el("li", { class: "table-link" }, "the table (scorekeeper, sees everything): ",
          el("a", { href: link(game.id, "table", game.table_token), text: link(game.id, "table", game.table_token) })),
        el("li", { class: "spectator-link" }, "spectators: ",
          el("a", { href: link(game.id), text: link(game.id) }))));
    list();
  } catch (error) {
    $("created").replaceChildren(el("p", { class: "bad", id: "create-error", text: error.message }));
  }
}

/** An option as an example to type, with a value other than its default. */
function example(option) {
  const value = option.kind === "bool" ? !option.default
    : option.kind === "int" ? option.low : option.choices.find((c) => c !== option.default);
  const seats = option.seats.length ? ` (${option.seats.join(", ")} players)` : "";
  return `{"${option.name}": ${JSON.stringify(value)}}${seats}`;
}

/** What the form needs to know of a title: its player counts and options, from its spec. */
function hint(spec) {
  const options = spec.options.length ? `options: ${spec.options.map(example).join(", ")}` : "no options";
  return `${spec.seats[0]}-${spec.seats[1]} players; ${options}`;
}

async function offer() {
  const specs = await titles();
  for (const title of Object.keys(specs)) {
    $("filter-game").append(el("option", { text: title }));
    $("new-game").append(el("option", { text: title }));
  }
  const hinted = () => { $("options-hint").textContent = hint(specs[$("new-game").value]); };
  $("new-game").addEventListener("change", hinted);
  hinted();
}

offer().catch((error) => { $("message").textContent = error.message; });
$("filters").addEventListener("change", () => list());
$("more").addEventListener("click", () => list(true));
$("create").addEventListener("submit", create);
list();
