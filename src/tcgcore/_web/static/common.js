// Shared by the lobby and the table: the interface catalogue (gettext messages from the
// server's .po files) and the language switch. No build step, no network beyond this server.
"use strict";
const I18N = { lang: "en", messages: {}, languages: {} };

function _(msg) {
  const t = I18N.messages[msg];
  return t === undefined || t === "" ? msg : t;
}

function fmt(msg, values) {
  return msg.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

async function loadStrings() {
  const asked = new URLSearchParams(location.search).get("lang") || localStorage.getItem("tcgcore.lang") || "";
  const res = await fetch("/api/strings?lang=" + encodeURIComponent(asked));
  const data = await res.json();
  I18N.lang = data.lang;
  I18N.messages = data.messages;
  I18N.languages = data.languages;
  document.documentElement.lang = data.lang.replace("_", "-");
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.textContent = _(el.dataset.i18n);
  }
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

function languageSwitch(onChange) {
  const sel = el("select", { id: "lang", "aria-label": _("Language") });
  for (const [code, name] of Object.entries(I18N.languages)) {
    const opt = el("option", { value: code }, name);
    if (code === I18N.lang) opt.selected = true;
    sel.append(opt);
  }
  sel.addEventListener("change", async () => {
    localStorage.setItem("tcgcore.lang", sel.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", sel.value);
    history.replaceState(null, "", url.toString());
    await loadStrings();
    onChange();
  });
  return sel;
}

// Words the pages look up from the data (zone kinds, card numbers, panel fields): marked here
// so that `pybabel extract -k N_` collects them into the catalogue.
function N_(msg) { return msg; }
const DATA_WORDS = [
  N_("deck"), N_("hand"), N_("arena"), N_("discard"), N_("units"), N_("spirit"), N_("stack"),
  N_("status"), N_("underworld"), N_("astral"), N_("extra"), N_("revival"), N_("act"),
  N_("agenda"), N_("area"), N_("aside"), N_("committed"), N_("encounter"),
  N_("encounter discard"), N_("location"), N_("out"), N_("play"), N_("removed"),
  N_("resolving"), N_("setaside"), N_("victory"),
  N_("strength"), N_("agility"), N_("sequence"), N_("rank"), N_("grade"), N_("fight"),
  N_("health"), N_("evade"), N_("sanity"), N_("shroud"), N_("clues"), N_("doom"), N_("xp"),
  N_("damage"), N_("horror"), N_("willpower"), N_("intellect"), N_("combat"), N_("wild"),
  N_("round"), N_("scores"), N_("target"), N_("phase"), N_("players"), N_("corruption"),
  N_("pathway"), N_("first"), N_("turn player"), N_("resources"), N_("actions"),
  N_("investigators"), N_("locations"), N_("enemies"), N_("chaos bag"), N_("threat"),
  N_("name"), N_("seat"), N_("difficulty"), N_("lead"), N_("assets"), N_("test"),
  N_("tcgcore lobby"), N_("Game log"),
  N_("skull"), N_("cultist"), N_("tablet"), N_("elder sign"), N_("auto fail"), N_("mythos"),
  N_("investigation"), N_("enemy"), N_("upkeep"),
];
