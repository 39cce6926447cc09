// The API as the pages use it: JSON calls that raise a Problem, and the two sources a viewer
// steps through (a stored game, or a replay file with no stored game). Every receipt an answer
// carries is kept (kept.js).
import { keepReceipt } from "./kept.js";

export class Problem extends Error {
  constructor(body) {
    super(body.detail || body.title || "the request failed");
    this.body = body;
    this.code = body.code;
  }
}

export async function call(path, { token, method = "GET", body, accept } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (accept) headers.Accept = accept;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json();
  if (!answer.ok) throw new Problem(data);
  return data;
}

/** `answer`, its receipt kept: a refused move's verdict (422) carries one too. */
export async function receipted(answer) {
  try {
    const data = await answer;
    keepReceipt(data.receipt);
    return data;
  } catch (error) {
    if (error instanceof Problem) keepReceipt(error.body.receipt);
    throw error;
  }
}

let known = null;

/** Every title the server plays, by name: each game's spec (GET /v1/titles), asked for once. */
export function titles() {
  known = known || call("/v1/titles").then((t) => Object.fromEntries(t.titles.map((s) => [s.name, s])));
  return known;
}

/** A game stored by the service, seen with `token` (a seat's, the table's, or none). */
export class StoredGame {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.base = `/v1/games/${encodeURIComponent(id)}`;
  }

  get(tail) {
    return call(this.base + tail, { token: this.token });
  }

  summary() { return this.get(""); }

  views(from, to = "") { return this.get(`/views?from=${from}${to ? `&to=${to}` : ""}`); }

  scoreAt(at) { return this.get(`/score?at=${at}`); }

  async events(after) {
    const found = [];
    for (;;) {
      const page = await this.get(`/events?after=${after}&limit=5000`);
      found.push(...page.events);
      if (page.events.length < 5000) return found;
      after = page.next;
    }
  }

  legalMoves() { return this.get("/legal-moves"); }

  post(tail, body) {
    return receipted(call(this.base + tail, { token: this.token, method: "POST", body }));
  }

  put(tail, body) {
    return receipted(call(this.base + tail, { token: this.token, method: "PUT", body }));
  }

  audit(claimed) { return this.post("/audit?wait=10", { claimed }); }

  async replay() {
    return call(`${this.base}/replay`, { token: this.token });
  }

  /** Entries as they land, through the follow stream; ends when the server closes it. */
  async follow(after, onEntry, signal) {
    const headers = { Accept: "application/x-ndjson" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const answer = await fetch(`${this.base}/events?follow=1&after=${after}`, { headers, signal });
    if (!answer.ok) throw new Problem(await answer.json());
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split("\n");
      buffer = lines.pop();
      for (const line of lines) if (line.trim()) onEntry(JSON.parse(line));
    }
  }
}

/** A downloaded replay document: verified and rebuilt by the service, stored nowhere. */
export class ReplayFile {
  constructor(document) {
    this.document = document;
  }

  async summary() {
    const d = this.document;
    return { id: d.id, game: d.game, players: d.players, options: d.options,
             status: d.status || (d.seed ? "finished" : "in-progress"),
             version: d.entries.length, seed: d.seed };
  }

  async views(from, to = "") {
    try {
      return await call(`/v1/replays/views?from=${from}${to ? `&to=${to}` : ""}`, { method: "POST", body: this.document });
    } catch (error) {
      return (await this.stored(error)).views(from, to || this.document.entries.length);
    }
  }

  async scoreAt(at) {
    try {
      const answer = await call(`/v1/replays/views?from=${at}&to=${at}&score=1`, { method: "POST", body: this.document });
      return answer.steps[0].score;
    } catch (error) {
      return (await this.stored(error)).scoreAt(at);
    }
  }

  /** A replay downloaded by a seat or a spectator while its game ran cannot be dealt again
   *  (`replay-not-rebuildable`): its table is drawn from this server's copy of the same game,
   *  as a spectator sees it, when that log holds the replay's last entry with the same hash.
   *  `unbuilt` keeps the server's reason, which the page says. */
  async stored(error) {
    const { id, entries } = this.document;
    if (error.code !== "replay-not-rebuildable" || !id) throw error;
    const game = new StoredGame(id, null);
    const last = entries[entries.length - 1];
    const found = await game.get(`/events?after=${last.seq - 1}&limit=1`).catch(() => null);
    if (!found || !found.events.length || found.events[0].hash !== last.hash) throw error;
    this.unbuilt = error;
    this.drawnFrom = id;
    return game;
  }

  async events(after) { return this.document.entries.slice(after); }

  verify() { return call("/v1/replays/verify", { method: "POST", body: this.document }); }

  async replay() { return this.document; }
}
