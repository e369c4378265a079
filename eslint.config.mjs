// ESLint 9 (flat config) for the judge's page scripts and their Node tests.
// The pages load plain scripts (no bundler, no modules) in order: base.html's
// logic.js and common.js, then each page's own. A script's top-level names are
// therefore globals shared with the scripts loaded after it; the lists below
// name, for each file, what it may use from the others, so a typo or a name
// used before the script defining it is loaded is an error, not a silent
// `undefined` in a player's browser.
import js from "@eslint/js";
import globals from "globals";

const STATIC = "src/standoff/judge/web/static";
// what logic.js and common.js define, for every page's script
const SHARED = {
  StandoffLogic: "readonly", StandoffPlay: "readonly",
  api: "readonly", el: "readonly", showError: "readonly", untilText: "readonly",
  ApiFailure: "readonly", csrfToken: "readonly",
};

export default [
  js.configs.recommended,
  {
    files: [`${STATIC}/**/*.js`],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: {...globals.browser, ...SHARED},
    },
    rules: {
      // a top-level name in a plain script is meant for the scripts loaded after it
      "no-unused-vars": ["error", {vars: "local", args: "after-used", caughtErrors: "none"}],
      "no-redeclare": ["error", {builtinGlobals: false}],
      "eqeqeq": ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "off",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
    },
  },
  {
    // the pure module is also loaded by Node's tests (module.exports)
    files: [`${STATIC}/logic.js`, `${STATIC}/play.js`],
    languageOptions: {globals: {module: "readonly"}},
  },
  {
    // the game page's scripts share the map, the order pad, the press panel and the seats
    files: [`${STATIC}/game.js`],
    languageOptions: {globals: {MapView: "readonly", OrderPad: "readonly", Press: "readonly",
      SeatDesk: "readonly", OrderOverlay: "readonly"}},
  },
  {
    files: [`${STATIC}/board.js`],
    languageOptions: {globals: {MapView: "readonly", OrderOverlay: "readonly"}},
  },
  {
    files: [`${STATIC}/history.js`],
    languageOptions: {globals: {MapView: "readonly"}},
  },
  {
    files: ["web-tests/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "commonjs", globals: {...globals.node}},
    rules: {eqeqeq: ["error", "always"], "no-var": "error", "prefer-const": "error"},
  },
];
