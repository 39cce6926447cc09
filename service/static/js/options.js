// The new-game form's options, as fields made from the title's declared options (GET /v1/titles):
// a number within its bounds, a checkbox, or a choice; each shows its default for the number of
// players typed, and one meant for other player counts is switched off. Only what differs from
// the default is sent, so the server fills in the rest as the spec says.
import { el } from "./dom.js";

function defaultFor(option, seats) {
  if (option.seats.length && !option.seats.includes(seats)) return null;
  return option.defaults[String(seats)] ?? option.default;
}

// An option's name read as words, the unit its name ends in spelled out
// (`turn_limit_s`: "turn limit (seconds)").
const UNITS = { s: "seconds", ms: "milliseconds" };

function label(name) {
  const words = name.split("_");
  const unit = words.length > 1 ? UNITS[words.at(-1)] : undefined;
  return unit ? `${words.slice(0, -1).join(" ")} (${unit})` : words.join(" ");
}

function field(option) {
  const id = `option-${option.name}`;
  // Once changed by hand, a field keeps its value when the player count changes.
  const attrs = { id, name: option.name, "data-kind": option.kind,
                  oninput: (e) => { e.target.dataset.touched = "1"; } };
  let input;
  if (option.kind === "bool") input = el("input", { ...attrs, type: "checkbox" });
  else if (option.kind === "int") input = el("input", { ...attrs, type: "number", min: option.low, max: option.high, step: 1 });
  else {
    // A choice whose default is none of its values (Coloretto's colour left out, drawn by the
    // seed) offers that default first.
    const open = option.default === null ? [el("option", { value: "null", text: "(the default)" })] : [];
    input = el("select", attrs, open, option.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) })));
  }
  return el("div", { class: "option" },
    el("label", { for: id }, `${label(option.name)} `, input),
    el("small", { class: "about" }, option.about,
      option.kind === "int" ? ` (${option.low} to ${option.high})` : ""));
}

/** Fill `fieldset` with the fields of `spec`'s options, set to their defaults for `seats`. */
export function drawOptions(fieldset, spec, seats) {
  const legend = fieldset.querySelector("legend");
  fieldset.replaceChildren(legend, ...(spec.options.length ? spec.options.map(field)
    : [el("p", { class: "about", text: "this title has no options" })]));
  fitOptions(fieldset, spec, seats);
}

/** Show each option's default for `seats` players; switch off those not meant for them. */
export function fitOptions(fieldset, spec, seats) {
  for (const option of spec.options) {
    const input = fieldset.querySelector(`#option-${option.name}`);
    const fallback = defaultFor(option, seats);
    const applies = !option.seats.length || option.seats.includes(seats);
    input.disabled = !applies;
    input.title = applies ? "" : option.not_for;
    if (input.dataset.touched) continue;
    if (option.kind === "bool") input.checked = Boolean(fallback);
    else if (option.kind === "int") input.value = fallback ?? "";
    else input.value = JSON.stringify(fallback ?? option.default);
  }
}

/** The options to send: those set to other than their default for `seats` players. */
export function readOptions(fieldset, spec, seats) {
  const chosen = {};
  for (const option of spec.options) {
    const input = fieldset.querySelector(`#option-${option.name}`);
    if (input.disabled) continue;
    const value = option.kind === "bool" ? input.checked
      : option.kind === "int" ? (input.value === "" ? null : Number(input.value))
        : JSON.parse(input.value);
    if (value !== null && value !== defaultFor(option, seats)) chosen[option.name] = value;
  }
  return chosen;
}
