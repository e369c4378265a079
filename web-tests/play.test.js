// What a phase asks of the player, the units still to order, the tab's title and
// the shapes of drawn orders (src/standoff/judge/web/static/play.js; issue 29 §1,
// §2 and §3). `node --test web-tests/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const P = require(path.join(__dirname, "..", "src", "standoff", "judge", "web", "static", "play.js"));

const opt = (location, kind, fields) => ({order: `${kind} ${location}`, kind, location,
  unit: "A " + location, target: null, subject: null, via: null, ...fields});
const game = (fields) => ({status: "active", phase: "S1901M", phase_title: "Spring 1901, Movement",
  position: {units: {france: ["A PAR", "A MAR", "F BRE"]}, centres: {france: ["PAR", "MAR", "BRE"]}},
  ...fields});
const movement = {PAR: [opt("PAR", "hold"), opt("PAR", "move", {target: "BUR"})],
  MAR: [opt("MAR", "hold")], BRE: [opt("BRE", "hold", {unit: "F BRE"})]};

test("a spectator is asked nothing", () => {
  assert.equal(P.prompt(game({}), null, {}, []).kind, "spectator");
});

test("a phase without orders for the player says so, not 'click one of your units' (§3)", () => {
  const p = P.prompt(game({phase: "F1901R", phase_title: "Fall 1901, Retreat"}), "france", {}, []);
  assert.equal(p.kind, "none");
  assert.match(p.text, /nothing to do/);
});

test("movement: the units without an order are named, then 'all units ordered' (§1)", () => {
  const some = P.prompt(game({}), "france", movement, [{order: "A PAR - BUR", kind: "move", location: "PAR"}]);
  assert.deepEqual(some.todo, ["BRE", "MAR"]);
  assert.equal(some.left, 2);
  assert.match(some.text, /2 units still without an order \(BRE, MAR\)/);
  const all = P.prompt(game({}), "france", movement, ["PAR", "MAR", "BRE"].map(
    (l) => ({order: "x " + l, kind: "hold", location: l})));
  assert.equal(all.left, 0);
  assert.match(all.text, /all units ordered/);
});

test("winter: builds N as the rules allow them, not centres minus units (§3)", () => {
  // four centres and one unit, but Spain is no home centre: the rules allow two builds
  const g = game({phase: "W1901A", phase_title: "Winter 1901, Adjustment",
    position: {units: {france: ["A PAR"]}, centres: {france: ["PAR", "MAR", "BRE", "SPA"]}},
    powers: {france: {adjustment: 2}}});
  const table = {MAR: [opt("MAR", "build", {unit: null})], BRE: [opt("BRE", "build", {unit: null})]};
  const p = P.prompt(g, "france", table, [{order: "A MAR BUILD", kind: "build", location: "MAR"}]);
  assert.equal(p.kind, "builds");
  assert.equal(p.left, 1);
  assert.match(p.text, /build 2 units/);
  assert.doesNotMatch(p.text, /click one of your units/i);
});

test("winter: removals N", () => {
  const g = game({phase: "W1901A", position: {units: {france: ["A PAR", "A MAR"]}, centres: {france: ["PAR"]}},
    powers: {france: {adjustment: -1}}});
  const p = P.prompt(g, "france", {PAR: [opt("PAR", "remove")], MAR: [opt("MAR", "remove")]}, []);
  assert.equal(p.kind, "removals");
  assert.match(p.text, /remove 1 unit\b/);
});

test("retreats name the dislodged units", () => {
  const table = {BUR: [opt("BUR", "retreat", {target: "PIC"}), opt("BUR", "disband")]};
  const p = P.prompt(game({phase_title: "Fall 1901, Retreat"}), "france", table, []);
  assert.equal(p.kind, "retreats");
  assert.deepEqual(p.todo, ["BUR"]);
});

test("the tab's title counts what wants the player (§2)", () => {
  assert.equal(P.tabTitle("standoff", 0), "standoff");
  assert.equal(P.tabTitle("standoff", 2), "(2) standoff");
  assert.equal(P.needsCount([{needs_orders: true, unread: 3}, {needs_orders: false, unread: 0}]), 4);
});

test("the deadline line gives the viewer's time and the game's fixed clock time (§2)", () => {
  const g = game({deadline: "2030-01-04T19:00:00Z", deadline_time: "20:00", time_zone: "Europe/Paris"});
  const line = P.deadlineLine(g, "UTC");
  assert.match(line, /19:00/);
  assert.match(line, /20:00 Europe\/Paris/);
  assert.equal(P.deadlineLine({...g, paused: true}, "UTC"), "");
});

test("each kind of order has its shape, from the unit to its targets (§1)", () => {
  const at = (loc) => ({PAR: [0, 0], BUR: [10, 0], MAR: [0, 10], ENG: [5, 5], WAL: [9, 9]})[loc] || null;
  assert.deepEqual(P.shapes(opt("PAR", "move", {target: "BUR"}), at), [{shape: "arrow", from: [0, 0], to: [10, 0]}]);
  assert.deepEqual(P.shapes(opt("MAR", "support_move", {subject: "PAR", target: "BUR"}), at),
    [{shape: "support", from: [0, 10], via: [5, 0], to: [10, 0]}]);
  assert.equal(P.shapes(opt("ENG", "convoy", {subject: "WAL", target: "BUR"}), at)[0].shape, "convoy");
  assert.equal(P.shapes(opt("PAR", "build"), at)[0].shape, "build");
  assert.equal(P.shapes(opt("PAR", "remove"), at)[0].shape, "remove");
  assert.equal(P.shapes(opt("PAR", "retreat", {target: "BUR"}), at)[0].shape, "retreat");
  assert.equal(P.shapes(opt("PAR", "permit"), at)[0].shape, "permit");
  assert.deepEqual(P.shapes(null, at), []);
  assert.deepEqual(P.shorten([0, 0], [10, 0], 2), [8, 0]);
});

test("an order to an empty space ends where its unit would stand, a coast's own spot first (§1)", () => {
  const stp = {x: "410.5", y: "88", coasts: "stp/nc 400,60 stp/sc 420.25,110"};
  assert.deepEqual(P.spaceSpot(stp, "stp/sc"), [420.25, 110]);
  assert.deepEqual(P.spaceSpot(stp, "stp/nc"), [400, 60]);
  assert.deepEqual(P.spaceSpot(stp, "stp"), [410.5, 88]);
  assert.deepEqual(P.spaceSpot({x: "5", y: "7"}, "bur"), [5, 7]);
  assert.equal(P.spaceSpot({}, "bur"), null);
  assert.equal(P.spaceSpot({x: "five", y: "7"}, "bur"), null);
});
