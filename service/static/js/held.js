// The seats this browser holds: every link it created or opened, kept in its localStorage so
// that a game page opened again offers them. A token never leaves the browser but as the
// Authorization header of an API call: in a link it rides in the fragment, which a browser
// does not send, so it reaches no server log.
import { el } from "./dom.js";

const KEY = "tablelog.held";

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {}; // storage refused (a private window) or spoilt: the browser holds nothing
  }
}

/** What this browser holds of game `id`: its title, players, seat tokens and table token. */
export function held(id) {
  return all()[id] || null;
}

/** Every game this browser holds something of, the one last opened first. */
export function heldGames() {
  return Object.entries(all()).map(([id, game]) => ({ id, ...game }))
    .sort((a, b) => (b.at || "").localeCompare(a.at || ""));
}

/** Keep `seats` (seat number -> token) and `table` (a token or null) of game `id`. */
export function hold(id, { game, players, seats = {}, table = null }) {
  const games = all();
  const known = games[id] || { seats: {}, table: null };
  games[id] = { game, players, seats: { ...known.seats, ...seats }, table: table || known.table,
                at: new Date().toISOString() };
  try {
    localStorage.setItem(KEY, JSON.stringify(games));
  } catch {
    // a browser that keeps nothing offers nothing later; the page works the same
  }
}

/** The address of game `id` seen as `kind` ("seat" or "table") with `token`, or as a spectator. */
export function link(id, kind, token) {
  const url = new URL(`/games/${encodeURIComponent(id)}`, location.origin);
  if (token) url.hash = `${kind}=${token}`;
  return url.href;
}

/** Every link this browser holds of a game: each seat's, then the table's. */
export function heldLinks(id, game) {
  const seats = Object.entries(game.seats).sort(([a], [b]) => a - b).map(([seat, token]) => ({
    kind: "seat", seat: Number(seat), token, label: `${game.players[seat] ?? `seat ${seat}`}'s seat`,
    href: link(id, "seat", token),
  }));
  const table = game.table ? [{ kind: "table", token: game.table, label: "the table",
                                href: link(id, "table", game.table) }] : [];
  return [...seats, ...table];
}

/** A button that copies `text`, saying so once it has. */
export function copyButton(text, what) {
  const button = el("button", { type: "button", class: "copy", "data-copy": text, title: `copy ${what}` }, "copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "copied";
    } catch {
      button.textContent = "select and copy it";
    }
  });
  return button;
}
