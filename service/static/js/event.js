// The event page: its rounds with their tables (links to the games, kept live), the standings
// (a point opens its game at its final entry, a tie-break's tooltip gives its sum), and, with
// the organiser's token in the fragment (#organiser=...), seating rounds and withdrawals.
import { call, Problem } from "./api.js";
import { el } from "./dom.js";

const REFRESH_MS = 5000;
const BREAKS = { "opponents-points": "opponents' points", "own-scores": "own scores",
                 "won-against-tied": "won against tied" };
const page = { id: decodeURIComponent(location.pathname.split("/").pop()),
               token: new URLSearchParams(location.hash.slice(1)).get("organiser"),
               ready: false };
window.tablelog = page;

function say(text, kind = "") {
  const box = document.getElementById("message");
  box.replaceChildren(text ? el("p", { class: kind, text }) : "");
}

async function refresh() {
  try {
    const [event, ranked] = await Promise.all([
      call(`/v1/events/${encodeURIComponent(page.id)}`),
      call(`/v1/events/${encodeURIComponent(page.id)}/standings`),
    ]);
    drawEvent(event);
    drawStandings(ranked);
    page.event = event;
    page.ready = true;
    if (event.status !== "finished") setTimeout(refresh, REFRESH_MS);
  } catch (error) {
    say(error instanceof Problem ? error.message : String(error), "error");
  }
}

function drawEvent(event) {
  document.title = `${event.name} · tablelog`;
  document.getElementById("event-name").textContent = event.name;
  document.getElementById("event-about").textContent =
    `${event.game}, ${event.players.length} players, ${event.format}, round ` +
    `${event.seated.length} of ${event.rounds} (${event.status})`;
  const rounds = event.seated.slice().reverse().map((round) => el("div", { class: "round" },
    el("h3", { text: `Round ${round.round}` }),
    el("ul", { class: "tables" }, round.tables.map((table) => el("li", {
      "data-game": table.game, "data-status": table.status },
      el("a", { href: `/games/${table.game}`, text: `table ${table.table}` }),
      ` ${table.players.join(", ")} · ${table.status}`))),
    round.byes.length ? el("p", { text: `byes: ${round.byes.join(", ")}` }) : null));
  document.getElementById("rounds").replaceChildren(...rounds);
  const withdrawn = new Set(event.withdrawn.map((w) => w.player));
  document.getElementById("withdraw-player").replaceChildren(
    ...event.players.filter((p) => !withdrawn.has(p)).map((p) => el("option", { text: p })));
}

function drawStandings(ranked) {
  document.getElementById("standings-after").textContent = `after round ${ranked.after_round}`;
  const rows = ranked.standings.map((row) => el("tr", { "data-player": row.player },
    el("td", { "data-field": "rank", text: row.rank }),
    el("td", { "data-field": "player", text: row.player }),
    el("td", { "data-field": "points", class: "points" }, `${row.points} `,
      ...row.games.map((game) => game.bye
        ? el("span", { class: "point", title: `round ${game.round}: a bye`, text: `+${game.points}` })
        : el("a", { class: "point", href: `/games/${game.game}?at=${game.seq}`,
                    "data-game": game.game, "data-seq": game.seq,
                    title: `round ${game.round}, table ${game.table}: rank ${game.rank} of ${game.of}` +
                           ` (total ${game.total}), game ${game.game} entry ${game.seq}`,
                    text: `+${game.points}` }))),
    ...row.tie_breaks.map((tie) => el("td", {
      "data-field": tie.name, class: "tie-break", tabindex: 0, title: sum(tie),
      text: tie.value })),
    el("td", { "data-field": "games", text: row.games.length })));
  document.querySelector("#standings tbody").replaceChildren(...rows);
}

function sum(tie) {
  if (!tie.from.length) return `${BREAKS[tie.name]}: nothing yet`;
  const parts = tie.from.map((p) => tie.name === "opponents-points"
    ? `${p.opponent} ${p.points}` : tie.name === "own-scores"
      ? `${p.value} (${p.game})` : `over ${p.over} (${p.game})`);
  return `${BREAKS[tie.name]}: ${parts.join(" + ")} = ${tie.value}`;
}

async function seatRound() {
  try {
    const seated = await call(`/v1/events/${encodeURIComponent(page.id)}/rounds`,
                              { token: page.token, method: "POST" });
    document.getElementById("seated").replaceChildren(
      el("h3", { text: `Round ${seated.round}: hand each table its links (shown once)` }),
      ...seated.tables.map((table) => el("ul", { class: "links" },
        el("li", {}, `table ${table.table}: `, el("a", { href: table.links.table, target: "_blank",
          text: "scorekeeper" })),
        ...table.seats.map((seat) => el("li", {}, `${seat.name}: `,
          el("a", { href: seat.link, target: "_blank", text: `seat ${seat.seat}` }))))));
    say("");
    await refresh();
  } catch (error) {
    say(error instanceof Problem ? error.message : String(error), "error");
  }
}

async function withdraw(event) {
  event.preventDefault();
  const player = document.getElementById("withdraw-player").value;
  try {
    await call(`/v1/events/${encodeURIComponent(page.id)}/withdrawals`,
               { token: page.token, method: "POST", body: { player } });
    say(`${player} withdrew.`);
    await refresh();
  } catch (error) {
    say(error instanceof Problem ? error.message : String(error), "error");
  }
}

if (page.token) {
  document.getElementById("organiser").hidden = false;
  document.getElementById("seat-round").addEventListener("click", seatRound);
  document.getElementById("withdraw").addEventListener("submit", withdraw);
}
refresh();
