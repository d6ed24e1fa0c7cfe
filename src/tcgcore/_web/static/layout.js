// A game's table layout (GameSpec.table_layout, docs/web.md): blocks of four generic kinds
// (text, table, cards, map) built by the game from the seat's view and sent in each update.
// This file draws them; it knows no game. Words in blocks are interface messages, translated
// here through the catalogue; cards are named from the card catalogue in the page's language.
"use strict";

function cellText(c) {
  if (!c) return "";
  const parts = [];
  if (c.seat !== undefined && c.seat !== null) parts.push(seatName(c.seat));
  if (c.code) parts.push(cardName(c.code));
  else if (c.card !== undefined && c.card !== null) {
    const found = findCard(c.card);
    parts.push(found && found.code ? cardName(found.code) : "?");
  }
  if (c.word) parts.push(_(c.word));
  if (c.value !== undefined && c.value !== null) parts.push(String(c.value));
  return parts.join(" ");
}

function cellNode(c) {
  const node = el("span", { class: "cell" + (c.mark ? " mark-" + c.mark.replace(/\W+/g, "-") : ""), "data-label": c.label || null },
    c.label ? el("span", { class: "label" }, _(c.label) + " ") : null, el("span", { class: "value" }, cellText(c)));
  const code = c.code || (c.card !== undefined && c.card !== null && (findCard(c.card) || {}).code);
  if (code) node.addEventListener("mouseenter", () => showDetail(code));
  return node;
}

function cellsLine(cells) {
  return (cells || []).flatMap((c, i) => (i ? [" · ", cellNode(c)] : [cellNode(c)]));
}

function blockHead(b) {
  return b.title ? el("h3", {}, _(b.title)) : null;
}

const BLOCKS = {
  text(b) {
    const args = Object.fromEntries(Object.entries(b.args || {}).map(([k, c]) => [k, cellText(c)]));
    return el("div", { class: "block block-text" }, blockHead(b),
      el("p", {}, b.text ? fmt(_(b.text), args) : null, b.text && (b.cells || []).length ? " · " : null, cellsLine(b.cells)));
  },
  table(b) {
    return el("div", { class: "block block-table" }, blockHead(b), el("table", { class: "facts" },
      el("tr", {}, el("th", {}, ""), (b.columns || []).map((c) => el("th", {}, cellText(c)))),
      (b.rows || []).map((r) => el("tr", {}, el("th", {}, _(r.label)), (r.cells || []).map((c) => el("td", {}, cellNode(c)))))));
  },
  cards(b, byCard) {
    return el("div", { class: "block block-cards" }, blockHead(b),
      el("div", { class: "cards" }, (b.slots || []).length ? b.slots.map((s) => slotTile(s, byCard)) : el("span", { class: "none" }, "—")));
  },
  map(b, byCard) {
    return el("div", { class: "block block-map" }, blockHead(b), mapNode(b, byCard));
  },
};

// Options whose target is this place (a zone and a slot), such as where a card is played.
function placeOptions(slot) {
  const pend = T.view && T.view.pending;
  if (!pend || !slot.zone || slot.slot === undefined || slot.slot === null) return [];
  return pend.options.filter((o) => o.target && o.target.zone === slot.zone && o.target.slot === slot.slot);
}

function slotTile(s, byCard) {
  const own = s.card !== undefined && s.card !== null ? byCard.get(s.card) || [] : [];
  const target = placeOptions(s).filter((o) => !own.includes(o));
  const opts = own.length ? own : target;
  const picked = opts.some((o) => T.selected.has(o.key));
  const cls = "card slot" + (s.code ? "" : s.face_down ? " back" : " empty") + ((s.marks || []).includes("tapped") || (s.marks || []).includes("exhausted") ? " exhausted" : "")
    + (own.length ? " playable" : "") + (target.length && !own.length ? " target" : "") + (picked ? " picked" : "");
  const tile = el("div", { class: cls, "data-card": s.card ?? null, "data-code": s.code || null, "data-zone": s.zone || null, "data-slot": s.slot ?? null, tabindex: opts.length ? 0 : null,
    title: opts.map((o) => o.label).join("\n") || null },
  s.name ? el("div", { class: "slot-name" }, _(s.name)) : null,
  s.code ? el("div", { class: "name" }, cardName(s.code)) : el("div", { class: "name" }, s.face_down ? _("face down") : _("empty")),
  (s.facts || []).length ? el("div", { class: "facts" }, s.facts.map((c) => el("div", { class: "fact" }, cellNode(c)))) : null,
  (s.marks || []).length ? el("div", { class: "marks" }, s.marks.map((m) => el("span", { class: "counter" }, _(m)))) : null);
  if (s.code) tile.addEventListener("mouseenter", () => showDetail(s.code));
  tile.addEventListener("click", () => {
    if (s.code) showDetail(s.code);
    if (opts.length === 1) pick(opts[0]);
  });
  return tile;
}

// SVG's namespace, as the HTML parser gives it (the pages name no address).
const SVG_NS = (() => { const box = document.createElement("div"); box.innerHTML = "<svg></svg>"; return box.firstChild.namespaceURI; })();

// Places laid out in columns by their distance (in connections) from the first place, lines
// drawn between connected places in an SVG under them.
function mapNode(b, byCard) {
  const nodes = b.nodes || [];
  const links = new Map(nodes.map((n) => [n.id, []]));
  for (const [a, z] of b.edges || []) {
    if (links.has(a) && links.has(z)) { links.get(a).push(z); links.get(z).push(a); }
  }
  const depth = new Map();
  for (const start of nodes) {
    if (depth.has(start.id)) continue;
    const base = depth.size ? Math.max(...depth.values()) + 1 : 0;
    depth.set(start.id, base);
    const queue = [start.id];
    while (queue.length) {
      const at = queue.shift();
      for (const next of links.get(at)) if (!depth.has(next)) { depth.set(next, depth.get(at) + 1); queue.push(next); }
    }
  }
  const columns = new Map();
  const place = new Map();
  for (const n of nodes) {
    const col = depth.get(n.id);
    const row = columns.get(col) || 0;
    columns.set(col, row + 1);
    place.set(n.id, [col, row]);
  }
  const W = 180, H = 100, GAP = 36;
  const width = Math.max(1, ...[...columns.keys()].map((c) => c + 1)) * (W + GAP);
  const height = Math.max(1, ...columns.values()) * (H + GAP);
  const svgNS = SVG_NS;
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("class", "map-lines");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const drawn = new Set();
  for (const [a, z] of b.edges || []) {
    const key = a < z ? a + "-" + z : z + "-" + a;
    if (drawn.has(key) || !place.has(a) || !place.has(z)) continue;
    drawn.add(key);
    const [ca, ra] = place.get(a), [cz, rz] = place.get(z);
    const line = document.createElementNS(svgNS, "line");
    line.setAttribute("x1", ca * (W + GAP) + W / 2); line.setAttribute("y1", ra * (H + GAP) + H / 2);
    line.setAttribute("x2", cz * (W + GAP) + W / 2); line.setAttribute("y2", rz * (H + GAP) + H / 2);
    line.setAttribute("data-edge", key);
    svg.append(line);
  }
  const box = el("div", { class: "map" });
  Object.assign(box.style, { width: width + "px", height: height + "px" });  // CSSOM: the CSP allows no style attributes
  box.append(svg);
  for (const n of nodes) {
    const [col, row] = place.get(n.id);
    const opts = byCard.get(n.id) || [];
    const marks = n.marks || [];
    const node = el("div", { class: "map-node" + (marks.length ? " " + marks.join(" ") : "") + ((n.seats || []).length ? " occupied" : "") + (opts.length ? " playable" : ""),
      "data-location": n.id,
      title: opts.map((o) => o.label).join("\n") || null },
    el("h4", {}, n.code ? cardName(n.code) : "?"),
    marks.length ? el("p", { class: "marks" }, marks.map((m) => _(m)).join(", ")) : null,
    (n.facts || []).length ? el("p", {}, cellsLine(n.facts)) : null,
    (n.seats || []).length ? el("p", { class: "who" }, n.seats.map(seatName).join(", ")) : null,
    (n.cards || []).length ? el("div", { class: "cards" }, n.cards.map((s) => slotTile(s, byCard))) : null);
    Object.assign(node.style, { left: col * (W + GAP) + "px", top: row * (H + GAP) + "px", width: W + "px", minHeight: H + "px" });
    if (n.code) node.addEventListener("mouseenter", () => showDetail(n.code));
    node.addEventListener("click", (e) => {
      if (e.target.closest(".slot")) return;
      if (opts.length === 1) pick(opts[0]);
    });
    box.append(node);
  }
  return el("div", { class: "map-scroll" }, box);
}

// The layout grouped by owner: shared blocks first, then each seat's, the viewer's own last.
function renderLayout(box, blocks) {
  const byCard = optionsByCard();
  const groups = new Map();
  for (const b of blocks) {
    const key = b.owner === undefined || b.owner === null ? "shared" : b.owner;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(b);
  }
  const order = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  box.replaceChildren(...order.map((key) => el("section", { class: "seat layout-group" + (key === SEAT ? " mine" : ""), "data-owner": key },
    key === "shared" ? null : el("h2", {}, seatName(key)),
    el("div", { class: "blocks" }, groups.get(key).map((b) => (BLOCKS[b.kind] ? BLOCKS[b.kind](b, byCard) : null))))));
}
