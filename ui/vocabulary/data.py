"""The Vocabulary page's data: the vocabulary as a pandas table, filtered and sorted, and its
figures. Nothing here draws, so it is all tested without a browser:

>>> from bpe_core import train
>>> tok = train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, unit="char",
...             pretokenizer="whitespace", max_merges=3, min_frequency=1)
>>> df = vocabulary_frame(tok)
>>> len(df) == tok.vocab_size
True
>>> list(select(df, query="ug")["token"])
['ug', 'hug']
"""

from __future__ import annotations

from collections import Counter
from itertools import compress
from operator import attrgetter, or_
from typing import Iterable, Mapping

import pandas as pd
import plotly.graph_objects as go

from bpe_core import Tokenizer
from bpe_core.analysis.vocabulary import TokenRow, VocabDiff, matches, vocabulary
from bpe_core.analysis.writing_systems import BYTE_FALLBACK, listed
from bpe_core.gc_pause import gc_paused

from ..shared.charts import BLUE, length_histogram, plot_text, script_colour
from ..shared.bidi import cell
from ..shared.tokens import readable_token

#: How the table can be ordered: label -> (column, ascending). Missing values always go last.
ORDERS = {
    "id": ("id", True),
    "most frequent in the corpus": ("frequency", False),
    "longest (bytes)": ("n_bytes", False),
    "highest pair count": ("count", False),
    "token text (A→Z)": ("token", True),
}
_NULLABLE = ("n_bytes", "chars", "rank", "count")


def vocabulary_frame(tok: Tokenizer) -> pd.DataFrame:
    """A row per token (see :class:`bpe_core.analysis.vocabulary.TokenRow`), plus ``shown``: the token
    with whitespace and invisible characters made visible, as the table displays it."""
    with gc_paused(kept=True):  # (262,000 rows of new objects for Gemma 3: 0.13 s less)
        df = pd.DataFrame.from_records(vocabulary(tok), columns=TokenRow._fields)
    for column in _NULLABLE:  # integers with gaps (base symbols have no rank), not floats
        df[column] = df[column].astype("Int64")
    if not (df["count"] > 0).any():  # a file made elsewhere records no counts: unknown, not 0
        df["count"] = pd.Series(pd.NA, index=df.index, dtype="Int64")
    df.insert(2, "shown", [cell(readable_token(t)) for t in df["token"].tolist()])
    return df


def with_frequencies(df: pd.DataFrame, frequencies: Mapping[int, int] | None) -> pd.DataFrame:
    """``df`` with a ``frequency`` column: each token's occurrences in an encoded corpus
    (None: not counted yet, the column empty)."""
    out = df.copy()
    if frequencies is None:
        out["frequency"] = pd.Series(pd.NA, index=out.index, dtype="Int64")
    else:
        out["frequency"] = out["id"].map(lambda i: frequencies.get(i, 0)).astype("int64")
    return out


def frequencies_known(df: pd.DataFrame) -> bool:
    """Whether the table has the corpus's frequencies (a worker may still be counting them)."""
    return bool(df["frequency"].notna().any())


def counts_known(df: pd.DataFrame) -> bool:
    """Whether the tokenizer knows how often its pairs occurred in training: one trained here
    does; one read from a ``.tiktoken`` rank file or a ``tokenizer.json`` does not."""
    return bool(df["count"].notna().any())


def orders(df: pd.DataFrame) -> list[str]:
    """The orders that make sense for this table: by count only when counts are known."""
    return [o for o in ORDERS if ORDERS[o][0] != "count" or counts_known(df)]


def select(df: pd.DataFrame, *, query: str = "", use_regex: bool = False,
           ignore_case: bool = False, scripts: Iterable[str] = (),
           order: str = "id") -> pd.DataFrame:
    """The rows whose token matches ``query`` and whose script is one of ``scripts`` (all when
    empty), in ``order`` (a key of :data:`ORDERS`).

    The query is looked for in the token's text and in its shown form, so both ``" re"`` and
    ``"·re"`` find the token `` re``. Raises ``VocabularySearchError`` for a bad regex.
    """
    mask = pd.Series(True, index=df.index)
    if query:
        opts = dict(use_regex=use_regex, ignore_case=ignore_case)
        mask &= (pd.Series(matches(df["token"], query, **opts), index=df.index)
                 | pd.Series(matches(df["shown"], query, **opts), index=df.index))
    scripts = list(scripts)
    if scripts:
        mask &= df["script"].isin(scripts)
    column, ascending = ORDERS[order]
    out = df[mask]
    if column != "id":
        out = out.sort_values([column, "id"], ascending=[ascending, True], na_position="last",
                              kind="stable")
    return out


def default_token(tok: Tokenizer) -> int:
    """The token to show first: the merge that most later merges build on, among those made
    from another merge (so its tree has more than one level); the last id without merges.

    >>> from bpe_core import train
    >>> tok = train({"hug": 10, "pug": 5, "hugs": 5}, unit="char", pretokenizer="whitespace",
    ...             min_frequency=1)
    >>> [m.token for m in tok.merges], tok.display(default_token(tok))
    (['ug', 'hug', 'pug', 'hugs'], 'hug')
    """
    merges = tok.merges
    if not merges:
        return tok.n_base - 1
    # Read off the id arrays: a loaded vocabulary has some 500,000 merges, too many to make a
    # record of each (seconds) on a page that is waiting.
    uses = Counter(merges.left)
    uses.update(merges.right)
    made = set(merges.result).__contains__
    deep = list(compress(range(len(merges)), map(or_, map(made, merges.left),
                                                 map(made, merges.right))))
    if not deep:
        return merges.result[-1]
    results = list(map(merges.result.__getitem__, deep))
    return max(zip(map(uses.__getitem__, results), deep, results))[2]


def script_options(df: pd.DataFrame) -> list[str]:
    """The scripts present, most tokens first (for the filter)."""
    return list(df["script"].value_counts().index)


def diff_frame(entries: Iterable, *, side: str = "both", scripts: Mapping[int, str] | None = None,
               scripts_b: Mapping[int, str] | None = None) -> pd.DataFrame:
    """A table of :class:`bpe_core.analysis.vocabulary.DiffEntry` rows; ``side`` "a" or "b" keeps that
    tokenizer's id and rank only. ``scripts``: the writing system of each id of that side's
    tokenizer (A's for "both"), as a column ``script``; for "both", ``scripts_b`` gives B's as
    ``script_b`` (the same bytes may be a byte-fallback token in A and a byte in B).

    ``text`` is the token as the tokenizer displays it, ``token`` as the tables show it (spaces
    as ·), so a search can look in both, as :func:`select` does.
    """
    keep = {"a": ("id_a", "rank_a"), "b": ("id_b", "rank_b"),
            "both": ("id_a", "rank_a", "id_b", "rank_b")}[side]
    entries = list(entries)
    texts = [e.token for e in entries]
    columns = {"token": [cell(readable_token(t)) for t in texts], "text": texts,
               "bytes": [e.hex for e in entries],
               **{k: list(map(attrgetter(k), entries)) for k in keep}}
    df = pd.DataFrame(columns, columns=["token", "text", "bytes", *keep])
    df = df.astype({k: "Int64" for k in keep})
    if scripts is not None:
        df.insert(3, "script", df[keep[0]].map(scripts).astype(object))
    if scripts_b is not None:
        df["script_b"] = df["id_b"].map(scripts_b).astype(object)
    return df


def search_diff(df: pd.DataFrame, query: str, *, use_regex: bool = False,
                ignore_case: bool = False) -> pd.DataFrame:
    """The rows of a :func:`diff_frame` whose token holds ``query`` (as typed or shown).

    >>> from bpe_core.analysis.vocabulary import DiffEntry
    >>> entries = [DiffEntry(" the", "20 74 68 65", id_a=5), DiffEntry("He", "48 65", id_a=6)]
    >>> df = diff_frame(entries, side="a")
    >>> search_diff(df, "·t")["id_a"].tolist(), search_diff(df, "he")["id_a"].tolist()
    ([5], [5])
    >>> search_diff(df, "he", ignore_case=True)["id_a"].tolist()
    [5, 6]
    """
    if not query:
        return df
    opts = dict(use_regex=use_regex, ignore_case=ignore_case)
    hits = (pd.Series(matches(df["text"], query, **opts), index=df.index)
            | pd.Series(matches(df["token"], query, **opts), index=df.index))
    return df[hits]


def diff_systems(only_a: pd.DataFrame, only_b: pd.DataFrame,
                 shared: pd.DataFrame) -> pd.DataFrame:
    """The two vocabularies side by side by writing system: tokens of A, of B, shared, only in
    one; counted as the diff counts them (by their bytes), most tokens of A and B first. A and
    B count each token by its own writing system (``script``, and ``script_b`` for shared
    ones); the shared column by A's.

    >>> f = lambda *s: pd.DataFrame({"script": list(s)})
    >>> shared = pd.DataFrame({"script": ["Latin", "Byte fallback"],
    ...                        "script_b": ["Latin", "Partial UTF-8"]})
    >>> diff_systems(f("Han"), f("Latin", "Latin"), shared).to_dict("list")["writing system"]
    ['Latin', 'Byte fallback', 'Han', 'Partial UTF-8']
    >>> diff_systems(f("Han"), f("Latin", "Latin"), shared).iloc[:, 1:].to_numpy().tolist()
    [[1, 3, 1, 0, 2], [1, 0, 1, 0, 0], [1, 0, 0, 1, 0], [0, 1, 0, 0, 0]]
    """
    count = pd.Series.value_counts
    parts = {"A": count(shared["script"]).add(count(only_a["script"]), fill_value=0),
             "B": count(shared["script_b"]).add(count(only_b["script"]), fill_value=0),
             "shared": count(shared["script"]), "only in A": count(only_a["script"]),
             "only in B": count(only_b["script"])}
    out = pd.DataFrame(parts).fillna(0).astype("int64")
    out = out.rename_axis("writing system").reset_index()
    order = sorted(range(len(out)), key=lambda k: (-(out["A"][k] + out["B"][k]),
                                                   out["writing system"][k].casefold()))
    return out.iloc[order].reset_index(drop=True)


def diff_summary(d: VocabDiff) -> str:
    """One sentence: how much two vocabularies share.

    >>> from bpe_core.analysis.vocabulary import DiffEntry
    >>> diff_summary(VocabDiff((DiffEntry("a", "61"),), (), (DiffEntry("b", "62"),) * 3))
    'They share 3 tokens: 75.0% of A and 100.0% of B.'
    """
    n = len(d.shared)
    size_a, size_b = n + len(d.only_a), n + len(d.only_b)
    return (f"They share {n:,} token{'s' if n != 1 else ''}: {n / max(size_a, 1):.1%} of A and "
            f"{n / max(size_b, 1):.1%} of B.")


# -- writing systems, longest tokens, byte fallback -------------------------------------------

def systems_table(df: pd.DataFrame) -> pd.DataFrame:
    """Tokens per writing system (the ``script`` column), with their share of the vocabulary (in
    per cent) and how many are base symbols or learned merges: scripts of letters first, most
    tokens first, then digits, symbols, whitespace and the kinds of byte and special tokens.

    >>> df = pd.DataFrame({"script": ["Latin", "Han", "Han", "Digits"],
    ...                    "kind": ["merge", "char", "merge", "char"]})
    >>> systems_table(df)
      writing system  tokens  share  base  learned  added
    0            Han       2   50.0     1        1      0
    1          Latin       1   25.0     0        1      0
    2         Digits       1   25.0     1        0      0
    """
    kind = df["kind"].map(lambda k: "learned" if k == "merge" else
                          "added" if k in ("special", "added") else "base")
    counts = pd.crosstab(df["script"], kind).reindex(columns=["base", "learned", "added"],
                                                     fill_value=0)
    totals = counts.sum(axis=1)
    order = list(listed(totals.to_dict()))
    out = pd.DataFrame({"writing system": order, "tokens": totals[order].to_numpy("int64"),
                        "share": (100 * totals[order] / max(len(df), 1)).to_numpy("float64")})
    for column in ("base", "learned", "added"):
        out[column] = counts.loc[order, column].to_numpy("int64")
    return out


def longest(df: pd.DataFrame, *, n: int = 50, unit: str = "characters",
            systems: Iterable[str] = ()) -> pd.DataFrame:
    """The ``n`` longest tokens in ``unit`` ("characters" or "bytes"), lowest id first among
    equals; only those of ``systems`` when given. Special and added tokens are left out (they
    are written by hand, not learned), and so are, for characters, tokens that are not UTF-8.

    >>> df = pd.DataFrame({"id": [0, 1, 2, 3], "n_bytes": [3, 6, 3, 9],
    ...                    "chars": pd.array([3, 2, 3, None], dtype="Int64"),
    ...                    "kind": ["merge", "merge", "merge", "special"],
    ...                    "script": ["Latin", "Han", "Latin", "Special & added"]})
    >>> longest(df, n=2)["id"].tolist(), longest(df, n=2, unit="bytes")["id"].tolist()
    ([0, 2], [1, 0])
    >>> longest(df, systems=["Han"])["id"].tolist()
    [1]
    """
    column = "chars" if unit == "characters" else "n_bytes"
    keep = ~df["kind"].isin(["special", "added"]) & df[column].notna()
    systems = list(systems)
    if systems:
        keep &= df["script"].isin(systems)
    return df[keep].sort_values([column, "id"], ascending=[False, True], kind="stable").head(n)


def byte_fallback_tokens(df: pd.DataFrame) -> pd.DataFrame:
    """The byte-fallback tokens (``<0x00>`` .. ``<0xFF>``), in id order."""
    return df[df["script"] == BYTE_FALLBACK]


# -- figures ---------------------------------------------------------------------------------


def length_figure(df: pd.DataFrame, unit: str = "bytes") -> go.Figure:
    """How many tokens have each length (``unit`` "bytes" or "characters"), base vs learned.

    Special and other added tokens are left out (they are added, not built), and so are tokens
    that are not valid UTF-8 when counting characters.
    """
    column = "n_bytes" if unit == "bytes" else "chars"
    rows = df[~df["kind"].isin(["special", "added"]) & df[column].notna()]
    kinds = ["learned" if k == "merge" else "base" for k in rows["kind"]]
    return length_histogram(dict(zip(rows["id"], zip(rows[column].astype(int), kinds))), unit)


def allocation_figure(table: pd.DataFrame, *, log: bool = False) -> go.Figure:
    """Tokens per writing system (a :func:`systems_table`), in the table's order from the top,
    split into base symbols (pale), learned merges (solid) and added tokens (hatched), in each
    system's colour; ``log``: a log-scale axis, so a script with a few dozen tokens still shows
    beside one with a hundred thousand.

    >>> df = pd.DataFrame({"script": ["Latin", "Latin", "Han", "Partial UTF-8"],
    ...                    "kind": ["char", "merge", "merge", "byte"]})
    >>> fig = allocation_figure(systems_table(df))
    >>> fig.data[0].y
    ('Partial UTF-8', 'Han', 'Latin')
    >>> [(t.name, t.x) for t in fig.data]
    [('base', (1, 0, 1)), ('learned', (0, 1, 1)), ('added', (0, 0, 0))]
    """
    rows = table.iloc[::-1]  # plotly draws the first category at the bottom
    names = rows["writing system"].tolist()
    colours = [script_colour(s) for s in names]
    bars = [go.Bar(y=names, x=rows[label].tolist(), name=label, orientation="h",
                   marker=dict(color=colours, opacity=opacity, line=dict(color=colours, width=1),
                               pattern=dict(shape=pattern, fgcolor="#4b5563")),
                   customdata=rows["tokens"].tolist(),
                   hovertemplate=f"<b>%{{y}}</b>: %{{x:,}} {label} tokens "
                                 "(of %{customdata:,})<extra></extra>")
            for label, opacity, pattern in (("base", 0.4, ""), ("learned", 1.0, ""),
                                            ("added", 0.8, "/"))]
    # The layout given whole: each update_layout call costs a parse and a validation per key.
    return go.Figure(data=bars, layout=dict(
        barmode="stack", height=max(220, 70 + 24 * len(names)),
        margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
        showlegend=False,  # a legend swatch has one colour; the page says it
        xaxis=dict(title=dict(text="tokens in the vocabulary" + (" (log scale)" if log else "")),
                   gridcolor="#eef1f6", type="log" if log else "linear"),
        yaxis=dict(automargin=True)))


def count_figure(df: pd.DataFrame) -> go.Figure:
    """How often each merged pair occurred when it was learned, against its rank (log scale):
    the counts fall as training goes on, so late merges serve rarer and rarer text. Merges
    with no known count (a file that records none: see :func:`counts_known`) are left out."""
    merges = df[(df["kind"] == "merge") & (df["count"] > 0)]
    # Plain arrays (not a list of tuples), which plotly packs as binary: fast at 200k merges.
    return go.Figure(go.Scattergl(
        x=merges["rank"].to_numpy("int64"), y=merges["count"].to_numpy("int64"),
        text=merges["shown"].map(plot_text).to_numpy(object),
        customdata=merges["id"].to_numpy("int64"),
        mode="markers", marker=dict(color=BLUE, size=5 if len(merges) < 5000 else 3, opacity=0.7),
        hovertemplate="rank %{x:,}: <b>%{text}</b> (id %{customdata})"
                      "<br>pair count %{y:,}<extra></extra>"),
        layout=dict(height=320, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white",
                    xaxis=dict(title=dict(text="merge rank (order learned)"),
                               gridcolor="#eef1f6", rangemode="tozero"),
                    yaxis=dict(title=dict(text="pair count when learned (log)"), type="log",
                               dtick=1, gridcolor="#eef1f6")))

