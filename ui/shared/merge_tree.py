"""How a token was built, drawn as a tree: the token at the top, its two parts below it, down to
base bytes or characters. ``tree_dot`` writes Graphviz DOT for ``st.graphviz_chart``;
``recipe`` lists the same merges in the order training made them.

>>> from bpe_core import MergeTree as T
>>> tree = T(5, "low", 1, 7, T(4, "lo", 0, 9, T(0, "l"), T(1, "o")), T(2, "w"))
>>> [(r.rank, r.left, r.right, r.token) for r in recipe(tree)]
[(0, 'l', 'o', 'lo'), (1, 'lo', 'w', 'low')]
>>> 'label="low\\\\nrank 1 · seen 7×"' in tree_dot(tree)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import MergeTree, Tokenizer

from .bidi import cell
from .tokens import PALETTE, readable_pair, readable_token
from .wording import plural

LEAF_FILL = "#eef1f6"
#: A tree is drawn down to the level whose boxes side by side take at most this many characters
#: of their labels (a box at least MIN_BOX_CHARS): the common trees whole (cl100k's
#: "·Responsibilities", 17 leaves: 153), while Llama 3's token of 128 spaces, 128 leaves wide,
#: was a strip too thin to read.
ROW_CHARS = 170
MIN_BOX_CHARS = 7
#: Characters of a token a box or a sentence shows whole; of a longer one, the first KEPT_CHARS
#: and its length.
SHOWN_CHARS, KEPT_CHARS = 32, 15


@dataclass(frozen=True)
class RecipeStep:
    """One merge in a token's history: ``left + right -> token`` at ``rank``, seen ``count``."""

    rank: int
    left: str
    right: str
    token: str
    count: int | None


def shown(token: str) -> str:
    """A token's text for a tree node: whitespace made visible; empty text said as such; a long
    one cut short, with its length.

    >>> shown(" " * 128)
    '···············… (128 characters)'
    """
    text = readable_token(token) or "(empty)"
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[:KEPT_CHARS]}… ({len(token):,} characters)"


def _dot_string(text: str) -> str:
    """``text`` as a DOT double-quoted string; backslashes and quotes cannot end or escape it."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _lines(node: MergeTree) -> list[str]:
    """A box's label, line by line: the token, and for a merge its rank and pair count."""
    if node.rank is None:
        return [shown(node.token)]
    seen = f" · seen {node.count:,}×" if node.count else ""
    # "rank", not "#": the Train page's merge log numbers merges from 1 in its "#" column.
    return [shown(node.token), f"rank {node.rank:,}{seen}"]


def _label(node: MergeTree) -> str:
    """A box's label as a DOT string (its lines joined by DOT's own line break)."""
    return _dot_string("\n".join(_lines(node)))


def drawn_levels(tree: MergeTree) -> int | None:
    """How many levels of merges, from the top, a drawing opens (draws the parts of): all
    (None), unless a row would be wider than :data:`ROW_CHARS`; then the most that keep
    every row within it.

    >>> from bpe_core import MergeTree as T
    >>> def run(n):  # a token of 2**n letters, made of two of half its length
    ...     return T(n, "a" * 2 ** n, n, None, run(n - 1), run(n - 1)) if n else T(0, "a")
    >>> drawn_levels(run(3)), drawn_levels(run(7))
    (None, 4)
    """
    level, row = 0, [tree]
    while any(node.rank is not None for node in row):
        below = [part for node in row for part in (
            (node.left, node.right) if node.rank is not None else (node,))]
        if sum(map(_box_chars, below)) > ROW_CHARS:
            return level
        level, row = level + 1, below
    return None


def _box_chars(node: MergeTree) -> int:
    """How wide a node's box is, in characters of its label."""
    return max(MIN_BOX_CHARS, *map(len, _lines(node))) + 2


def tree_dot(tree: MergeTree) -> str:
    """Graphviz DOT for ``tree``: merges as coloured boxes with rank and count, leaves grey;
    below :func:`drawn_levels`, a merge is a dashed box whose parts are not drawn."""
    levels = drawn_levels(tree)
    lines = ["digraph merge_tree {",
             '  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, bgcolor="transparent"];',
             '  node [shape=box, style="rounded,filled", fontname="monospace", fontsize=12, '
             'color="#9aa4b2", penwidth=1];',
             '  edge [color="#9aa4b2", arrowhead=none];']

    def walk(node: MergeTree, name: str, level: int) -> None:
        if node.rank is None:
            lines.append(f'  {name} [label={_label(node)}, fillcolor="{LEAF_FILL}"];')
            return
        fill = PALETTE[node.id % len(PALETTE)]
        if levels is not None and level >= levels:
            lines.append(f'  {name} [label={_label(node)}, fillcolor="{fill}", '
                         'style="rounded,filled,dashed"];')
            return
        lines.append(f'  {name} [label={_label(node)}, fillcolor="{fill}"];')
        for side, child in (("l", node.left), ("r", node.right)):
            walk(child, name + side, level + 1)
            lines.append(f"  {name} -> {name + side};")

    walk(tree, "t", 0)
    lines.append("}")
    return "\n".join(lines)


def recipe(tree: MergeTree) -> list[RecipeStep]:
    """The merges that built ``tree``, once each, in the order training learned them."""
    steps: dict[int, RecipeStep] = {}
    todo = [tree]
    while todo:  # (a loop: a tree can be thousands of merges deep)
        node = todo.pop()
        if node.rank is None or node.rank in steps:
            continue
        steps[node.rank] = RecipeStep(node.rank, node.left.token, node.right.token, node.token,
                                      node.count)
        todo += (node.left, node.right)
    return [steps[r] for r in sorted(steps)]


def recipe_table(steps: list[RecipeStep]) -> list[dict]:
    """Rows for a table of ``steps``: rank, the two parts, the token, and the pair count when
    known (files made elsewhere, such as tiktoken's, keep no counts)."""
    counted = any(s.count for s in steps)
    return [{"rank": s.rank, "left": cell(shown(s.left)), "right": cell(shown(s.right)),
             "token": cell(shown(s.token))} | ({"pair count": s.count} if counted else {})
            for s in steps]


def depth(tree: MergeTree) -> int:
    """Levels of merges above the deepest base symbol (0 for a base symbol)."""
    deepest, todo = 0, [(tree, 0)]
    while todo:  # (a loop, as in recipe)
        node, above = todo.pop()
        if node.rank is None:
            deepest = max(deepest, above)
        else:
            todo += ((node.left, above + 1), (node.right, above + 1))
    return deepest


def why_no_tree(tok: Tokenizer, token_id: int) -> str:
    """Why a token has no merge tree, in a sentence: what it is, and where it comes from.

    >>> from bpe_core import train
    >>> tok = train("hug", unit="byte", max_merges=0, special_tokens=["<|end|>"])
    >>> why_no_tree(tok, tok.special_tokens["<|end|>"])
    "'<|end|>' is a special token: a marker put in the vocabulary whole and found in the text before BPE runs. No merge builds it, so it has no merge tree."
    """
    kind, name = tok.kind(token_id), shown(tok.display(token_id))
    nothing = "No merge builds it, so it has no merge tree."
    if kind == "byte" and tok.unit == "char":
        return (f"{name!r} is a byte-fallback token: a character the vocabulary lacks is spelled "
                f"as its UTF-8 bytes, one such token per byte. {nothing}")
    if kind == "vocab":
        how = ("the tokenizer uses it only when a whole piece is exactly this token "
               "(ignore_merges)" if tok.ignore_merges else "merging never produces it")
        return f"{name!r} is in the vocabulary, but no merge makes it, so {how}. {nothing}"
    what = {
        "special": "a special token: a marker put in the vocabulary whole and found in the text "
                   "before BPE runs",
        "added": "an added token: the tokenizer finds it whole in the text before BPE runs",
        "byte": "a base byte: byte-level BPE starts from the 256 bytes",
        "char": "a base character: BPE starts from single characters",
        "unk": "the unknown token: it stands for text the vocabulary cannot spell",
        "eow": "the end-of-word marker: it closes every word before BPE runs",
    }.get(kind, f"a {kind} token")
    return f"{name!r} is {what}. {nothing}"


def added_note(tok: Tokenizer, token_id: int) -> str | None:
    """For an added or special token that merges also build, a sentence saying both; else None."""
    kind = tok.kind(token_id)
    if kind not in ("added", "special") or tok.merge_for(token_id) is None:
        return None
    what = "an added" if kind == "added" else "a special"
    return (f"{shown(tok.display(token_id))!r} is {what} token, found whole in the text before "
            "BPE runs; these merges build it too.")


def listed_note(tok: Tokenizer, token_id: int) -> str | None:
    """For a token several merges make, or that merging its own symbols never makes, a sentence
    saying which merges the tree draws; else None (a file converted from SentencePiece lists
    every split of a token, and the first listed may need a part made only later).

    >>> from bpe_core import BPE, Tokenizer
    >>> tok = Tokenizer(BPE.from_vocab({"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
    ...                                [("a", "bc"), ("a", "b"), ("ab", "c"), ("b", "c")]))
    >>> listed_note(tok, 5)
    "The file lists 2 merges that make 'abc', the first at rank 0 (a + bc); merging its own symbols by rank, as the encoder does, takes the one drawn."
    """
    view, name = tok.view, shown(tok.display(token_id))
    first = tok.merges[view.made_by[token_id]] if token_id in view.made_by else None
    merged = view.remerged(token_id)
    if first is None or (merged == [token_id] and token_id not in view.made_again):
        return None
    if merged == [token_id]:
        n = tok.merges.result.count(token_id)
        return (f"The file lists {n} merges that make {name!r}, the first at rank "
                f"{first.rank:,} ({readable_pair(first.left, first.right)}); merging its own "
                "symbols by rank, as the encoder does, takes the one drawn.")
    parts = " + ".join(repr(shown(tok.display(i))) for i in merged)
    how = ("only a piece that is exactly this token gives it (ignore_merges)"
           if tok.ignore_merges else "the encoder never gives it")
    return (f"Merging its own symbols never makes {name!r} (they end as {parts}): {how}. The "
            "tree shows the first merge the file lists for it.")


def caption(tok: Tokenizer, token_id: int, tree: MergeTree) -> str:
    """What a drawn tree's caption says: :func:`added_note`, :func:`listed_note` and
    :func:`summary`."""
    notes = (added_note(tok, token_id), listed_note(tok, token_id), summary(tree))
    return " ".join(filter(None, notes))


def summary(tree: MergeTree) -> str:
    """A caption for a drawn tree: its size, and what its boxes show.

    >>> from bpe_core import MergeTree as T
    >>> summary(T(4, "lo", 0, 0, T(0, "l"), T(1, "o")))
    '2 base symbols joined by 1 merge, 1 level deep. Each box shows its merge rank (rank 0 is the first merge); the file records no pair counts.'
    """
    steps, levels, drawn = recipe(tree), depth(tree), drawn_levels(tree)
    counted = any(s.count for s in steps)
    opened = "its top level is" if drawn == 1 else f"its top {drawn} levels are"
    cut = ("" if drawn is None else f" Only {opened} drawn open: a dashed box is a merge whose "
           "parts are not drawn (the table lists every merge).")
    return (f"{plural(len(tree.leaves()), 'base symbol')} joined by {plural(len(steps), 'merge')}, "
            f"{plural(levels, 'level')} deep. Each box shows its merge rank (rank 0 is the "
            "first merge)"
            + (" and how often the pair was seen in training." if counted
               else "; the file records no pair counts.") + cut)
