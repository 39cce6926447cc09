// The turn clock of a game created with `turn_limit_s`: how long each seat waited for has been
// waiting against the limit, ticking in the page, and each seat's thinking time. The times are
// the log's own (`table.clock` of the state: milliseconds since the epoch); the page reads them
// against this browser's clock, so a claim it offers may still be refused as early by the
// service, which judges it at the claim's own time.
import { el } from "./dom.js";

export const IDLE = -1; // a seat that is not waited for

/** "0:07", "1:05:02": a span of milliseconds as a clock shows it. */
export function duration(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** The seats `clock` has waited for as long as its limit at `now`, conceded ones left out. */
export function late(clock, conceded, now = Date.now()) {
  if (!clock) return [];
  return clock.since.map((began, seat) => [began, seat])
    .filter(([began, seat]) => began !== IDLE && !conceded.includes(seat) && now - began >= clock.limit_s * 1000)
    .map(([, seat]) => seat);
}

let ticking = null;

/** Draw `clock` into `node` (hidden when the game has none) and tick it every second; `onTick`
 *  is told each second too, so what depends on a seat being late (a claim) follows. */
export function watchClock(node, clock, players, onTick = () => {}) {
  clearInterval(ticking);
  node.hidden = !clock;
  if (!clock) return;
  const rows = players.map((name, seat) => {
    const waiting = el("span", { class: "waiting", "data-seat": seat });
    const thinking = el("span", { class: "thinking", "data-seat": seat, "data-value": clock.thinking[seat] },
      `thought ${duration(clock.thinking[seat])}`);
    return { seat, waiting, item: el("li", { "data-seat": seat }, el("b", { text: name }), " ", waiting, " ", thinking) };
  });
  node.replaceChildren(el("h2", { text: "turn clock" }), el("p", { class: "limit", text: `each turn may take ${duration(clock.limit_s * 1000)}` }),
    el("ul", { class: "clock-seats" }, rows.map((r) => r.item)));
  const tick = () => {
    const now = Date.now();
    for (const { seat, waiting, item } of rows) {
      const began = clock.since[seat];
      const over = began !== IDLE && now - began >= clock.limit_s * 1000;
      waiting.textContent = began === IDLE ? "" : `waiting ${duration(now - began)} of ${duration(clock.limit_s * 1000)} ·`;
      item.classList.toggle("waited-for", began !== IDLE);
      item.classList.toggle("late", over);
    }
    onTick(now);
  };
  tick();
  ticking = setInterval(tick, 1000);
}
