// How a view of the table stages the pictures it gets, the same on a phone (room.js) and on
// the table screen (screen.js), so both show the same moment at the same time: which picture
// is new news (its moment is staged) and which only catches up (a reconnection, the picture
// kept on this device), the strip beside the felt, a roll-off's dice tumbling in, the round's
// result card, the roll that decided the match held on the felt before the podium, and the
// felt itself.  What a page adds of its own (sounds, vibration, the chips flying, its podium
// and its buttons) comes in through the hooks it passes.
import { h, t } from "./common.js";
import { calm, tumble } from "./dice.js";
import { FINAL_HOLD, finalFelt, resultCard, showStrip, stripMoment } from "./moments.js";
import { contestFelt, felt } from "./table.js";

const $ = (id) => document.getElementById(id);

/** The staging of one page.  ``land``: a die landing (its click, a buzz), ``rattle(n)``:
 * dice thrown; both optional (the screen is silent). */
export function staging({ land = undefined, rattle = undefined } = {}) {
  let room = null;          // the picture on screen
  let live = false;         // whether it came from the line (not the picture kept here)
  let seenVersion = -1;     // the newest picture whose moment was staged
  let stripVersion = -1;    // the picture whose moment the strip shows
  let finalRoll = null;     // {moment, contest, drawn}: the roll that decided the match, held
  let lastContest = null;   // the contest of the picture before (a tie-break's contenders)
  let freshResult = null;   // round number of the result card that just arrived
  const rolloffs = {};      // seat -> faces of a roll-off or cargo tie-break, from the moments
  let rolledOff = null;     // the seat whose roll-off dice just came: they tumble in

  let replaying = [];       // the timers of the missed moments still to show (see replay)

  function stopReplay() { replaying.forEach(clearTimeout); replaying = []; }

  function stripFor(moment) {
    if (!room.match) return;
    const el = stripMoment(moment, room.players);
    if (!el) return;
    stripVersion = room.version;
    showStrip($("strip"), el, { land });
  }

  return {
    get room() { return room; },
    /** Whether the picture on screen came live from the table (its controls may act). */
    get live() { return live; },
    /** The deciding roll is on the felt (the podium waits for it). */
    get final() { return !!(room && room.match && room.match.over && finalRoll !== null); },

    /**
     * Take a picture: ``history`` (a fresh start: a reconnection, or ``kept`` on this device)
     * only catches up, a live one after another is staged.  Returns the picture before it if
     * that was live and another version (what the felt animates from), else null, and
     * whether its moment is to be staged.  A kept picture is drawn as it is: the first live
     * picture after it is drawn anew, never animated from it (it may be minutes old).
     * ``strip`` false: the strip is left to the moments missed, about to be replayed.
     */
    take(next, { history = false, kept = false, strip = true } = {}) {
      const before = live ? room : null;
      if (history) stopReplay();  // a fresh start: what it missed comes anew, if anything
      room = next;
      if (!kept) live = true;
      const staged = !history && room.version > seenVersion && before !== null;
      seenVersion = Math.max(seenVersion, room.version);
      if (history && !staged && room.moment && strip) stripFor(room.moment);
      return { before: before && before.version !== room.version ? before : null, staged };
    },

    /** Once the picture is drawn: the contest it showed is the one a tie-break came from. */
    drawn(before) { if (before && before.match && before.match.contest) lastContest = before.match.contest; },

    /**
     * Stage a picture's moment (one event may end a turn or settle a roll-off, a round and the
     * match: in that order).  The page's hooks add what is its own: ``podium()`` once the
     * deciding roll has been held (at once when the match ended without a roll).  Returns
     * the parts: {turnEnd, roll, round} (each null when the moment has none).
     */
    stage(moment, before, { podium = () => {} } = {}) {
      if (!moment) return { turnEnd: null, roll: null, round: null };
      stopReplay();  // what happens now beats what was missed
      const part = (kind, key) => (moment.kind === kind ? moment : moment[key] || null);
      const turnEnd = part("turn_end", "turn");
      const roll = part("rolloff", "rolloff");
      const round = moment.kind === "round_end" ? moment : moment.kind === "match_end" ? moment.round : null;
      stripFor(moment);
      if (roll) {
        rolloffs[roll.seat] = roll.faces;
        rolledOff = roll.seat;
      }
      if (round) freshResult = round.round_no;
      if (moment.kind === "match_end") {
        // The roll that decided it lands and stays on the felt, then the podium.
        const hold = moment.turn || moment.rolloff ? (calm() ? 200 : 900) + FINAL_HOLD : 0;
        finalRoll = hold ? { moment, contest: before.match && before.match.contest, drawn: false } : null;
        setTimeout(() => { finalRoll = null; podium(); }, hold);
      }
      return { turnEnd, roll, round };
    },

    /**
     * The moments a phone missed while it was closed (a slow table, play/missed.py), oldest
     * first: each in the strip in turn, fast, saying which of how many it is; the newest stays.
     * A live moment arriving meanwhile ends the replay (see stage).
     */
    replay(moments) {
      stopReplay();
      const step = calm() ? 500 : 1200;
      const shown = moments.map((m) => stripMoment(m, room.players)).filter(Boolean);
      replaying = shown.map((el, i) => setTimeout(() => {
        const which = t("While you were away, {i} of {n}", { i: i + 1, n: shown.length });
        el.classList.add("missed");
        el.prepend(h("span", { class: "missed-note", "data-testid": "missed" }, which));
        stripVersion = room.version;
        showStrip($("strip"), el, { land });
      }, i * step));
    },

    /** The strip stays in its place, dimmed once the next roll is on the felt; hidden on the
     * podium. */
    drawStrip() {
      const match = room.match;
      const rolled = match.turn && match.turn.last_roll && match.turn.last_roll.length;
      $("strip").classList.toggle("old", !!(rolled && room.version > stripVersion));
      $("strip").hidden = match.over && !this.final;
    },

    /** The felt: the acting player's dice (animated from ``before``) or the contest of a
     * tie-break, the deciding roll held, or (``podium()``, the page's) the podium. */
    drawFelt(before, podium) {
      const match = room.match;
      const players = room.players;
      if (match.over && !this.final) {
        $("felt-slot").replaceChildren();
        podium();
        return;
      }
      $("podium-box").replaceChildren();
      if (this.final) {
        if (finalRoll.drawn) return;
        finalRoll.drawn = true;
        const el = finalFelt(finalRoll.moment, players, finalRoll.contest || lastContest, rolloffs);
        $("felt-slot").replaceChildren(el);
        const dice = el.querySelectorAll(".die[data-face]");
        if (rattle) rattle(dice.length);
        tumble(dice, land);
        return;
      }
      const view = match.turn ? felt(match, players, { tie: room.tie }) : { el: contestFelt(match, players, rolloffs, room.tie), play: null };
      $("felt-slot").replaceChildren(view.el);
      if (before && before.match && view.play) view.play(before.match, { rattle, land });
      if (rolledOff !== null) {
        const dice = view.el.querySelectorAll(`.contender[data-seat="${rolledOff}"] .die[data-face]`);
        if (rattle) rattle(dice.length);
        tumble(dice, land);
        rolledOff = null;
      }
    },

    /** The round's result card, open when it just arrived; ``fold``: on a phone it folds
     * away after a while, and stays open if the person opened it (a screen keeps it open
     * until the podium). */
    drawResult({ fold = false } = {}) {
      const match = room.match;
      const result = room.last_result;
      const box = $("result-box");
      if (!result || this.final || (room.tie && !match.over)) {
        box.replaceChildren();
        return;
      }
      const fresh = freshResult === result.round_no && !match.over;
      if (fresh) freshResult = null;
      if (!fold) {
        // Beside the podium (which says the rest) the last round folds to its headline: a TV
        // cannot scroll to what would run off its edge.
        box.replaceChildren(resultCard(result, room.players, { fresh: !match.over }));
        return;
      }
      const was = $("round-result");
      const keepOpen = was && was.open && !fresh && was.dataset.round === String(result.round_no);
      const card = resultCard(result, room.players, { fresh });
      card.dataset.round = String(result.round_no);
      if (keepOpen) card.open = true;
      box.replaceChildren(card);
      if (fresh) setTimeout(() => { if (card.isConnected) card.open = false; }, 9000);
    },
  };
}
