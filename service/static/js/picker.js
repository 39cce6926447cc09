// A game recorded at a real table (docs/api.md, "Recorded deals"), on the table's page: the
// setup form and the card picker. Nothing here names a title: the setup form is made from the
// `setup` move's fields in the title's spec, the picker from the legal moves, which list one
// move per card still possible, and both draw each card as the title's table module draws it.
import { el } from "./dom.js";
import { sample } from "./faces.js";

/** Whether a legal move names the card it brings into view (a recorded draw). */
function namesCard(choice) {
  return typeof choice.move.card === "string";
}

/** What a move naming a card is without its card: the move the picker is for. */
export function unnamed(choice) {
  const move = { ...choice.move };
  delete move.card;
  return { seat: choice.seat, move };
}

/** In a recorded deal (`recorded`, the state's), the moves alike but for the card they name (a
 * draw, one per card still possible), by the move they are without it: one picker each. The
 * others, a move naming a card alone among them included (a draw of the one card left), are
 * moves, as every move of a seeded deal is (a card played from a hand is picked in the hand). */
export function byCardless(choices, recorded) {
  if (!recorded) return { groups: [], others: choices };
  const alike = new Map();
  for (const choice of choices.filter(namesCard)) {
    const key = JSON.stringify(unnamed(choice));
    alike.set(key, [...(alike.get(key) || []), choice]);
  }
  const groups = [...alike.values()].filter((g) => g.length > 1);
  const picked = new Set(groups.flat());
  return { groups, others: choices.filter((c) => !picked.has(c)) };
}

function face(ctx, code) {
  const drawn = sample(ctx.face ? ctx.face(code, ctx.spec) : { rank: code });
  drawn.setAttribute("aria-hidden", "true");
  return drawn;
}

/** The faces of `choices` (moves of one seat, alike but for their card), each a button that
 * posts its move: the cards still possible, with the copies of each not yet seen (`ctx.left`,
 * the state's `unaccounted`). */
export function cardPicker(choices, ctx) {
  const { seat, move } = unnamed(choices[0]);
  const who = ctx.players[seat] ?? `seat ${seat}`;
  const said = ctx.said(move);
  return el("div", { id: "card-picker", class: "picker", role: "group", "data-seat": seat,
                     "aria-label": `${who}: ${said}, which card?` },
    el("p", {}, el("span", {}, el("b", { text: who }), `: ${said}, which card?`),
      el("button", { type: "button", class: "close", "aria-label": "close the picker",
                     onclick: (e) => { e.target.closest(".picker").remove(); ctx.closed?.(); } }, "×")),
    el("div", { class: "faces" }, choices.map((choice) => {
      const code = choice.move.card;
      const left = ctx.left ? ctx.left[code] : undefined;
      return el("button", { type: "button", class: "move pick", "data-card": code,
                            "data-move": JSON.stringify(choice.move), "data-seat": choice.seat,
                            "aria-label": `${said} ${code}${left ? ` (${left} not seen yet)` : ""}`,
                            onclick: () => ctx.submit(choice) },
        face(ctx, code), left === undefined ? null : el("small", { class: "left", text: `×${left}` }));
    })));
}

/** The table's setup entry as a form: a picker of faces per card it names (one per seat for a
 * list as long as the table has seats), offering only what may still be named: what the title
 * allows there (`ctx.cardsFor(field, view, spec)`, else the field's choices, else the cards not yet
 * seen), each value no more often across the form than that list holds it; a field the title
 * requires at this table (`ctx.requiredFor(field, view)`) is picked before the setup is recorded. A value the state
 * already holds (named by an earlier deal's setup, or set by an option) is shown and kept; a
 * field whose option is not for this player count is left out. `ctx.submit` posts it. */
export function setupForm(fields, view, ctx) {
  const seats = ctx.players.length;
  const pickers = [];
  const kept = {};
  const parts = [];
  for (const [name, field] of Object.entries(fields)) {
    const option = (ctx.spec.options || []).find((o) => o.name === name);
    const applies = !option || !option.seats.length || option.seats.includes(seats);
    if (!applies) continue;
    const words = name.replace(/_/g, " ");
    // Named already: a value the state holds (an empty list, a board's tiles before the setup
    // lays them, names nothing).
    const held = view[name];
    if (held !== null && held !== undefined && !(Array.isArray(held) && !held.length)) {
      kept[name] = view[name];
      parts.push(el("p", { class: "kept", "data-field": name }, `${words}: `, el("b", { text: String(view[name]) }),
        " (already named)"));
      continue;
    }
    const values = (ctx.cardsFor && ctx.cardsFor(name, view, ctx.spec))
      || (field.choices.length ? field.choices : null)
      || (field.items && field.items.choices.length ? field.items.choices : null)
      || Object.keys(view.unaccounted || {});
    if (!values.length) continue; // the title lays nothing there at this table
    // A field the title needs at this table though the move's shape leaves it optional
    // (Hermit's centre card, laid face up with five players only).
    const required = field.required || Boolean(option) || Boolean(ctx.requiredFor && ctx.requiredFor(name, view));
    if (field.kind === "list") {
      const perSeat = field.shortest <= seats && seats <= field.longest;
      const count = perSeat ? seats : field.shortest;
      const title = (i) => (ctx.labelOf && ctx.labelOf(name, i, ctx.board))
        || (perSeat ? ctx.players[i] : null) || `${words} ${i + 1}`;
      const each = Array.from({ length: count }, (_, i) => picker(name, i, title(i), values, true));
      pickers.push(...each);
      parts.push(el("fieldset", { class: "pickers" }, el("legend", { text: words }), each.map((p) => p.node)));
    } else {
      const one = picker(name, null, words, values, required);
      pickers.push(one);
      parts.push(one.node);
    }
  }
  // Nothing laid face up to name (every card dealt face down): the setup is this one button.
  const bare = !parts.length;
  const record = el("button", { type: "submit", id: "record-setup", disabled: true },
    bare ? "record the deal: every card dealt face down" : "record the setup");
  const form = el("form", { id: "setup-form", "aria-label": "the setup", onsubmit: (e) => {
    e.preventDefault();
    const move = { type: "setup", ...kept };
    for (const p of pickers) {
      if (p.value === null) continue;
      if (p.index === null) move[p.name] = p.value;
      else (move[p.name] ||= [])[p.index] = p.value;
    }
    // Sent once; offered again only if it was refused, as it was picked.
    record.disabled = true;
    Promise.resolve(ctx.submit({ move })).finally(fit);
  } },
  bare ? null : el("h3", { text: `the setup${view.deal ? ` of deal ${view.deal}` : ""}: what the table laid face up` }),
  parts, record);

  function picker(name, index, title, values, needed) {
    const p = { name, index, value: null, needed, values };
    const buttons = [...new Set(values)].map((code) => el("button", {
      type: "button", class: "pick", "data-value": code, "aria-pressed": "false", "aria-label": `${title}: ${code}`,
      onclick: () => { p.value = p.value === code ? null : code; fit(); } }, face(ctx, code)));
    p.buttons = buttons;
    p.node = el("div", { class: "picker", role: "group", "aria-label": title, "data-field": name,
                         "data-index": index ?? "" },
      el("span", { class: "label", text: title }), el("span", { class: "faces" }, buttons));
    return p;
  }

  /** Each value is offered while the form holds it fewer times than the list it came from. */
  function fit() {
    for (const p of pickers) {
      for (const button of p.buttons) {
        const code = button.dataset.value;
        const copies = p.values.filter((v) => v === code).length;
        const elsewhere = pickers.filter((o) => o !== p && o.values.includes(code) && o.value === code).length;
        button.hidden = elsewhere >= copies;
        button.setAttribute("aria-pressed", String(p.value === code));
      }
      p.node.classList.toggle("picked", p.value !== null);
    }
    record.disabled = pickers.some((p) => p.needed && p.value === null);
  }
  fit();
  return form;
}
