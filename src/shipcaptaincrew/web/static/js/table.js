// Drawing a match from the server's view (shared by the live table and the replay viewer).
// Everything shown comes from the engine's fields; the page decides no rule.
import { h, t } from "./common.js";

export function dieEl(face, role, held) {
  return h("span", { class: "die" + (held ? " held" : ""), role: "img",
    "aria-label": role ? `${t(role)} ${face}` : String(face) }, String(face), role ? h("small", { "aria-hidden": "true" }, t(role)) : null);
}

export function statusText(match, players, you) {
  if (match.over) {
    return match.winner === null ? t("No winner.") : t("{name} wins the match!", { name: players[match.winner].name });
  }
  const who = match.actor;
  if (who === you) return t("Your turn");
  return t("{name} to play", { name: players[who].name });
}

export function stageText(match) {
  const c = match.contest;
  if (match.phase === "roll_off" || (c && c.purpose === "starter")) return t("Who starts?");
  if (c && c.purpose !== "round") return t("Tie-break");
  if (match.stage === "final") return t("Final");
  return t("Round {n}", { n: match.round_no });
}

export function diceArea(match, players) {
  const turn = match.turn;
  const wrap = h("div", {});
  if (!turn) {
    // A roll-off (one die) or a cargo tie-break (two dice): what each contender has rolled.
    const c = match.contest;
    if (c && c.method !== "turn") {
      wrap.append(h("ul", { class: "players" }, c.seats.map((s) => h("li", {},
        h("span", { class: "break" }, players[s].name),
        h("span", { class: "die" }, c.posted[String(s)] === undefined ? "?" : String(c.posted[String(s)]))))));
    }
    return wrap;
  }
  const held = turn.held.map((f, i) => dieEl(f, turn.roles[i], true));
  const cargo = turn.cargo.map((f) => dieEl(f, "cargo", false));
  wrap.append(
    h("p", { class: "muted" }, t("Rolls left: {n}", { n: turn.rolls_left }), " · ",
      turn.complete ? t("Cargo: {n}", { n: turn.score }) : t("Free dice: {n}", { n: turn.free_dice })),
    h("h3", {}, t("Held")),
    h("div", { class: "dice roles" }, held, cargo.length ? cargo : null),
    h("h3", {}, t("Last roll")),
    h("div", { class: "dice", id: "last-roll" }, turn.last_roll.map((f) => dieEl(f, null, false))));
  return wrap;
}

export function actionLabel(action, players) {
  if (action === "roll") return t("Roll the dice");
  if (action === "stand") return t("Stand");
  if (action === "reroll") return t("Reroll the cargo");
  let m = action.match(/^reroll:keep(\d)$/);
  if (m) return t("Keep {face}, reroll the other", { face: m[1] });
  m = action.match(/^take:(\d+)$/);
  if (m) return t("Set aside {faces}", { faces: m[1].split("").join(" ") });
  m = action.match(/^sip:(\d+)$/);
  if (m) return t("Give a sip to {name}", { name: players[+m[1]] ? players[+m[1]].name : m[1] });
  return action;
}

export function scoreboard(match, players, you, pot) {
  const chips = pot;
  const rows = players.map((p, i) => {
    const posted = match.contest && match.contest.posted[String(i)] !== undefined ? match.contest.posted[String(i)] : (match.round_scores[i] ?? "");
    return h("tr", { class: match.actor === i ? "actor" : "" },
      h("th", { scope: "row", class: "break" }, p.name, i === you ? ` (${t("you")})` : ""),
      h("td", { class: "num" }, String(posted)),
      h("td", { class: "num" }, String(match.totals[i])),
      h("td", { class: "num" }, String(match.wins[i])),
      chips ? h("td", { class: "num" }, String(match.chips[i])) : null,
      h("td", { class: "num" }, String(match.sips[i])));
  });
  return h("div", { class: "scroll" },
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("Name")),
        h("th", { scope: "col", class: "num" }, t("Posted this round")),
        h("th", { scope: "col", class: "num" }, t("Total")),
        h("th", { scope: "col", class: "num" }, t("Wins")),
        chips ? h("th", { scope: "col", class: "num" }, t("Chips")) : null,
        h("th", { scope: "col", class: "num" }, t("Sips")))),
      h("tbody", {}, rows)),
    chips ? h("p", {}, t("Pot: {n}", { n: match.pot })) : null,
    match.hand_out_left ? h("p", {}, t("Sips to hand out: {n}", { n: match.hand_out_left })) : null);
}

export function roundsTable(match, players) {
  return h("div", { class: "scroll" }, h("table", {},
    h("caption", { class: "sr-only" }, t("Rounds")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"),
      players.map((p) => h("th", { scope: "col", class: "num" }, p.name)),
      h("th", { scope: "col" }, t("Winner")))),
    h("tbody", {}, match.results.map((r) => h("tr", {},
      h("th", { scope: "row" }, String(r.round_no)),
      r.scores.map((s) => h("td", { class: "num" }, s === null ? "–" : String(s))),
      h("td", { class: "break" }, r.winner === null ? "–" : players[r.winner].name))))));
}
