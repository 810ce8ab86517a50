// The rules text ("how to play") as the server writes it, a small Markdown subset drawn as DOM:
// headings, paragraphs, bullet lists with continuation lines, **bold** and `code`.  Text is
// only ever text here: nothing is parsed as HTML.
import { h } from "./common.js";

function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const tok = m[0];
    out.push(tok.startsWith("**") ? h("strong", {}, tok.slice(2, -2)) : h("code", { class: "break" }, tok.slice(1, -1)));
    at = m.index + tok.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Markdown text -> a list of block elements (the first heading becomes ``level``). */
export function markdown(text, { skipTitle = false } = {}) {
  const blocks = [];
  let list = null;
  let para = null;
  let item = null;
  const close = () => { list = null; para = null; item = null; };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (!line.trim()) { close(); continue; }
    if (heading) {
      close();
      if (skipTitle && heading[1].length === 1 && !blocks.length) continue;
      blocks.push(h(`h${Math.min(6, heading[1].length + 1)}`, {}, inline(heading[2])));
      continue;
    }
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    if (bullet) {
      if (!list) { list = h("ul"); blocks.push(list); }
      para = null;
      item = h("li", {}, inline(bullet[1]));
      list.append(item);
      continue;
    }
    if (item && /^\s+/.test(raw)) { item.append(" ", ...inline(line.trim())); continue; }
    if (para) { para.append(" ", ...inline(line.trim())); continue; }
    list = null;
    item = null;
    para = h("p", {}, inline(line));
    blocks.push(para);
  }
  return blocks;
}
