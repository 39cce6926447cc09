// A seat's moves signed in its own browser (docs/api.md, "Receipts and signatures"): the seat
// chooses to "sign my moves"; an Ed25519 key pair is made here by WebCrypto, its private half
// not extractable and kept in IndexedDB for this game and seat, its public half registered
// with the seat's token. From then on every move this page posts for the seat, table actions
// included, is signed over {game, seat, expected_version, move}: nobody else, the server
// included, can make a move for the seat. Whether the seat has a key is read from its log.
import { b64, canonical, utf8 } from "./canonical.js";
import { el } from "./dom.js";
import { Problem } from "./api.js";

const DB = "tablelog";
const STORE = "seat-keys";

function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function stored(method, ...args) {
  const db = await database();
  try {
    return await new Promise((resolve, reject) => {
      const asked = db.transaction(STORE, method === "get" ? "readonly" : "readwrite").objectStore(STORE)[method](...args);
      asked.onsuccess = () => resolve(asked.result);
      asked.onerror = () => reject(asked.error);
    });
  } finally {
    db.close();
  }
}

/** The key a seat registered, as its log says: at creation, or in a seat-key-registered entry. */
export function registeredKey(entries, seat) {
  const created = entries[0] && entries[0].public_keys;
  if (created && created[String(seat)]) return created[String(seat)];
  const entry = entries.find((e) => e.type === "seat-key-registered" && e.seat === seat);
  return entry ? entry.public_key : null;
}

export class SeatSigning {
  /** `node` offers the choice and says how this seat's moves are signed; `game` is the
   *  StoredGame opened with the seat's token; `changed()` brings the page up to date. */
  constructor(node, game, changed) {
    this.node = node;
    this.game = game;
    this.changed = changed;
    this.held = null; // this browser's key for the seat: {privateKey, public}
    this.signs = false;
  }

  get name() {
    return `${this.game.id}/${this.seat}`;
  }

  /** Say how `seat`'s moves are signed, from its log (`entries`), while the game `running`. */
  async draw(seat, entries, running) {
    this.seat = seat;
    this.node.hidden = seat === null || !running;
    if (this.node.hidden) return;
    if (!window.isSecureContext) {
      this.node.replaceChildren(el("p", { class: "warning", text: "this page is not served over HTTPS: the browser cannot sign your moves here" }));
      return;
    }
    this.held = this.held || (await stored("get", this.name)) || null;
    const registered = registeredKey(entries, seat);
    this.signs = Boolean(registered && this.held && this.held.public === registered);
    if (this.signs) {
      this.node.replaceChildren(el("p", { id: "signing-state", class: "good", "data-signs": "true",
        text: "✔ your moves are signed with this browser's key: nobody else can make them" }));
    } else if (registered) {
      this.node.replaceChildren(el("p", { id: "signing-state", class: "warning", "data-signs": "elsewhere",
        text: "your seat registered a key that this browser does not hold: its moves must be signed where that key is (the command line, another browser); moves made here are refused" }));
    } else {
      this.node.replaceChildren(el("p", { id: "signing-state", "data-signs": "false" },
        el("button", { type: "button", id: "sign-my-moves", onclick: () => this.register() }, "sign my moves"),
        " a key made in this browser signs each of your moves from now on, so that nobody, not the table or the server, can move for you. It cannot be undone: your seat is then played from this browser only."));
    }
  }

  async register() {
    this.node.querySelector("button")?.setAttribute("disabled", "");
    try {
      if (!this.held) {
        const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
        const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
        this.held = { privateKey: pair.privateKey, public: b64(raw) };
        await stored("put", this.held, this.name);
      }
      await this.game.put(`/seats/${this.seat}/key`, { public_key: this.held.public });
    } catch (error) {
      // 409: a key is registered already; the log says whether it is this browser's.
      if (!(error instanceof Problem && error.code === "seat-key-registered")) {
        this.node.append(el("p", { class: "bad", id: "signing-problem", text: error.message }));
        return;
      }
    }
    await this.changed();
  }

  /** `body` signed for the log at `expectedVersion`, when this seat signs its moves. */
  async signed(body, expectedVersion) {
    if (!this.signs) return body;
    const payload = { game: this.game.id, seat: this.seat, expected_version: expectedVersion, move: body.move };
    const sig = await crypto.subtle.sign({ name: "Ed25519" }, this.held.privateKey, utf8(canonical(payload)));
    return { ...body, expected_version: expectedVersion, signature: b64(sig) };
  }
}
