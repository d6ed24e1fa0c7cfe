// The table: one seat's view (or a spectator's), pushed by the server over a WebSocket after
// every change; choices as clickable cards and buttons; the log; card details on hover or tap.
// The seat's secret is read from the link's fragment (never sent in a URL) and sent once, in
// the join message.
"use strict";
const MATCH = decodeURIComponent(location.pathname.split("/").pop());
const FRAG = new URLSearchParams(location.hash.slice(1));
const SEAT = FRAG.has("s") ? Number(FRAG.get("s")) : null;
const TOKEN = FRAG.get("t");
const ADMIN = FRAG.get("a");
const REPLAY = location.pathname.startsWith("/replay/");
const T = { ws: null, view: null, game: "", seats: [], log: [], cards: {}, asked: new Set(), selected: new Set(),
  nextId: 1, waiting: {}, retry: 500, sentSeq: null };

function send(req) {
  return new Promise((resolve) => {
    if (!T.ws || T.ws.readyState !== WebSocket.OPEN) return resolve(null);
    const id = T.nextId++;
    T.waiting[id] = resolve;
    T.ws.send(JSON.stringify({ ...req, id }));
  });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/ws");
  T.ws = ws;
  setConn("connecting");
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ op: "join", match: MATCH, seat: SEAT, token: TOKEN, admin: ADMIN, lang: I18N.lang }));
  });
  ws.addEventListener("message", (e) => onMessage(JSON.parse(e.data)));
  ws.addEventListener("close", () => {
    setConn("offline");
    setTimeout(connect, T.retry);
    T.retry = Math.min(T.retry * 2, 5000);
  });
}

function setConn(state) {
  const box = document.getElementById("conn");
  box.className = "conn " + state;
  box.dataset.state = state;
  box.textContent = { connecting: _("connecting…"), online: _("connected"), offline: _("reconnecting…") }[state];
}

function onMessage(msg) {
  if (msg.type === "joined") {
    T.retry = 500;
    T.log = [];
    T.selected.clear();
    setConn("online");
    return;
  }
  if (msg.type === "update") {
    if (msg.reset) T.log = [];
    T.canUndo = msg.can_undo;
    T.view = msg.view;
    T.layout = msg.layout || null;
    T.game = msg.game;
    T.title = msg.title || msg.game;
    T.seats = msg.seats;
    T.log.push(...msg.log);
    const pend = T.view.pending;
    if (pend) {  // a choice's JSON leaves out its defaults
      pend.min = pend.min ?? 1;
      pend.max = pend.max ?? 1;
      pend.seq = pend.seq ?? 0;
    }
    if (!pend || pend.seq !== T.sentSeq) T.selected.clear();
    askCatalogue();
    render();
    return;
  }
  if (msg.type === "error") {
    showError(msg.error.message);
    return;
  }
  if (msg.id && T.waiting[msg.id]) {
    const done = T.waiting[msg.id];
    delete T.waiting[msg.id];
    if (!msg.ok) showError(msg.error.message);
    done(msg);
  } else if (msg.ok === false) {
    showError(msg.error.message);
  }
}

function showError(text) {
  const box = document.getElementById("choice");
  box.prepend(el("p", { class: "error" }, text));
}

function viewCodes() {
  const codes = new Set();
  for (const z of T.view.zones) for (const c of z.cards || []) if (c && c.code) codes.add(c.code);
  const scan = (v) => {
    if (Array.isArray(v)) v.forEach(scan);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) {
      if ((k === "code" || k.endsWith("_code")) && typeof x === "string") codes.add(x);
      else if (k === "threat" && Array.isArray(x)) x.forEach((c) => typeof c === "string" && codes.add(c));
      else scan(x);
    }
  };
  scan(T.view.panel);
  scan(T.layout);
  return [...codes];
}

async function askCatalogue() {
  const missing = viewCodes().filter((c) => !T.asked.has(c));
  if (!missing.length) return;
  missing.forEach((c) => T.asked.add(c));
  const answer = REPLAY ? await catalogueOverHttp(missing.slice(0, 500))
    : await send({ op: "catalogue", codes: missing.slice(0, 500), lang: I18N.lang });
  if (answer && answer.ok) {
    Object.assign(T.cards, answer.cards);
    render();
  }
}

async function catalogueOverHttp(codes) {
  const res = await fetch("/api/catalogue/" + encodeURIComponent(MATCH) + "?lang=" + I18N.lang + "&codes=" + encodeURIComponent(codes.join(",")));
  return res.json();
}

function cardName(code) {
  const info = T.cards[code];
  return info ? info.name : code;
}

function seatName(s) {
  if (s === null || s === undefined) return "";
  const who = T.seats[s] && T.seats[s] !== "human" ? " (" + T.seats[s] + ")" : "";
  return (s === SEAT ? fmt(_("You, seat {n}"), { n: s }) : fmt(_("Seat {n}"), { n: s })) + who;
}

function optionsByCard() {
  const map = new Map();
  const pend = T.view && T.view.pending;
  if (!pend) return map;
  for (const o of pend.options) {
    if (o.card === null || o.card === undefined) continue;
    if (!map.has(o.card)) map.set(o.card, []);
    map.get(o.card).push(o);
  }
  return map;
}

function cardTile(c, byCard) {
  if (!c) return el("div", { class: "card empty" }, _("empty"));
  if (c.code === undefined || c.code === null) {
    return el("div", { class: "card back" + (c.exhausted ? " exhausted" : "") }, _("face down"), counters(c));
  }
  const info = T.cards[c.code];
  const opts = byCard.get(c.id) || [];
  const picked = opts.some((o) => T.selected.has(o.key));
  const stats = info && info.stats ? Object.entries(info.stats).map(([k, v]) => _(k) + " " + v).join(" · ") : "";
  const tile = el("div", {
    class: "card" + (c.exhausted ? " exhausted" : "") + (c.face_down ? " facedown" : "") + (opts.length ? " playable" : "") + (picked ? " picked" : ""),
    "data-card": c.id, "data-code": c.code, tabindex: 0,
    title: opts.map((o) => o.label).join("\n"),
  },
  el("div", { class: "name" }, info ? info.name : c.code),
  info && info.cost !== undefined && info.cost !== null ? el("div", { class: "cost" }, info.cost) : null,
  info && info.type ? el("div", { class: "type" }, info.type) : null,
  stats ? el("div", { class: "stats" }, stats) : null,
  counters(c));
  tile.addEventListener("mouseenter", () => showDetail(c.code));
  tile.addEventListener("click", () => {
    showDetail(c.code);
    if (opts.length === 1) pick(opts[0]);
  });
  return tile;
}

function counters(c) {
  const entries = Object.entries(c.counters || {});
  if (!entries.length) return null;
  return el("div", { class: "counters" }, entries.map(([k, v]) => el("span", { class: "counter" }, k.replace(/_/g, " ") + " " + v)));
}

function showDetail(code) {
  const box = document.getElementById("detail");
  const info = T.cards[code];
  if (!info) {
    box.replaceChildren(el("h2", {}, code));
    return;
  }
  box.replaceChildren(...[
    el("h2", {}, info.name),
    el("p", { class: "type" }, [info.type, info.cost !== undefined && info.cost !== null ? _("cost") + " " + info.cost : null].filter(Boolean).join(" · ")),
    info.stats ? el("p", { class: "stats" }, Object.entries(info.stats).map(([k, v]) => _(k) + " " + v).join(" · ")) : null,
    info.icons && info.icons.length ? el("p", { class: "icons" }, info.icons.map((i) => _(i)).join(" ")) : null,
    el("pre", { class: "text" }, info.text || "")].filter((x) => x));
}

function pick(option) {
  const pend = T.view.pending;
  if (!pend) return;
  if (pend.min === 1 && pend.max === 1) {
    choose([option.key]);
    return;
  }
  if (T.selected.has(option.key)) T.selected.delete(option.key);
  else if (T.selected.size < pend.max) T.selected.add(option.key);
  render();
}

async function choose(keys) {
  const pend = T.view.pending;
  T.sentSeq = pend.seq;
  await send({ op: "choose", keys, seq: pend.seq });
}

async function replayStep(step) {
  const res = await fetch("/api/replay/" + encodeURIComponent(MATCH) + "?step=" + step);
  const msg = await res.json();
  if (msg.type !== "replay") {
    showError(msg.error ? msg.error.message : String(res.status));
    return;
  }
  T.view = msg.view;
  T.layout = msg.layout || null;
  T.over = msg.over;
  T.game = msg.game;
  T.title = msg.title || msg.game;
  T.seats = msg.seats;
  T.log = msg.log;
  T.step = msg.step;
  T.steps = msg.steps;
  askCatalogue();
  render();
}

function renderReplay(box) {
  const go = (n) => replayStep(Math.max(0, Math.min(T.steps, n)));
  const button = (id, label, n) => {
    const b = el("button", { type: "button", id, disabled: n < 0 || n > T.steps || n === T.step }, label);
    b.addEventListener("click", () => go(n));
    return b;
  };
  box.append(el("h2", { id: "replay-step" }, fmt(_("Replay: decision {step} of {steps}"), { step: T.step, steps: T.steps })),
    el("div", { class: "replay-controls" }, button("replay-first", "⏮", 0), button("replay-prev", "◀", T.step - 1),
      button("replay-next", "▶", T.step + 1), button("replay-last", "⏭", T.steps)));
  if (T.view.result) box.append(el("p", { id: "result" }, _("Game over")));
  if (T.over) box.append(el("p", { id: "replay-open", class: "hint" }, _("The match is over: every seat's cards are shown.")));
}

function renderChoice() {
  const box = document.getElementById("choice");
  const v = T.view;
  box.replaceChildren();
  if (REPLAY) {
    renderReplay(box);
    return;
  }
  const pending = v.pending;
  box.dataset.seq = pending ? String(pending.seq) : "";
  box.dataset.min = pending ? String(pending.min) : "";
  box.dataset.max = pending ? String(pending.max) : "";
  if (v.result) {
    const r = v.result;
    const won = r.winners && r.winners.length ? fmt(_("Winner: {who}"), { who: r.winners.map(seatName).join(", ") }) : _("No winner");
    box.append(el("div", { class: "result", id: "result" }, el("h2", {}, _("Game over")), el("p", {}, won), el("p", {}, r.reason || ""),
      el("a", { href: "/replay/" + encodeURIComponent(MATCH) + location.search, id: "replay-link" }, _("Watch the replay"))));
    return;
  }
  const pend = v.pending;
  if (!pend) {
    box.append(el("p", { class: "waiting", id: "waiting" }, v.waiting_for === null || v.waiting_for === undefined ? "" : fmt(_("Waiting for {who}…"), { who: seatName(v.waiting_for) })));
    return;
  }
  const multi = !(pend.min === 1 && pend.max === 1);
  box.append(el("h2", { id: "prompt" }, pend.prompt));
  if (multi) box.append(el("p", { class: "hint" }, fmt(_("Choose {min} to {max}."), { min: pend.min, max: pend.max })));
  const list = el("div", { class: "options" });
  for (const o of pend.options) {
    const label = o.card !== null && o.card !== undefined ? cardLabel(o) : o.label;
    const btn = el("button", { type: "button", class: "option" + (T.selected.has(o.key) ? " picked" : ""), "data-key": o.key,
      "aria-pressed": multi ? String(T.selected.has(o.key)) : null }, label);
    btn.addEventListener("click", () => pick(o));
    if (o.card !== null && o.card !== undefined) {
      const c = findCard(o.card);
      if (c && c.code) btn.addEventListener("mouseenter", () => showDetail(c.code));
    }
    list.append(btn);
  }
  box.append(list);
  if (multi) {
    const n = T.selected.size;
    const ok = el("button", { type: "button", id: "confirm", class: "confirm", disabled: n < pend.min || n > pend.max },
      fmt(_("Confirm ({n} chosen)"), { n }));
    ok.addEventListener("click", () => choose([...T.selected]));
    box.append(ok);
  }
  if (T.canUndo) {
    const undo = el("button", { type: "button", id: "undo", class: "undo" }, _("Undo my last decision"));
    undo.addEventListener("click", () => send({ op: "undo" }));
    box.append(undo);
  }
}

function findCard(alias) {
  for (const z of T.view.zones) for (const c of z.cards || []) if (c && c.id === alias) return c;
  return null;
}

function cardLabel(o) {
  const c = findCard(o.card);
  if (!c || !c.code) return o.label;
  const name = cardName(c.code);
  return o.label.includes(name) ? o.label : o.label + " — " + name;
}

function renderBoard() {
  const board = document.getElementById("board");
  const v = T.view;
  const byCard = optionsByCard();
  const groups = new Map();
  for (const z of v.zones) {
    const key = z.owner === undefined || z.owner === null ? "shared" : z.owner;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(z);
  }
  const order = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  board.replaceChildren(...order.map((key) => el("section", { class: "seat" + (key === SEAT ? " mine" : ""), "data-owner": key },
    el("h2", {}, key === "shared" ? _("Shared") : seatName(key)),
    el("div", { class: "zones" }, groups.get(key).map((z) => el("div", { class: "zone kind-" + z.kind, "data-zone": z.id },
      el("h3", {}, _(z.kind).replace(/_/g, " "), " ", el("span", { class: "count" }, "(" + (z.count || 0) + ")")),
      el("div", { class: "cards" }, (z.cards || []).length ? z.cards.map((c) => cardTile(c, byCard))
        : z.count ? [el("div", { class: "card back" }, fmt(_("{n} hidden"), { n: z.count }))] : []))))))); 
}

function rank(key) {
  if (key === SEAT) return 1000;
  if (key === "shared") return -1;
  return key;
}

function renderPanel() {
  const box = document.getElementById("panel");
  const p = T.view.panel || {};
  const tableau = document.getElementById("tableau");
  if (T.layout) {  // the game's layout (GameSpec.table_layout); the raw facts stay folded
    renderLayout(tableau, T.layout);
    box.replaceChildren(el("h2", {}, _("Game facts")), el("details", {}, el("summary", {}, _("All facts")), tree(p, 0)));
  } else {
    tableau.replaceChildren();
    box.replaceChildren(el("h2", {}, _("Game facts")), tree(p, 0));
  }
}

function tree(value, depth) {
  if (Array.isArray(value)) {
    if (value.every((x) => x === null || typeof x !== "object")) return el("span", {}, value.map(show).join(", "));
    return el("ol", { class: "tree" }, value.map((x) => el("li", {}, tree(x, depth + 1))));
  }
  if (value && typeof value === "object") {
    return el("dl", { class: "tree" }, Object.entries(value).flatMap(([k, x]) => [el("dt", {}, _(k.replace(/_/g, " "))), el("dd", {}, tree(x, depth + 1))]));
  }
  return el("span", {}, show(value));
}

function show(x) {
  if (typeof x === "string" && T.cards[x]) return T.cards[x].name;
  if (typeof x === "number" && x > 65535) {  // a card's id in the viewer's view (its alias)
    const c = findCard(x);
    if (c && c.code) return cardName(c.code);
  }
  return x === null || x === undefined ? "—" : String(x);
}

function renderLog() {
  const box = document.getElementById("log");
  const shown = T.log.slice(-300);
  box.replaceChildren(...shown.map((line) => el("li", {}, line)));
  box.scrollTop = box.scrollHeight;
}

function renderAdmin() {
  const box = document.getElementById("admin");
  if (!ADMIN) {
    box.replaceChildren();
    return;
  }
  const btn = el("button", { type: "button", id: "save" }, _("Download save"));
  btn.addEventListener("click", async () => {
    const answer = await send({ op: "save" });
    if (!answer || !answer.ok) return;
    const data = { format: answer.format, data: answer.data, signature: answer.signature };
    const blob = new Blob([JSON.stringify(data)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: MATCH + ".tcgsave.json" });
    document.body.append(a);
    a.click();
    a.remove();
  });
  box.replaceChildren(el("h2", {}, _("Admin")), btn);
}

function render() {
  if (!T.view) return;
  document.getElementById("langbox").replaceChildren(languageSwitch(() => {
    T.asked.clear();
    T.cards = {};
    if (!REPLAY) send({ op: "lang", lang: I18N.lang });
    askCatalogue();
    render();
  }));
  const v = T.view;
  document.getElementById("title").textContent = T.title;
  document.title = T.title + " — tcgcore";
  document.getElementById("status").textContent = fmt(_("Turn {turn}"), { turn: v.turn }) + " · " + (REPLAY ? _("Replay") : SEAT === null ? _("Spectator") : seatName(SEAT));
  renderBoard();
  renderChoice();
  renderPanel();
  renderLog();
  renderAdmin();
}

(async () => {
  await loadStrings();
  if (REPLAY) {
    document.getElementById("conn").remove();
    await replayStep(0);
  } else {
    connect();
  }
})();
