// The lobby: create a match of any installed game (options, decks, who plays each seat) and
// hand out one invite link per seat, a spectator link and an admin link; or load a save.
"use strict";
let GAMES = [];
let HUMAN = "human";

function seatRows(game, count, box) {
  box.replaceChildren();
  for (let s = 0; s < count; s++) {
    const kind = el("select", { class: "seat-kind", "data-seat": s, "aria-label": fmt(_("Seat {n}"), { n: s }) },
      el("option", { value: HUMAN }, _("Person")),
      ...game.agents.map((a) => el("option", { value: a }, fmt(_("Agent: {name}"), { name: a }))));
    const deck = el("textarea", { class: "seat-deck", rows: 2, "data-seat": s,
      placeholder: _("Deck: a name or a deck list (optional)") });
    const file = el("input", { type: "file", "aria-label": _("Deck file") });
    file.addEventListener("change", async () => {
      if (file.files.length) deck.value = await file.files[0].text();
    });
    box.append(el("div", { class: "seat-row" }, el("label", {}, fmt(_("Seat {n}"), { n: s }), " ", kind), deck, file));
  }
}

function render() {
  const main = document.getElementById("main");
  document.getElementById("langbox").replaceChildren(languageSwitch(render));
  const gameSel = el("select", { id: "game", "aria-label": _("Game") },
    ...GAMES.map((g) => el("option", { value: g.name }, g.name + " — " + g.description)));
  const players = el("input", { id: "players", type: "number", min: 1, max: 8 });
  const seed = el("input", { id: "seed", type: "number", min: 0, placeholder: _("random") });
  const options = el("textarea", { id: "options", rows: 3, placeholder: '{"scenario": "..."}' });
  const seats = el("div", { id: "seats" });
  const out = el("div", { id: "links" });
  const current = () => GAMES.find((g) => g.name === gameSel.value);
  const refresh = () => {
    const g = current();
    players.min = g.players[0];
    players.max = g.players[1];
    if (!players.value || +players.value < g.players[0] || +players.value > g.players[1]) players.value = g.default_players;
    seatRows(g, +players.value, seats);
  };
  gameSel.addEventListener("change", () => { players.value = ""; refresh(); });
  players.addEventListener("change", refresh);
  const create = el("button", { id: "create", type: "button" }, _("Create match"));
  create.addEventListener("click", async () => {
    out.replaceChildren();
    let opts = {};
    try {
      opts = options.value.trim() ? JSON.parse(options.value) : {};
    } catch (e) {
      out.append(el("p", { class: "error" }, _("Options must be a JSON object.")));
      return;
    }
    const decks = [...seats.querySelectorAll(".seat-deck")].map((t) => t.value.trim());
    const filled = decks.filter((d) => d);
    if (filled.length) opts.decks = filled;
    const body = {
      game: gameSel.value, players: +players.value, options: opts,
      seats: [...seats.querySelectorAll(".seat-kind")].map((s) => s.value),
    };
    if (seed.value !== "") body.seed = +seed.value;
    const res = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    showLinks(await res.json(), out);
  });
  const loadFile = el("input", { id: "loadfile", type: "file", "aria-label": _("Save file") });
  const loadBtn = el("button", { id: "load", type: "button" }, _("Resume a saved match"));
  loadBtn.addEventListener("click", async () => {
    out.replaceChildren();
    if (!loadFile.files.length) return;
    let save;
    try {
      save = JSON.parse(await loadFile.files[0].text());
    } catch (e) {
      out.append(el("p", { class: "error" }, _("This file is not a save of this server.")));
      return;
    }
    const res = await fetch("/api/load", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ data: save.data, signature: save.signature }) });
    showLinks(await res.json(), out);
  });
  main.replaceChildren(
    el("section", { class: "card-box" },
      el("h2", {}, _("New match")),
      el("label", {}, _("Game"), " ", gameSel),
      el("label", {}, _("Players"), " ", players),
      el("label", {}, _("Seed"), " ", seed),
      el("label", { class: "wide" }, _("Options (JSON)"), " ", options),
      seats, create),
    el("section", { class: "card-box" }, el("h2", {}, _("Saved match")), loadFile, loadBtn),
    out);
  refresh();
}

function showLinks(answer, out) {
  if (!answer.ok) {
    out.append(el("p", { class: "error" }, answer.error.message));
    return;
  }
  const base = location.origin + "/table/" + answer.match;
  const lang = I18N.lang === "en" ? "" : "?lang=" + I18N.lang;
  const rows = answer.tokens.map((t, s) => {
    if (answer.seats[s] !== HUMAN) return el("li", {}, fmt(_("Seat {n}"), { n: s }), ": ", fmt(_("Agent: {name}"), { name: answer.seats[s] }));
    const url = base + lang + "#s=" + s + "&t=" + encodeURIComponent(t);
    return el("li", {}, fmt(_("Seat {n}"), { n: s }), ": ", el("a", { href: url, class: "seat-link", "data-seat": s, target: "_blank" }, url));
  });
  const admin = base + lang + "#a=" + encodeURIComponent(answer.admin_token);
  out.append(el("section", { class: "card-box", id: "created", "data-match": answer.match },
    el("h2", {}, _("Invite links")),
    el("p", {}, _("Each link carries its seat's secret: give it only to that player.")),
    el("ul", {}, rows),
    el("p", {}, _("Spectators"), ": ", el("a", { href: base + lang, class: "watch-link" }, base + lang)),
    el("p", {}, _("Admin (saves)"), ": ", el("a", { href: admin, class: "admin-link" }, admin))));
}

(async () => {
  await loadStrings();
  const res = await fetch("/api/games");
  const data = await res.json();
  GAMES = data.games;
  HUMAN = data.human;
  render();
})();
