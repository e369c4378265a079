// The pages' pure functions (src/standoff/judge/web/static/logic.js), with Node's
// own test runner: `node --test web-tests/` (tests/test_js.py runs it in the suite).
// The options below are in the shape GET .../legal/options answers (the judge's
// web README), for France in Fall 1901 after F BRE - MAO, A PAR - GAS.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const L = require(path.join(__dirname, "..", "src", "standoff", "judge", "web", "static", "logic.js"));

/* an option as the judge writes it: every field present, null where it does not apply */
const option = (fields) => ({order: null, kind: null, location: null, unit: null, unit_type: null,
  target: null, via: null, supported: null, convoyed: null, subject: null, power: null, ...fields});
const move = (type, from, to, via = null) => option({
  order: `${type} ${from} - ${to}` + (via === "convoy" ? " VIA CONVOY" : ""), kind: "move",
  location: from, unit: `${type} ${from}`, unit_type: type, target: to, via});
const support = (from, type, subject, to) => option({
  order: `A ${from} S ${type} ${subject}` + (to ? ` - ${to}` : ""),
  kind: to ? "support_move" : "support_hold", location: from, unit: `A ${from}`, unit_type: "A",
  target: to || subject, subject, supported: `${type} ${subject}` + (to ? ` - ${to}` : "")});
const convoy = (from, army, to) => option({order: `F ${from} C A ${army} - ${to}`, kind: "convoy",
  location: from, unit: `F ${from}`, unit_type: "F", target: to, subject: army,
  convoyed: `A ${army} - ${to}`});

const TABLE = {
  GAS: [
    option({order: "A GAS H", kind: "hold", unit: "A GAS", unit_type: "A", location: "GAS"}),
    move("A", "GAS", "BRE", "land"), move("A", "GAS", "BRE", "convoy"),
    move("A", "GAS", "BUR", "land"), move("A", "GAS", "SPA", "land"),
    move("A", "GAS", "POR", "convoy"),
    support("GAS", "F", "MAO"), support("GAS", "F", "MAO", "SPA"),
    support("GAS", "A", "MAR", "SPA"), support("GAS", "A", "MAR"),
  ],
  MAO: [
    option({order: "F MAO H", kind: "hold", unit: "F MAO", unit_type: "F", location: "MAO"}),
    move("F", "MAO", "SPA/NC"), move("F", "MAO", "SPA/SC"), move("F", "MAO", "BRE"),
    convoy("MAO", "GAS", "BRE"), convoy("MAO", "GAS", "POR"),
  ],
  ANK: [
    option({order: "A ANK H", kind: "hold", unit: "A ANK", unit_type: "A", location: "ANK"}),
    option({order: "ANK PERMIT ITALY", kind: "permit", location: "ANK", power: "italy"}),
    option({order: "A ANK NO CONVERT", kind: "no_convert", unit: "A ANK", unit_type: "A",
      location: "ANK"}),
  ],
  "STP/SC": [move("F", "STP/SC", "BOT")],
};

/* click through the pad's walk: kind, then map clicks; the final state */
function walk(key, kind, ...locs) {
  let candidates = TABLE[key].filter((o) => L.menuKind(o) === kind);
  let state = L.next(candidates, 0);
  locs.forEach((loc, step) => {
    assert.ok(state.click, `no click expected after ${locs.slice(0, step)}: ${JSON.stringify(state)}`);
    candidates = L.narrow(candidates, step, loc);
    state = L.next(candidates, step + 1);
  });
  return state;
}

test("the menu's kinds, in a fixed order, supports and NO CONVERT under the page's names", () => {
  assert.deepEqual(L.kindsOf(TABLE.GAS), ["hold", "move", "support"]);
  assert.deepEqual(L.kindsOf(TABLE.ANK), ["hold", "permit", "noconvert"]);
  assert.deepEqual(L.kindsOf([{order: "X", kind: "newkind"}]), ["newkind"]);
});

test("a move to an adjacent province a convoy can also make asks: by land or by convoy", () => {
  const state = walk("GAS", "move", "BRE");
  assert.ok(state.via, JSON.stringify(state));
  assert.equal(state.via.land.order, "A GAS - BRE");
  assert.equal(state.via.convoy.order, "A GAS - BRE VIA CONVOY");
  assert.equal(L.hint("GAS", "move", state), "By land or by convoy?");
});

test("a move with one route is sent at once", () => {
  assert.equal(walk("GAS", "move", "BUR").send.order, "A GAS - BUR");
  assert.equal(walk("GAS", "move", "POR").send.order, "A GAS - POR VIA CONVOY");
  assert.equal(walk("GAS", "hold").send.order, "A GAS H");
  assert.equal(walk("STP/SC", "move", "BOT").send.order, "F STP/SC - BOT");
});

test("a click on a split province leaves its coasts to pick", () => {
  const state = walk("MAO", "move", "SPA");
  assert.deepEqual(state.pick.map((o) => o.order), ["F MAO - SPA/NC", "F MAO - SPA/SC"]);
  assert.equal(L.hint("MAO", "move", state), "Pick the order below.");
});

test("a support: the supported unit, then its destination, or the support to hold", () => {
  const after = walk("GAS", "support", "MAO");
  assert.deepEqual(after.click, ["SPA"]);
  assert.deepEqual(after.options.map((o) => o.order), ["A GAS S F MAO", "A GAS S F MAO - SPA"]);
  assert.equal(L.hint("GAS", "support", after), "Click the target on the map (or pick below).");
  assert.equal(walk("GAS", "support", "MAO", "SPA").send.order, "A GAS S F MAO - SPA");
  assert.equal(walk("GAS", "support", "MAR", "SPA").send.order, "A GAS S A MAR - SPA");
  // a unit that may be supported to hold or to move: its destination, or the hold picked
  const mar = walk("GAS", "support", "MAR");
  assert.deepEqual([mar.click, mar.options.map((o) => o.order)], [["SPA"], ["A GAS S A MAR - SPA", "A GAS S A MAR"]]);
});

test("a convoy: the army, then its destination", () => {
  assert.deepEqual(walk("MAO", "convoy", "GAS").click.sort(), ["BRE", "POR"]);
  assert.equal(walk("MAO", "convoy", "GAS", "POR").send.order, "F MAO C A GAS - POR");
});

test("a click on nothing offered leaves nothing", () => {
  assert.deepEqual(L.narrow(TABLE.GAS.filter((o) => o.kind === "move"), 0, "MUN"), []);
  assert.ok(L.next([], 0).none);
});

test("a click on the map selects the table's key: itself, else its province's", () => {
  assert.deepEqual(L.keysAt(TABLE, "GAS"), ["GAS"]);
  assert.deepEqual(L.keysAt(TABLE, "STP"), ["STP/SC"]);
  assert.deepEqual(L.keysAt(TABLE, "PAR"), []);
});

test("stored orders are matched to the options for their kind; unknown texts are other", () => {
  assert.deepEqual(L.describeOrders(["A GAS - BRE VIA CONVOY", "F MAO C A GAS - BRE", "A XXX H"], TABLE), [
    {order: "A GAS - BRE VIA CONVOY", kind: "move", location: "GAS", unit: "A GAS"},
    {order: "F MAO C A GAS - BRE", kind: "convoy", location: "MAO", unit: "F MAO"},
    {order: "A XXX H", kind: "other", location: null, unit: null},
  ]);
  // a support typed with a coast is stored so, and no option has it: its unit is known
  assert.deepEqual(L.describeOrders(["A GAS S F MAO - SPA/NC"], TABLE), [
    {order: "A GAS S F MAO - SPA/NC", kind: "other", location: null, unit: "A GAS"},
  ]);
});

test("a stored order's unit is its option's: the prompt counts units ordered by it", () => {
  const P = require(path.join(__dirname, "..", "src", "standoff", "judge", "web", "static", "play.js"));
  const described = L.describeOrders(["A GAS - BUR", "F STP/SC - BOT"], TABLE);
  assert.deepEqual(described.map((o) => o.unit), ["A GAS", "F STP/SC"]);
  assert.deepEqual(P.unordered(TABLE, described), ["ANK", "MAO"]);
  // the unit alone marks its unit ordered (the option's field, whatever the text)
  assert.deepEqual(P.unordered(TABLE, [{order: "?", kind: "move", location: null, unit: "F MAO"}]),
    ["ANK", "GAS", "STP/SC"]);
  // a stored order no option has still orders the unit it begins with
  assert.deepEqual(P.unordered(TABLE, L.describeOrders(["A GAS S F MAO - SPA/NC"], TABLE)),
    ["ANK", "MAO", "STP/SC"]);
});

/* Russia's Winter options as the judge gives them: builds per site (a fleet at St
   Petersburg on either coast), the waive under every site, a removal elsewhere */
const build = (type, loc) => option({order: `BUILD ${type} ${loc}`, kind: "build", location: loc,
  unit: `${type} ${loc}`, unit_type: type});
const WAIVE = option({order: "WAIVE", kind: "waive"});
const WINTER = {
  SEV: [build("A", "SEV"), build("F", "SEV"), WAIVE],
  STP: [build("A", "STP"), build("F", "STP/NC"), build("F", "STP/SC"), WAIVE],
};

test("a build by clicks: the empty centre, Build, then the unit type or coast", () => {
  assert.deepEqual(L.keysAt(WINTER, "STP"), ["STP"]);
  assert.deepEqual(L.kindsOf(WINTER.STP), ["build", "waive"]);
  const builds = WINTER.STP.filter((o) => L.menuKind(o) === "build");
  assert.deepEqual(L.next(builds, 0).pick.map((o) => o.order),
    ["BUILD A STP", "BUILD F STP/NC", "BUILD F STP/SC"]);
  assert.equal(L.next([WAIVE], 0).send.order, "WAIVE");
});

test("the adjustments a Winter step asks, as the rules count them: builds and removals per power", () => {
  assert.deepEqual(L.adjustments({turkey: -1, france: 2, austria: -1, italy: 0}), [
    {power: "austria", builds: 0, removals: 1},
    {power: "france", builds: 2, removals: 0},
    {power: "turkey", builds: 0, removals: 1},
  ]);
  assert.deepEqual(L.adjustments({}), []);
  assert.deepEqual(L.adjustments(undefined), []);
});

test("two moves to different places are not a land-or-convoy pair", () => {
  assert.equal(L.landOrConvoy([move("A", "GAS", "BRE", "land"), move("A", "GAS", "POR", "convoy")]), null);
  assert.equal(L.landOrConvoy([move("A", "GAS", "BRE", "land")]), null);
});

test("the countdown: hours, minutes and seconds, days when there are any, never negative", () => {
  assert.equal(L.durationText(0), "00:00:00");
  assert.equal(L.durationText(59.9), "00:00:59");
  assert.equal(L.durationText(3600 + 2 * 60 + 3), "01:02:03");
  assert.equal(L.durationText(2 * 86400 + 5), "2d 00:00:05");
  assert.equal(L.durationText(-10), "00:00:00");
  const now = Date.parse("2024-05-01T12:00:00Z");
  assert.equal(L.untilText("2024-05-02T13:30:00Z", now), "1d 01:30:00");
  assert.equal(L.untilText("2024-05-01T11:00:00Z", now), "00:00:00");
  assert.equal(L.untilText(null, now), "");
});

test("a finished game's outcome, with the powers' names", () => {
  const names = {france: "France", england: "England"};
  assert.equal(L.outcomeText(null, names), "");
  assert.equal(L.outcomeText({winner: "france"}, names), ": won by France");
  assert.equal(L.outcomeText({draw: ["england", "france"]}, names), ": drawn between England, France");
  assert.equal(L.outcomeText({cancelled: true}, names), ": cancelled by its master before it started");
  assert.equal(L.outcomeText({winner: "italy"}, names), ": won by italy");
});
