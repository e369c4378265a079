// The lobby's seat functions (src/standoff/judge/web/static/seats.js, which the lobby
// loads beside the game page): a listed game's bots as one badge, and the join choices
// that never offer a bot's seat to a person. `node --test web-tests/`.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const S = require(path.join(__dirname, "..", "src", "standoff", "judge", "web", "static", "seats.js"));

const STANDARD = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];

test("a game people alone play has no bots badge", () => {
  assert.equal(S.listedBots({}), null);
  assert.equal(S.listedBots(undefined), null);  // an older judge's listing
});

test("the bots badge counts and names the powers, in order", () => {
  assert.deepEqual(S.listedBots({turkey: "random", austria: "heuristic", italy: "random"}),
    {powers: ["austria", "italy", "turkey"], text: "3 bots: austria, italy, turkey"});
  assert.deepEqual(S.listedBots({france: "search"}), {powers: ["france"], text: "1 bot: france"});
});

test("a bot's seat is never free to join, a person's is taken, the rest are free", () => {
  const got = S.joinSeats(STANDARD, {taken_powers: ["england", "italy"], bots: {italy: "random"}});
  assert.deepEqual(got.filter((s) => s.free).map((s) => s.power),
    ["austria", "france", "germany", "russia", "turkey"]);
  assert.deepEqual(got.find((s) => s.power === "italy"), {power: "italy", bot: "random", free: false});
  assert.deepEqual(got.find((s) => s.power === "england"), {power: "england", bot: null, free: false});
});

test("a bot's seat stays closed even when the listing's taken powers leave it out", () => {
  const got = S.joinSeats(["austria", "france"], {bots: {france: "heuristic"}});
  assert.deepEqual(got, [{power: "austria", bot: null, free: true},
    {power: "france", bot: "heuristic", free: false}]);
});
