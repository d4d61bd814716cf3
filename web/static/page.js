// A game's page: the live board, kept up to date without reloading, and the replay of the
// game step by step. Everything starts from the JSON embedded in the page (#game-data), so
// a saved copy opened from disk works too; served pages then follow the game through
// server-sent events ("events"), or by polling live.json when those keep failing.
//
// Every word shown is a template of the page's language, embedded in the page (#texts: the
// catalogue's web.* texts); the templates' syntax is the catalogue's ({name}, {n:num},
// {xs:and}, {xs:or}, {xs:list}, {n|one=…|other=…}, positional {n|one|other}, # for the
// number), filled here with the browser's Intl in the page's locale (<html data-locale>).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const isStatic = body.dataset.static === "1";
  const embedded = JSON.parse($("game-data").textContent);
  const TEXTS = JSON.parse($("texts").textContent);
  const LOCALE = document.documentElement.dataset.locale || document.documentElement.lang || "en";
  let live = embedded.live;
  let steps = embedded.steps.steps;
  let turns = embedded.steps.turns;
  // the game's word for a step that fought (Brazil: Imperial's battles, Tigris's conflicts)
  // and the battle menu's words for some and none
  const BATTLE_MENU = {
    battle: ["web.replay.battles", "web.replay.no_battles"],
    conflict: ["web.replay.conflicts", "web.replay.no_conflicts"],
  };
  const battleWord = BATTLE_MENU.hasOwnProperty(embedded.steps.battle_word)
    ? embedded.steps.battle_word
    : "battle";
  let version = live.version;
  let cur = Math.max(0, steps.length - 1); // the replay's step
  let view = body.dataset.view === "replay" ? "replay" : "live";

  document.documentElement.classList.add("js");

  // ------------------------------------------------------------------ the page's words

  const FIELD =
    /\{(?:@([A-Za-z0-9_.-]+)|([A-Za-z_][A-Za-z0-9_]*)((?:\|[^{}|]*)+|(?::[^{}:]*){1,2})?)\}/g;
  const numbers = new Intl.NumberFormat(LOCALE);
  const plurals = new Intl.PluralRules(LOCALE);

  function plural(n, forms) {
    const tag = plurals.select(n);
    let form;
    if (forms.some((f) => f.includes("="))) {
      const table = {};
      for (const f of forms) {
        const at = f.indexOf("=");
        table[f.slice(0, at).trim()] = f.slice(at + 1);
      }
      form = tag in table ? table[tag] : "other" in table ? table.other : forms[0];
    } else {
      form = tag === "one" || forms.length === 1 ? forms[0] : forms[1]; // English: one, other
    }
    return form.split("#").join(String(n));
  }

  function formatted(v, how, empty) {
    if (how === "num") return typeof v === "number" ? numbers.format(v) : String(v);
    if (Array.isArray(v)) {
      if (!v.length && empty !== undefined) return empty;
      if (how === "and" || how === "or") {
        const type = how === "and" ? "conjunction" : "disjunction";
        return new Intl.ListFormat(LOCALE, { type }).format(v.map(String));
      }
      return v.join({ plus: " + ", semi: "; " }[how] || ", ");
    }
    return String(v);
  }

  // The text of a key with its values, in the page's language (the key itself if unknown).
  function text(key, params) {
    const template = TEXTS[key];
    if (template === undefined) return key;
    const p = params || {};
    return template.replace(FIELD, (whole, term, name, rest) => {
      if (term) return TEXTS[term] !== undefined ? TEXTS[term] : term;
      if (!(name in p)) return whole;
      const v = p[name];
      if (!rest) return Array.isArray(v) ? v.join(", ") : String(v);
      if (rest[0] === "|") return plural(typeof v === "number" ? v : 0, rest.slice(1).split("|"));
      const [how, empty] = rest.slice(1).split(":");
      return formatted(v, how, empty);
    });
  }

  // ------------------------------------------------------------------ small helpers

  function el(tag, cls, words) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (words !== undefined) e.textContent = words;
    return e;
  }

  // "Ana (red)": the colour's marker (as on the map), then the label. The colour is the
  // data's, else read from an English label.
  function who(label, colour) {
    const span = el("span", "who");
    const m = /\((blue|orange|green|red)\)$/.exec(label);
    const c = colour || (m ? m[1] : null);
    const dot = el("span", /^(blue|orange|green|red)$/.test(c || "") ? "dot dot-" + c : "dot");
    dot.setAttribute("aria-hidden", "true");
    span.append(dot, label);
    return span;
  }

  function relative(ms) {
    const fmt = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });
    const min = Math.round(ms / 60000);
    if (Math.abs(min) < 60) return fmt.format(min, "minute");
    const h = Math.round(min / 60);
    if (Math.abs(h) < 48) return fmt.format(h, "hour");
    return fmt.format(Math.round(h / 24), "day");
  }

  // A deadline in the reader's own time zone, and how far away it is.
  function dueText(iso) {
    const t = new Date(iso);
    const local = t.toLocaleString(LOCALE, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    });
    const ms = t.getTime() - Date.now();
    return text(ms < 0 ? "web.live.overdue" : "web.live.due_in", {
      when: local,
      left: relative(ms),
    });
  }

  // The same deadline in UTC, as the server writes it ("Thu 1 May, 14:00 UTC").
  function utcText(iso) {
    const t = new Date(iso);
    const day = t.toLocaleDateString(LOCALE, {
      timeZone: "UTC", weekday: "short", day: "numeric", month: "short",
    });
    const time = t.toLocaleTimeString(LOCALE, {
      timeZone: "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    });
    return text("web.live.due_utc", { day, time });
  }

  function showDeadlines() {
    for (const t of document.querySelectorAll("time.due[datetime]")) {
      t.textContent = dueText(t.getAttribute("datetime"));
      t.title = utcText(t.getAttribute("datetime"));
    }
  }

  // ------------------------------------------------------------------ the live board

  function renderWaiting() {
    const box = $("waiting");
    box.replaceChildren();
    if (live.abandoned) {
      box.append(el("p", "", text("web.live.abandoned")));
      return;
    }
    if (live.over) {
      const winners = live.scores.filter((r) => r.winner).map((r) => r.who);
      const won = winners.length ? " " + text("web.live.won_by", { winners }) : "";
      box.append(el("p", "", text("web.live.over") + won));
      return;
    }
    if (!live.waiting.length) {
      box.append(el("p", "", text("web.live.nobody")));
      return;
    }
    const ul = el("ul", "plain");
    for (const w of live.waiting) {
      const li = el("li");
      li.append(who(w.who, w.colour), " · " + w.what + " ");
      if (w.paused) li.append(el("span", "due", text("web.live.paused")));
      else if (w.deadline) {
        const due = el("time", "due");
        due.setAttribute("datetime", w.deadline);
        li.append(due);
      } else if (w.ai) li.append(el("span", "due", text("web.live.ai")));
      ul.append(li);
    }
    box.append(ul);
    showDeadlines();
  }

  function renderLive() {
    body.dataset.version = String(live.version);
    $("title").textContent = live.title;
    $("where").textContent = live.where;
    document.title = live.title + " · " + live.where;
    const img = $("live-map");
    if (img.getAttribute("src") !== live.map) img.src = img.parentNode.href = live.map;
    renderWaiting();
    const last = $("last-turn");
    last.replaceChildren();
    for (const s of live.last_turn) last.append(el("li", "", s));
    if (!live.last_turn.length) last.append(el("li", "muted", text("web.live.nothing")));
    const scores = $("scores");
    scores.replaceChildren();
    for (const r of live.scores) {
      const tr = el("tr");
      const name = el("td", "who");
      name.append(who(r.who, r.colour));
      if (r.winner) name.append(" ", el("span", "badge badge-win", text("web.live.winner")));
      // points behind the player's screen (Tigris & Euphrates): no number
      if (r.hidden) tr.append(name, el("td", "num muted", text("web.live.hidden")));
      else tr.append(name, el("td", "num", String(r.total)));
      scores.append(tr);
    }
  }

  // ------------------------------------------------------------------ the replay

  const range = $("step-range");
  const preloaded = new Map(); // map URL -> Image, kept so the browser keeps them

  function preload(n) {
    const s = steps[n];
    if (!s || preloaded.has(s.map)) return;
    const img = new Image();
    img.src = s.map;
    preloaded.set(s.map, img);
    if (preloaded.size > 12) preloaded.delete(preloaded.keys().next().value);
  }

  function badges(s) {
    const out = [];
    if (s.undone) out.push("undone");
    if (s.kind === "undo" || s.kind === "rollback") out.push(s.kind);
    if (s.battle) out.push(battleWord);
    if (s.era_start) out.push("era");
    return out.map((k) => el("span", "badge badge-" + k, text("web.badge." + k)));
  }

  function setUrl() {
    const q = view === "replay" ? "?step=" + cur : location.pathname.split("/").pop() || "./";
    try {
      history.replaceState(null, "", q);
    } catch (e) {
      // some browsers refuse it for pages opened from disk: the link below still works
    }
  }

  function renderStep() {
    if (!range || !steps.length) return;
    const s = steps[cur];
    const last = steps.length - 1;
    range.max = String(last);
    range.value = String(cur);
    $("prev").disabled = cur <= 0;
    $("next").disabled = cur >= last;
    $("step-no").textContent = text("web.replay.step_of", { n: cur, last });
    $("step-turn").textContent = turns[s.turn] ? turns[s.turn].label : "";
    $("step-badges").replaceChildren(...badges(s));
    $("step-text").textContent = s.text;
    $("step").classList.toggle("undone", !!s.undone);
    const img = $("step-map");
    if (img.getAttribute("src") !== s.map) {
      img.src = img.parentNode.href = s.map;
      img.alt = text("web.replay.map", { n: cur });
    }
    $("step-link").href = "?step=" + cur;
    $("jump-turn").value = String(s.turn);
    if ($("jump-era")) selectLatest($("jump-era"));
    $("jump-battle").value = s.battle ? String(cur) : "";
    preload(cur - 1);
    preload(cur + 1);
    if (view === "replay") setUrl();
  }

  // The era menu shows the era the step is in: its latest start at or before the step.
  function selectLatest(select) {
    let best = "";
    for (const o of select.options) if (o.value !== "" && Number(o.value) <= cur) best = o.value;
    select.value = best;
  }

  function option(value, label) {
    const o = el("option", "", label);
    o.value = String(value);
    return o;
  }

  function buildMenus() {
    if (!range) return;
    $("jump-turn").replaceChildren(...turns.map((t, i) => option(i, t.label)));
    const battles = steps.filter((s) => s.battle);
    const bs = $("jump-battle");
    const count = battles.length;
    const [some, none] = BATTLE_MENU[battleWord];
    bs.replaceChildren(option("", count ? text(some, { n: count }) : text(none)));
    for (const s of battles) {
      const turn = turns[s.turn] ? turns[s.turn].label : text("web.replay.step", { n: s.n });
      const label = text("web.replay.at_step", { label: turn, n: s.n });
      bs.append(option(s.n, s.undone ? text("web.replay.taken_back", { label }) : label));
    }
    bs.disabled = !battles.length;
    const es = $("jump-era");
    if (!es) return; // a game without eras
    es.replaceChildren(option(0, text("web.replay.era_n", { era: 1 })));
    for (const s of steps.filter((x) => x.era_start)) {
      const label = text("web.replay.era_n", { era: s.era });
      es.append(option(s.n, s.undone ? text("web.replay.taken_back", { label }) : label));
    }
  }

  function goTo(n) {
    const last = steps.length - 1;
    n = Math.max(0, Math.min(last, Number(n)));
    if (Number.isNaN(n) || n === cur) return;
    cur = n;
    renderStep();
  }

  function setView(v) {
    view = v;
    body.dataset.view = v;
    $("live").hidden = v !== "live";
    $("replay").hidden = v !== "replay";
    for (const [id, on] of [["tab-live", v === "live"], ["tab-replay", v === "replay"]]) {
      if (on) $(id).setAttribute("aria-current", "page");
      else $(id).removeAttribute("aria-current");
    }
    setUrl();
  }

  function wire() {
    $("tab-live").addEventListener("click", (ev) => {
      ev.preventDefault();
      setView("live");
    });
    $("tab-replay").addEventListener("click", (ev) => {
      ev.preventDefault();
      setView("replay");
      renderStep();
    });
    if (!range) return;
    range.addEventListener("input", () => goTo(range.value));
    $("prev").addEventListener("click", () => goTo(cur - 1));
    $("next").addEventListener("click", () => goTo(cur + 1));
    $("jump-turn").addEventListener("change", (ev) => {
      const t = turns[Number(ev.target.value)];
      if (t) goTo(t.first);
    });
    for (const id of ["jump-battle", "jump-era"]) {
      if (!$(id)) continue;
      $(id).addEventListener("change", (ev) => {
        if (ev.target.value !== "") goTo(ev.target.value);
      });
    }
    document.addEventListener("keydown", (ev) => {
      if (view !== "replay" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      // the slider and the menus use these keys themselves
      if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
      const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: steps.length - 1 };
      if (!(ev.key in to)) return;
      ev.preventDefault();
      goTo(to[ev.key]);
    });
  }

  // ------------------------------------------------------------------ following the game

  const conn = $("conn");
  function status(words, cls) {
    conn.textContent = words;
    conn.className = "conn js-only " + (cls || "");
  }

  let busy = false;
  let again = false;

  // Fetch the game anew; several changes while fetching make one more fetch, not many.
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const [l, s] = await Promise.all([getJson("live.json"), getJson("steps.json")]);
        update(l, s);
      } while (again);
    } catch (e) {
      status(text("web.conn.failed"), "off");
    } finally {
      busy = false;
    }
  }

  async function getJson(url) {
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) throw new Error(url + ": " + r.status);
    return r.json();
  }

  function update(l, s) {
    if (l.version < version) return; // an older answer overtaken by a newer one
    const following = cur >= steps.length - 1; // at the newest step: follow the game
    live = l;
    version = l.version;
    steps = s.steps;
    turns = s.turns;
    renderLive();
    buildMenus();
    cur = following ? steps.length - 1 : Math.min(cur, steps.length - 1);
    renderStep();
  }

  let polling = null;
  function poll() {
    status(text("web.conn.polling", { s: 10 }), "poll");
    if (polling) return;
    polling = setInterval(async () => {
      try {
        const l = await getJson("live.json");
        if (l.version !== version) await refresh();
      } catch (e) {
        // the server is away: try again at the next tick
      }
    }, 10000);
  }

  function follow() {
    if (typeof EventSource === "undefined") return poll();
    const es = new EventSource("events");
    let errors = 0;
    es.addEventListener("open", () => {
      errors = 0;
      status(text("web.conn.live"), "on");
    });
    es.addEventListener("version", (ev) => {
      errors = 0;
      status(text("web.conn.live"), "on");
      const v = JSON.parse(ev.data).version;
      if (v !== version) refresh();
    });
    es.addEventListener("error", () => {
      errors += 1;
      status(text("web.conn.reconnecting"), "off");
      // closed: the server refused the stream (the browser gives up); else it retries
      if (es.readyState === EventSource.CLOSED || errors >= 3) {
        es.close(); // the server or a proxy keeps refusing the stream: poll instead
        poll();
      }
    });
  }

  // ------------------------------------------------------------------ start

  const asked = new URLSearchParams(location.search).get("step");
  if (asked !== null && /^\d+$/.test(asked) && steps.length) {
    cur = Math.min(Number(asked), steps.length - 1);
    view = "replay";
  }
  buildMenus();
  wire();
  setView(view);
  renderStep();
  showDeadlines();
  setInterval(showDeadlines, 60000);
  if (isStatic) status(text("web.conn.saved"), "saved");
  else follow();
})();
