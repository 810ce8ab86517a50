"""The pages' scripts without their comment lines, line for line.

The scripts under ``static/js/`` explain themselves at length, and a phone on a pub's network
paid for every word: the comments were a quarter of the table page's first load after gzip.
The release sends each module with every line that holds only a comment (or only blanks)
emptied, and nothing else changed: the same number of lines, so the line-for-line source map
(:func:`~shipcaptaincrew.web.pages.bundle.source_map`) still shows the file a contributor
edited, and no code, string or template literal is touched.

The scanner knows what a script can hold across a line (a block comment, a template literal
with ``${...}`` inside it); a quote or a backtick it cannot place (inside a regular-expression
literal, say) leaves it unsure where a line ends, and then the module is sent as it is.
"""

from __future__ import annotations

CODE, BLOCK, TEMPLATE = "code", "block", "template"


def _scan_line(line: str, stack: list[str]) -> tuple[bool, bool]:
    """Walk one line, updating ``stack`` (the states open at its end).

    Returns whether the line holds anything but comments and blanks, and whether the scan
    stayed sure of itself (a quoted string may not run past its line).
    """
    i, n, code = 0, len(line), False
    while i < n:
        c, state = line[i], stack[-1]
        two = line[i : i + 2]
        if state == BLOCK:
            if two == "*/":
                stack.pop()
                i += 2
                continue
        elif state == TEMPLATE:
            code = True
            if c == "\\":
                i += 2
                continue
            if c == "`":
                stack.pop()
            elif two == "${":
                stack.append(CODE)
                i += 2
                continue
        elif two == "//":
            return code, True
        elif two == "/*":
            stack.append(BLOCK)
            i += 2
            continue
        elif c in "'\"":
            code, end = True, i + 1
            while end < n and line[end] != c:
                end += 2 if line[end] == "\\" else 1
            if end >= n:
                return code, False
            i = end
        elif c == "`":
            code = True
            stack.append(TEMPLATE)
        elif c == "}" and len(stack) > 1:
            code = True
            stack.pop()  # the end of a template's ${...}
        elif c == "{" and len(stack) > 1:
            code = True
            stack.append(CODE)
        elif not c.isspace():
            code = True
        i += 1
    return code, True


def without_comment_lines(text: str) -> str:
    """``text`` with each line that holds only comments emptied (see the module docstring)."""
    stack, out = [CODE], []
    for line in text.split("\n"):
        code, sure = _scan_line(line, stack)  # a template literal's line counts as code
        if not sure:
            return text
        out.append(line if code else "")
    return "\n".join(out) if stack == [CODE] else text
