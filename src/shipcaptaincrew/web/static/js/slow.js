// How long is left at a slow table (played across a day), in words: the banner's countdown
// and the home page's list (the create forms' pace is pace.js).
import { t } from "./common.js";

/** Seconds as hours and minutes ("3 h 12 min"); under an hour, minutes ("12 min"). */
export function hoursLeft(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? t("{h} h {m} min", { h: hours, m: minutes }) : t("{m} min", { m: Math.max(minutes, s > 0 ? 1 : 0) });
}
