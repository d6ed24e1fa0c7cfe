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
