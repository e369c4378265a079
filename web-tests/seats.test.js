// The seat and bot functions of the pages (src/standoff/judge/web/static/logic.js):
// the create form's seating choices as POST /games fields, the powers table's badges,
// the leave form's body and sentence, a phase's bots in a line, and when the game
// page asks again within a second. `node --test web-tests/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const L = require(path.join(__dirname, "..", "src", "standoff", "judge", "web", "static", "logic.js"));

const choice = (fields) => ({power: "", bots: {}, empty: "wait", fillBot: "heuristic", hours: "24",
  takeover: false, takeoverAfter: "2", takeoverBot: "heuristic", ...fields});

test("waiting for people asks for nothing more than the game", () => {
  assert.deepEqual(L.seatingBody(choice({})), {body: {}});
});

test("one person and bots in every other seat now: the common case", () => {
  assert.deepEqual(L.seatingBody(choice({power: "britain", empty: "now", fillBot: "random"})),
    {body: {power: "britain", fill_bot: "random", join_seconds: 0}});
});

test("seats still empty after some hours go to a bot", () => {
  assert.deepEqual(L.seatingBody(choice({empty: "later", hours: "1.5"})),
    {body: {fill_bot: "heuristic", join_seconds: 5400}});
  for (const hours of ["", "-1", "721", "soon"]) {
    assert.match(L.seatingBody(choice({empty: "later", hours})).error, /how many hours/);
  }
});

test("a bot per power leaves out the powers left to people", () => {
  const got = L.seatingBody(choice({power: "england", bots: {france: "heuristic", italy: "", russia: "random"}}));
  assert.deepEqual(got, {body: {power: "england", bots: {france: "heuristic", russia: "random"}}});
});

test("the creator's own power cannot also be a bot's", () => {
  assert.match(L.seatingBody(choice({power: "france", bots: {france: "random"}})).error,
    /You play france yourself/);
});

test("the takeover: after N missed phases, a bot", () => {
  assert.deepEqual(L.seatingBody(choice({takeover: true, takeoverAfter: "3", takeoverBot: "random"})),
    {body: {takeover_after: 3, takeover_bot: "random"}});
  for (const n of ["0", "51", "1.5", ""]) {
    assert.match(L.seatingBody(choice({takeover: true, takeoverAfter: n})).error, /missed phases/);
  }
  // unticked: nothing sent, whatever the boxes hold
  assert.deepEqual(L.seatingBody(choice({takeoverAfter: "0"})), {body: {}});
});

test("badges: who plays a seat when its person does not", () => {
  assert.deepEqual(L.seatBadges({bot: null, away: false, open: false}), []);
  assert.deepEqual(L.seatBadges({bot: "heuristic", away: false, open: false}),
    [{kind: "bot", text: "bot: heuristic"}]);
  assert.deepEqual(L.seatBadges({bot: "random", away: true, open: false}).map((b) => b.kind), ["away", "bot"]);
  assert.deepEqual(L.seatBadges({bot: null, away: true, open: false}), [{kind: "away", text: "on leave"}]);
  assert.deepEqual(L.seatBadges({bot: "random", away: false, open: true}).map((b) => b.text),
    ["bot: random", "open for a new player"]);
});

test("the leave form's body: local times sent as instants, a bot or holds", () => {
  const now = new Date("2030-01-01T12:00").getTime();
  assert.deepEqual(L.leaveBody("", "2030-01-08T12:00", "heuristic", now),
    {body: {until: new Date("2030-01-08T12:00").toISOString(), bot: "heuristic"}});
  assert.deepEqual(L.leaveBody("2030-01-02T09:30", "2030-01-03T09:30", "", now), {body: {
    until: new Date("2030-01-03T09:30").toISOString(), bot: null,
    start: new Date("2030-01-02T09:30").toISOString()}});
});

test("a leave must end in the future and after it starts", () => {
  const now = new Date("2030-01-01T12:00").getTime();
  assert.match(L.leaveBody("", "", "random", now).error, /until when/);
  assert.match(L.leaveBody("", "2029-12-31T12:00", "random", now).error, /in the future/);
  assert.match(L.leaveBody("2030-01-05T00:00", "2030-01-04T00:00", "random", now).error, /after it starts/);
  assert.match(L.leaveBody("", "not a date", "random", now).error, /as the boxes show/);
});

test("the leave in a sentence, begun or to come", () => {
  const when = (iso) => iso.slice(0, 10);
  const now = Date.parse("2030-01-01T12:00:00Z");
  assert.equal(L.leaveText({start: "2030-01-01T00:00:00Z", until: "2030-01-09T00:00:00Z", bot: "heuristic"}, when, now),
    "On leave until 2030-01-09: the heuristic bot plays your power.");
  assert.equal(L.leaveText({start: "2030-01-05T00:00:00Z", until: "2030-01-09T00:00:00Z", bot: null}, when, now),
    "On leave from 2030-01-05 until 2030-01-09: your units hold.");
  assert.equal(L.leaveText(null, when, now), "");
});

test("a phase's bots in a line, by the variant's names", () => {
  assert.equal(L.botsLine({}, {}), "");
  assert.equal(L.botsLine({france: "heuristic", ussr: "random"}, {france: "France", ussr: "USSR"}),
    "Played by bots: France (heuristic), USSR (random)");
});

test("the page asks again soon only while the phase waits for bots alone", () => {
  const game = (powers, extra) => ({status: "active", paused: false, powers, ...extra});
  const person = (ready) => ({to_order: true, ready, bot: null});
  const bot = {to_order: true, ready: false, bot: "random"};
  const idle = {to_order: false, ready: false, bot: null};
  assert.equal(L.waitsForBots(game({england: person(true), france: bot, italy: idle})), true);
  assert.equal(L.waitsForBots(game({england: person(false), france: bot})), false);
  assert.equal(L.waitsForBots(game({england: person(true), france: bot}, {paused: true})), false);
  assert.equal(L.waitsForBots(game({england: person(true)}, {status: "finished"})), false);
  assert.equal(L.waitsForBots(game({england: idle})), false);
  assert.equal(L.waitsForBots(null), false);
});
