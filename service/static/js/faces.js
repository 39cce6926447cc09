// Card faces and tokens several titles share: a colour card (colour and number, as the Keltis
// games and Die sieben Siegel print them), a round token (a wish stone, a seal), and the
// legend that names a table's symbols. A title's table module says which of these a code is;
// the page draws them with CSS (tablelog.css, `.face`, `.token`), no images.
import { el, faceParts } from "./dom.js";

export const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", V: "violet" };

/** "G7": a green 7; "RF": a red final card (it closes its row), as the contract codes them. */
export function colourCard(code) {
  const match = /^([RYGBV])(\d+|F)$/.exec(code);
  if (!match) return { rank: code };
  const colour = COLOUR_NAMES[match[1]];
  const final = match[2] === "F";
  return { class: `c-${colour}`, rank: final ? "F" : match[2], word: final ? "final" : colour,
           title: final ? `${colour} final card (closes its row)` : `${colour} ${match[2]}` };
}

/** A round token: a wish stone or a seal, of a colour (a class `c-<colour>`), with its text. */
export function token(colour, text, title, attrs = {}) {
  return el("span", { ...attrs, class: `token c-${colour} ${attrs.class || ""}`, title }, text);
}

/** A legend: each symbol drawn as on the table, and what it means; folded unless `open`. */
export function legend(title, entries, open = false) {
  return el("details", { class: "legend", open },
    el("summary", { text: title }),
    el("dl", {}, entries.map(([symbol, meaning]) => el("div", {},
      el("dt", {}, symbol), el("dd", { text: meaning })))));
}

/** A face drawn on its own, outside any card of the view (in a legend). */
export function sample(face) {
  return el("span", { class: `card face ${face.class || ""}`, title: face.title || "" }, faceParts(face));
}
