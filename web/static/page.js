// A game's page: the live board, kept up to date without reloading, and the replay of the
// game step by step. Everything starts from the JSON embedded in the page (#game-data), so
// a saved copy opened from disk works too; served pages then follow the game through
// server-sent events ("events"), or by polling live.json when those keep failing.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const isStatic = body.dataset.static === "1";
  const embedded = JSON.parse($("game-data").textContent);
  let live = embedded.live;
  let steps = embedded.steps.steps;
  let turns = embedded.steps.turns;
  let version = live.version;
  let cur = Math.max(0, steps.length - 1); // the replay's step
  let view = body.dataset.view === "replay" ? "replay" : "live";

  document.documentElement.classList.add("js");

  // ------------------------------------------------------------------ small helpers

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // "Ana (red)": the colour's marker (as on the map), then the label.
  function who(label) {
    const span = el("span", "who");
    const m = /\((blue|orange|green|red)\)$/.exec(label);
    const dot = el("span", m ? "dot dot-" + m[1] : "dot");
    dot.setAttribute("aria-hidden", "true");
    span.append(dot, label);
    return span;
  }

  function relative(ms) {
    const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    const min = Math.round(ms / 60000);
    if (Math.abs(min) < 60) return fmt.format(min, "minute");
    const h = Math.round(min / 60);
    if (Math.abs(h) < 48) return fmt.format(h, "hour");
    return fmt.format(Math.round(h / 24), "day");
  }

  // A deadline in the reader's own time zone, and how far away it is.
  function dueText(iso) {
    const t = new Date(iso);
    const local = t.toLocaleString(undefined, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    });
    const ms = t.getTime() - Date.now();
    return (ms < 0 ? "overdue since " : "due ") + local + " (" + relative(ms) + ")";
  }

  function showDeadlines() {
    for (const t of document.querySelectorAll("time.due[datetime]")) {
      t.textContent = dueText(t.getAttribute("datetime"));
      t.title = t.getAttribute("datetime").replace("T", " ").replace("Z", " UTC");
    }
  }

  // ------------------------------------------------------------------ the live board

  function renderWaiting() {
    const box = $("waiting");
    box.replaceChildren();
    if (live.abandoned) {
      box.append(el("p", "", "This game was abandoned."));
      return;
    }
    if (live.over) {
      const winners = live.scores.filter((r) => r.winner).map((r) => r.who);
      const won = winners.length ? " Won by " + winners.join(" and ") + "." : "";
      box.append(el("p", "", "The game is over." + won));
      return;
    }
    if (!live.waiting.length) {
      box.append(el("p", "", "Nobody to wait for."));
      return;
    }
    const ul = el("ul", "plain");
    for (const w of live.waiting) {
      const li = el("li");
      li.append(who(w.who), " · " + w.what + " ");
      if (w.paused) li.append(el("span", "due", "clock paused"));
      else if (w.deadline) {
        const t = el("time", "due");
        t.setAttribute("datetime", w.deadline);
        li.append(t);
      } else if (w.ai) li.append(el("span", "due", "computer player"));
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
    if (!live.last_turn.length) last.append(el("li", "muted", "Nothing yet."));
    const scores = $("scores");
    scores.replaceChildren();
    for (const r of live.scores) {
      const tr = el("tr");
      const name = el("td", "who");
      name.append(who(r.who));
      if (r.winner) name.append(" ", el("span", "badge badge-win", "winner"));
      tr.append(name, el("td", "num", String(r.total)));
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
    if (s.undone) out.push(["undone", "taken back"]);
    if (s.kind === "undo" || s.kind === "rollback") out.push([s.kind, s.kind]);
    if (s.battle) out.push(["battle", "battle"]);
    if (s.era_start) out.push(["era", "new era"]);
    return out.map(([k, t]) => el("span", "badge badge-" + k, t));
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
    $("step-no").textContent = "Step " + cur + " of " + last;
    $("step-turn").textContent = turns[s.turn] ? turns[s.turn].label : "";
    $("step-badges").replaceChildren(...badges(s));
    $("step-text").textContent = s.text;
    $("step").classList.toggle("undone", !!s.undone);
    const img = $("step-map");
    if (img.getAttribute("src") !== s.map) {
      img.src = img.parentNode.href = s.map;
      img.alt = "The map at step " + cur;
    }
    $("step-link").href = "?step=" + cur;
    $("jump-turn").value = String(s.turn);
    selectLatest($("jump-era"));
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

  function option(value, text) {
    const o = el("option", "", text);
    o.value = String(value);
    return o;
  }

  function buildMenus() {
    if (!range) return;
    $("jump-turn").replaceChildren(...turns.map((t, i) => option(i, t.label)));
    const battles = steps.filter((s) => s.battle);
    const bs = $("jump-battle");
    bs.replaceChildren(option("", battles.length ? battles.length + " battles" : "No battles yet"));
    for (const s of battles) {
      const label = (turns[s.turn] ? turns[s.turn].label : "Step " + s.n) + " · step " + s.n;
      bs.append(option(s.n, s.undone ? label + " (taken back)" : label));
    }
    bs.disabled = !battles.length;
    const es = $("jump-era");
    es.replaceChildren(option(0, "Era 1"));
    for (const s of steps.filter((x) => x.era_start)) {
      es.append(option(s.n, "Era " + s.era + (s.undone ? " (taken back)" : "")));
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
  function status(text, cls) {
    conn.textContent = text;
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
      status("Update failed; retrying", "off");
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
    status("Checking every 10 s", "poll");
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
      status("● Live", "on");
    });
    es.addEventListener("version", (ev) => {
      errors = 0;
      status("● Live", "on");
      const v = JSON.parse(ev.data).version;
      if (v !== version) refresh();
    });
    es.addEventListener("error", () => {
      errors += 1;
      status("Reconnecting…", "off");
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
  if (isStatic) status("Saved copy", "saved");
  else follow();
})();
