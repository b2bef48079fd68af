"""How a token was built, drawn as a tree: the token at the top, its two parts below it, down to
base bytes or characters. ``tree_dot`` writes Graphviz DOT for ``st.graphviz_chart``;
``recipe`` lists the same merges in the order training made them.

>>> from bpe_core import MergeTree as T
>>> tree = T(5, "low", 1, 7, T(4, "lo", 0, 9, T(0, "l"), T(1, "o")), T(2, "w"))
>>> [(r.rank, r.left, r.right, r.token) for r in recipe(tree)]
[(0, 'l', 'o', 'lo'), (1, 'lo', 'w', 'low')]
>>> 'label="low\\\\n#1 · seen 7×"' in tree_dot(tree)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import MergeTree

from .colour import PALETTE
from .tokenize_data import readable

LEAF_FILL = "#eef1f6"


@dataclass(frozen=True)
class RecipeStep:
    """One merge in a token's history: ``left + right -> token`` at ``rank``, seen ``count``."""

    rank: int
    left: str
    right: str
    token: str
    count: int | None


def shown(token: str) -> str:
    """A token's text for a tree node: whitespace made visible; empty text said as such."""
    return readable(token) or "(empty)"


def _dot_string(text: str) -> str:
    """``text`` as a DOT double-quoted string; backslashes and quotes cannot end or escape it."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(node: MergeTree) -> str:
    if node.rank is None:
        return shown(node.token)
    seen = f" · seen {node.count:,}×" if node.count else ""
    # "\n" here is DOT's own line break, written after the token has been escaped.
    return _dot_string(shown(node.token))[:-1] + f"\\n#{node.rank}{seen}" + '"'


def tree_dot(tree: MergeTree) -> str:
    """Graphviz DOT for ``tree``: merges as coloured boxes with rank and count, leaves grey."""
    lines = ["digraph merge_tree {",
             '  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, bgcolor="transparent"];',
             '  node [shape=box, style="rounded,filled", fontname="monospace", fontsize=12, '
             'color="#9aa4b2", penwidth=1];',
             '  edge [color="#9aa4b2", arrowhead=none];']

    def walk(node: MergeTree, name: str) -> None:
        if node.rank is None:
            lines.append(f'  {name} [label={_dot_string(shown(node.token))}, fillcolor="{LEAF_FILL}"];')
            return
        fill = PALETTE[node.id % len(PALETTE)]
        lines.append(f'  {name} [label={_label(node)}, fillcolor="{fill}"];')
        for side, child in (("l", node.left), ("r", node.right)):
            walk(child, name + side)
            lines.append(f"  {name} -> {name + side};")

    walk(tree, "t")
    lines.append("}")
    return "\n".join(lines)


def recipe(tree: MergeTree) -> list[RecipeStep]:
    """The merges that built ``tree``, once each, in the order training learned them."""
    steps: dict[int, RecipeStep] = {}

    def walk(node: MergeTree) -> None:
        if node.rank is None or node.rank in steps:
            return
        walk(node.left)
        walk(node.right)
        steps[node.rank] = RecipeStep(node.rank, node.left.token, node.right.token, node.token,
                                      node.count)

    walk(tree)
    return [steps[r] for r in sorted(steps)]


def recipe_table(steps: list[RecipeStep]) -> list[dict]:
    """Rows for a table of ``steps``: rank, the two parts, the token, and the pair count when
    known (files made elsewhere, such as tiktoken's, keep no counts)."""
    counted = any(s.count for s in steps)
    return [{"rank": s.rank, "left": shown(s.left), "right": shown(s.right),
             "token": shown(s.token)} | ({"pair count": s.count} if counted else {})
            for s in steps]


def depth(tree: MergeTree) -> int:
    """Levels of merges above the deepest base symbol (0 for a base symbol)."""
    if tree.rank is None:
        return 0
    return 1 + max(depth(tree.left), depth(tree.right))
