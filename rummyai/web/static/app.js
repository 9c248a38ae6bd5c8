// The rummyai web page: play against agents with hints, and step through recorded games.
// Plain JavaScript talking to the service's JSON routes; no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// milliseconds per animated hint step (?step_ms=50 speeds it up, e.g. for browser tests)
const STEP_MS = Number(new URLSearchParams(location.search).get("step_ms") || 900);

// ---------------------------------------------------------------- cards
function base(token) { return token.split("=")[0].split("/")[0]; }

function cardElement(token, extra) {
  const el = document.createElement("span");
  const head = base(token);
  el.className = "card";
  el.dataset.token = token;
  if (head === "JK") {
    el.classList.add("joker");
    el.innerHTML = "<i>\u2605</i>";
    const meaning = token.includes("=") ? token.split("=")[1] : "";
    if (meaning) el.innerHTML += `<small>${meaning.replace("T", "10")}</small>`;
  } else {
    const rank = head.slice(0, -1), suit = head.slice(-1);
    el.classList.add("s-" + suit);
    el.innerHTML = `<b>${rank === "T" ? "10" : rank}</b><i>${SUITS[suit] || suit}</i>`;
    if (token.includes("=")) el.innerHTML += `<small>=${token.split("=")[1]}</small>`;
  }
  if (extra) el.classList.add(extra);
  return el;
}

function backs(count) {
  const wrap = document.createElement("span");
  for (let k = 0; k < count; k++) wrap.appendChild(cardElement("XX", "back")).innerHTML = "";
  return wrap;
}

function meldElement(cards, label, moved) {
  const el = document.createElement("div");
  el.className = "meld";
  if (label) {
    const tag = document.createElement("span");
    tag.className = "label";
    tag.textContent = label;
    el.appendChild(tag);
  }
  const left = [...(moved || [])];
  for (const token of cards) {
    const k = left.indexOf(base(token));
    const card = cardElement(token, k >= 0 ? "moved" : null);
    if (k >= 0) left.splice(k, 1);
    el.appendChild(card);
  }
  return el;
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try { response = await fetch(path, options); }
  catch (error) { throw new Error("the service did not answer: is rummyai serve still running?"); }
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  const el = $("error");
  el.textContent = message || "";
  el.hidden = !message;
}

// ---------------------------------------------------------------- play
// `notice`: the round-end line shown until the person's next move; `announced`: the last round
// announced, per game, so that a re-render or a refresh does not announce it again
const play = { game: null, hint: null, draft: null, selected: new Set(), animating: false, shown: 0,
  notice: "", announced: { id: null, round: 0 }, dealing: false };

async function setUp() {
  const [variants, agents] = await Promise.all([call("GET", "/v1/variants"), call("GET", "/v1/agents")]);
  for (const v of variants) $("variant").add(new Option(`${v.name} (${v.id})`, v.id));
  document.querySelectorAll(".opponent").forEach((select, k) => {
    if (k > 0) select.add(new Option("none", ""));
    for (const a of agents) select.add(new Option(a.name, a.name));
    if (k === 0) select.value = "greedy";
  });
}

async function deal(event) {
  event.preventDefault();
  showError("");
  const opponents = [...document.querySelectorAll(".opponent")].map((s) => s.value).filter(Boolean);
  play.dealing = true;  // a saved game the page resumes meanwhile does not take this one's place
  try {
    const body = { variant: $("variant").value, opponents, seed: Number($("seed").value || 0) };
    if ($("max-turns").value) body.max_turns = Number($("max-turns").value);
    const options = $("options").value.split(",").map((o) => o.trim()).filter(Boolean);
    if (options.length) body.options = options;
    const game = await call("POST", "/v1/games", body);
    play.notice = "";
    showGame(game);
  } catch (error) { showError(error.message); }
  finally { play.dealing = false; }
}

function showGame(game) {
  play.game = game;
  sessionStorage.setItem(SAVED_GAME, game.id);  // a refresh of the page comes back to it
  play.shown += 1;  // how many game states the page has shown (tests wait on it)
  play.hint = null;
  play.draft = game.table.map((m) => [...m]);
  play.selected.clear();
  $("game").hidden = false;
  $("hint-panel").hidden = true;
  $("hint-panel").dataset.done = "";
  const turn = game.match_over
    ? `Game over. Scores: ${game.scores.join(" / ")}; ${game.winners.includes(0) ? "you win!" : "winner: " + game.winners.map((s) => game.seats[s]).join(", ")}`
    : game.your_turn ? `Round ${game.round}: your turn` : `Round ${game.round}: waiting for ${game.seats[game.to_act]}`;
  $("status").textContent = turn;
  const ended = game.last_round;
  if (ended && (play.announced.id !== game.id || play.announced.round < ended.round)) {
    play.notice = ended.text;  // a round ended since the page last showed this game
    play.announced = { id: game.id, round: ended.round };
  }
  $("round-over").textContent = play.notice;
  $("round-over").hidden = !play.notice;
  const seats = $("opponents");
  seats.innerHTML = "";
  game.seats.forEach((name, seat) => {
    if (seat === 0) return;
    const el = document.createElement("div");
    el.className = "seat" + (game.to_act === seat ? " to-act" : "");
    el.innerHTML = `<span>${name}: ${cardCount(game.hand_sizes[seat])}, score ${game.scores[seat]}</span>`;
    el.appendChild(backs(Math.min(game.hand_sizes[seat], 20)));
    seats.appendChild(el);
  });
  const extra = [];
  if (game.stock_size !== null && game.stock_size !== undefined) extra.push(`stock ${game.stock_size}`);
  if (game.discard && game.discard.length) extra.push(`discard ${game.discard[game.discard.length - 1]}`);
  extra.push(`your score ${game.scores[0]}`);
  $("table-note").textContent = extra.join(" \u00b7 ");
  const tile = game.family === "play_or_draw";
  $("draft-tools").hidden = !(tile && game.your_turn);
  for (const id of ["play-legal", "legal"]) $(id).disabled = !game.your_turn;
  // a hint answers the turn's play: none before the draw (the position is then null)
  for (const id of ["hint", "explain"]) $(id).disabled = !game.your_turn || !game.position;
  const legal = $("legal");
  legal.innerHTML = "";
  for (const m of game.legal) legal.add(new Option(m.label, m.index));
  if (game.legal_count > game.legal.length) legal.add(new Option(`(${game.legal_count - game.legal.length} more not listed)`, ""));
  const log = $("log");
  log.innerHTML = "";
  for (const entry of game.log) {
    const li = document.createElement("li");
    li.textContent = `${entry.who}: ${entry.move}`;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
  renderDraft();
}

function draftHand() {
  // the hand minus the cards the draft table already uses from it
  const hand = [...play.game.hand];
  const before = play.game.table.flat().map(base);
  const after = play.draft.flat().map(base);
  for (const token of before) { const k = after.indexOf(token); if (k >= 0) after.splice(k, 1); }
  for (const token of after) { const k = hand.indexOf(token); if (k >= 0) hand.splice(k, 1); }
  return hand;
}

function renderDraft() {
  const table = $("table");
  table.innerHTML = "";
  play.draft.forEach((meld, i) => {
    const label = i < play.game.table.length ? `meld ${i + 1}` : "new";
    const el = meldElement(meld, label);
    if (play.selected.size && play.game.your_turn) {
      el.classList.add("target");
      el.title = "add the selected cards to this meld";
      el.addEventListener("click", () => addToMeld(i));
    }
    table.appendChild(el);
  });
  const hand = $("hand");
  hand.innerHTML = "";
  draftHand().forEach((token, k) => {
    const el = cardElement(token, play.selected.has(k) ? "selected" : null);
    el.addEventListener("click", () => {
      if (play.animating) return;
      if (play.selected.has(k)) play.selected.delete(k); else play.selected.add(k);
      renderDraft();
    });
    hand.appendChild(el);
  });
}

function takeSelected() {
  const hand = draftHand();
  const cards = [...play.selected].sort((a, b) => a - b).map((k) => hand[k]);
  play.selected.clear();
  return cards;
}

function addToMeld(i) { play.draft[i] = [...play.draft[i], ...takeSelected()]; renderDraft(); }

function newMeld() {
  const cards = takeSelected();
  if (cards.length) play.draft.push(cards);
  renderDraft();
}

// one move at a time: a second click before the answer would send a list number or a table
// meant for the position the first move leaves behind
let submitting = false;

function cardCount(n) { return n === 1 ? "1 card" : `${n} cards`; }

async function submit(path, body) {
  if (submitting) return;
  submitting = true;
  showError("");
  play.notice = "";
  try { showGame(await call("POST", `/v1/games/${play.game.id}/${path}`, body)); }
  catch (error) { showError(error.message); }
  finally { submitting = false; }
}

async function askHint() {
  showError("");
  $("hint-panel").dataset.done = "";
  $("hint").disabled = true;
  try {
    play.hint = await call("POST", "/v1/hint", { ...play.game.position, alternatives: 3 });
  } catch (error) { showError(error.message); return; }
  finally { $("hint").disabled = !play.game.your_turn || !play.game.position; }
  return play.hint;
}

async function showHint() {
  if (!(await askHint())) return;
  $("alternatives").innerHTML = "";
  await animate(play.hint.best);
}

async function explain() {
  if (!play.hint && !(await askHint())) return;
  const panel = $("alternatives");
  panel.innerHTML = "<h3>Alternatives</h3>";
  $("hint-panel").hidden = false;
  const moves = [play.hint.best, ...play.hint.alternatives];
  moves.forEach((move, k) => {
    const el = document.createElement("div");
    el.className = "alternative";
    el.dataset.label = move.label;
    for (const [tag, text] of [
      ["h3", (k === 0 ? "Best: " : "") + move.title],
      ["p", move.explanation],
      ["p", [count(move.cards_played, "card"), count(move.points_played, "point"), count(move.steps.length, "step")].join(", ")],
    ]) el.appendChild(document.createElement(tag)).textContent = text;
    const show = document.createElement("button");
    show.textContent = "Show";
    show.className = "show-alternative";
    show.addEventListener("click", () => animate(move));
    el.appendChild(show);
    panel.appendChild(el);
  });
  if (moves.length === 1) panel.appendChild(document.createElement("p")).textContent = "No other move differs from the best one.";
}

function count(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

// Carry a suggestion's steps out on the table, one step at a time, then show its new table.
async function animate(move) {
  if (play.animating) return;
  play.animating = true;
  $("hint-panel").dataset.done = "";
  const start = play.game.table;
  $("hint-panel").hidden = false;
  $("hint-explanation").textContent = move.explanation;
  const list = $("hint-steps");
  list.innerHTML = "";
  for (const step of move.steps) {
    const li = document.createElement("li");
    li.textContent = step.text;
    list.appendChild(li);
  }
  $("play-hint").hidden = true;
  const places = start.map((m, i) => ({ key: `s${i}`, label: `meld ${i + 1}`, cards: [...m] }));
  let hand = [...play.game.hand];
  const placeOf = (to) => (move.origin[to] !== null ? `s${move.origin[to]}` : `n${to}`);
  const remove = (cards, token) => { const k = cards.findIndex((c) => base(c) === token); if (k >= 0) cards.splice(k, 1); };
  const draw = (moved, target) => {
    const table = $("table");
    table.innerHTML = "";
    for (const place of places) {
      const el = meldElement(place.cards, place.label, place.key === target ? moved : []);
      if (place.key === target) el.classList.add("changed");
      table.appendChild(el);
    }
    const handEl = $("hand");
    handEl.innerHTML = "";
    for (const token of hand) handEl.appendChild(cardElement(token));
  };
  draw([], null);
  for (let k = 0; k < move.steps.length; k++) {
    const step = move.steps[k];
    list.children[k].className = "current";
    await sleep(STEP_MS / 3);
    if (play.game.table !== start) { play.animating = false; return; } // a move was made meanwhile
    const laid = step.opening === undefined ? null : `o${step.opening}`; // an opening meld
    if (step.from_meld !== null) step.cards.forEach((c) => remove(places.find((p) => p.key === `s${step.from_meld}`).cards, c));
    else if (laid !== null && step.action !== "open") step.cards.forEach((c) => remove(places.find((p) => p.key === laid).cards, c));
    else step.cards.forEach((c) => remove(hand, c));
    let target = null;
    if (step.action === "open") { // laid first to open; the later steps move its cards on
      target = laid;
      places.push({ key: target, label: "opening meld", cards: [...step.cards] });
    } else if (step.action === "swap") {
      target = `s${step.swap_meld}`;
      places.find((p) => p.key === target).cards.push(...step.cards);
    } else if (step.to_meld === null) {
      hand.push(...step.cards);
    } else {
      target = placeOf(step.to_meld);
      let place = places.find((p) => p.key === target);
      if (!place) {
        place = { key: target, label: `new meld ${step.to_meld + 1}`, cards: [] };
        places.push(place);
      }
      place.cards.push(...step.cards);
    }
    draw(step.cards.map(base), target);
    await sleep(STEP_MS);
    if (play.game.table !== start) { play.animating = false; return; }
    list.children[k].className = "done";
  }
  // the new table exactly as the answer writes it (runs in order, wilds with their meanings)
  const table = $("table");
  table.innerHTML = "";
  move.melds.forEach((meld, j) => {
    const label = move.origin[j] !== null ? `meld ${move.origin[j] + 1}` : `new meld ${j + 1}`;
    table.appendChild(meldElement(meld, label, []));
  });
  const left = [...play.game.hand];
  move.played.forEach((c) => remove(left, c));
  const handEl = $("hand");
  handEl.innerHTML = "";
  for (const token of left) handEl.appendChild(cardElement(token));
  play.animating = false;
  const playable = play.game.family === "play_or_draw" && move.played.length > 0;
  const button = $("play-hint");
  button.hidden = !playable;
  button.onclick = () => submit("table", { melds: move.melds });
  $("hint-panel").dataset.done = "true";
}

// ---------------------------------------------------------------- replays
const replay = { run: null, game: null, frame: 0 };

async function openReplays() {
  let listing;
  try { listing = await call("GET", "/v1/runs"); }
  catch (error) { $("runs-info").textContent = error.message; replay.run = null; return; }  // asked again next time
  $("runs-info").textContent = `${listing.folder}: ${listing.variant}, agents ${listing.agents.join(", ")}`;
  const select = $("replay-game");
  select.innerHTML = "";
  for (const g of listing.games) {
    const text = `game ${g.game + 1}: ${g.seats.join(" vs ")} (${g.scores.join(" / ")})` + (g.moves === null ? " - no moves recorded" : "");
    const option = new Option(text, g.game);
    option.disabled = g.moves === null;
    select.add(option);
  }
  const first = listing.games.find((g) => g.moves !== null);
  if (first) { select.value = first.game; await loadReplay(first.game); }
}

async function loadReplay(n) {
  try { replay.game = await call("GET", `/v1/runs/${n}`); }
  catch (error) { $("replay-move").textContent = error.message; return; }
  $("frame-slider").max = replay.game.frames.length - 1;
  showFrame(0);
}

function showFrame(k) {
  if (!replay.game) return; // no tournament folder, or its game failed to load
  const frames = replay.game.frames;
  replay.frame = Math.max(0, Math.min(k, frames.length - 1));
  const frame = frames[replay.frame];
  $("frame-slider").value = replay.frame;
  $("frame-label").textContent = `move ${replay.frame} of ${frames.length - 1}`;
  const who = frame.seat === null ? "" : `${replay.game.seats[frame.seat]} (seat ${frame.seat + 1}): `;
  $("replay-move").textContent = `Round ${frame.round}. ${who}${frame.move}`;
  const hands = $("replay-hands");
  hands.innerHTML = "";
  const open = $("show-hands").checked;
  frame.hands.forEach((cards, seat) => {
    const row = document.createElement("div");
    row.className = "replay-seat" + (frame.to_act === seat ? " to-act" : "");
    row.innerHTML = `<span class="who">${replay.game.seats[seat]} (${cardCount(cards.length)}, score ${frame.scores[seat]})</span>`;
    if (open) cards.forEach((c) => row.appendChild(cardElement(c)));
    else row.appendChild(backs(cards.length));
    hands.appendChild(row);
  });
  showPiles(frame);
  const table = $("replay-table");
  table.innerHTML = "";
  frame.table.forEach((meld, i) => table.appendChild(meldElement(meld, `meld ${i + 1}`)));
}

// the stock's size and, in draw-and-discard games, the discard pile with its top card face up
function showPiles(frame) {
  const piles = $("replay-piles");
  piles.innerHTML = "";
  if (frame.stock_size !== null && frame.stock_size !== undefined) {
    const stock = document.createElement("span");
    stock.id = "replay-stock";
    stock.textContent = `stock: ${frame.stock_size} cards`;
    piles.appendChild(stock);
  }
  if (frame.discard && frame.discard.length) {
    const pile = document.createElement("span");
    pile.id = "replay-discard";
    pile.textContent = `discard pile: ${frame.discard.length} cards, top`;
    pile.appendChild(cardElement(frame.discard[frame.discard.length - 1]));
    piles.appendChild(pile);
  }
}

// ---------------------------------------------------------------- wiring
// The tabs are addresses (#play, #replays), so the browser's Back and Forward move between them.
function tabOfAddress() { return location.hash === "#replays" ? "replay" : "play"; }

function showTab(name) {
  $("play-view").hidden = name !== "play";
  $("replay-view").hidden = name !== "replay";
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-replay").classList.toggle("active", name === "replay");
  if (name === "replay" && !replay.run) { replay.run = true; openReplays(); }
}

const SAVED_GAME = "rummyai-game";

async function resume() {
  const id = sessionStorage.getItem(SAVED_GAME);
  if (!id) return;
  let game;
  try { game = await call("GET", `/v1/games/${encodeURIComponent(id)}`); }
  catch (error) { sessionStorage.removeItem(SAVED_GAME); return; }  // the service forgot it (a restart)
  if (!play.game && !play.dealing) showGame(game);  // unless a new deal came first, or is coming
}

document.addEventListener("DOMContentLoaded", () => {
  setUp().then(resume).catch((error) => showError(error.message));
  $("new-game").addEventListener("submit", deal);
  $("hint").addEventListener("click", showHint);
  $("explain").addEventListener("click", explain);
  $("new-meld").addEventListener("click", newMeld);
  $("reset-draft").addEventListener("click", () => { showError(""); showGame(play.game); });
  $("end-turn").addEventListener("click", () => submit("table", { melds: play.draft }));
  $("play-legal").addEventListener("click", () => {
    const value = $("legal").value;
    if (value !== "") submit("choose", { index: Number(value) });
  });
  $("tab-play").addEventListener("click", () => { location.hash = "#play"; });
  $("tab-replay").addEventListener("click", () => { location.hash = "#replays"; });
  window.addEventListener("hashchange", () => showTab(tabOfAddress()));
  $("replay-game").addEventListener("change", (e) => loadReplay(Number(e.target.value)));
  $("first").addEventListener("click", () => showFrame(0));
  $("prev").addEventListener("click", () => showFrame(replay.frame - 1));
  $("next").addEventListener("click", () => showFrame(replay.frame + 1));
  $("last").addEventListener("click", () => showFrame(Infinity));
  $("frame-slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  $("show-hands").addEventListener("change", () => showFrame(replay.frame));
  showTab(tabOfAddress());
});
