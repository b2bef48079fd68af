"""The Vocabulary page's download: the tokens a search finds, every one of them (the table
lists at most ``MAX_ROWS``), with the exact text each stands for and its string in the file.

CSV is for spreadsheets, which run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a
formula: GPT-2 alone has 86 such tokens (``==``, ``+=``, ``-1``, ``@``), which Excel showed as
``#NAME?`` or as numbers. Such a cell is written with an apostrophe before it, as OWASP
advises, which a spreadsheet shows but does not run; JSON keeps every string exactly.

>>> from collections import Counter
>>> from bpe_core import train
>>> from ui.vocabulary.data import vocabulary_frame, with_frequencies
>>> tok = train("== -1 @x == -1", unit="char", pretokenizer="whitespace", max_merges=3,
...             min_frequency=1)
>>> df = with_frequencies(vocabulary_frame(tok), Counter(tok.encode("== ==")))
>>> rows = downloaded(tok, df.loc[[1, 6, 7, 8]])  # a base symbol has no rank nor count
>>> print(as_csv(rows).decode("utf-8-sig").replace(chr(13), ""))  # (lines end in CR LF)
id,in the file,token,bytes (hex),bytes,chars,kind,rank,pair count,writing system,frequency
1,'-,'-,2D,1,1,char,,,Punctuation & symbols,0
6,'==,'==,3D 3D,2,2,merge,0,2,Punctuation & symbols,2
7,'-1,'-1,2D 31,2,2,merge,1,2,Punctuation & symbols,0
8,'@x,'@x,40 78,2,2,merge,2,1,Latin,0
<BLANKLINE>
>>> [(r["id"], r["in the file"], r["pair count"]) for r in json.loads(as_json(rows))]
[(1, '-', None), (6, '==', 2), (7, '-1', 2), (8, '@x', 1)]
"""

from __future__ import annotations

import json

import pandas as pd

from bpe_core import Tokenizer

from ..shared import spreadsheet

#: The table's columns, under the names the download gives them (the count column only when
#: the tokenizer recorded counts, the frequency column only once counted).
HEADERS = {"id": "id", "raw": "in the file", "token": "token", "hex": "bytes (hex)",
           "n_bytes": "bytes", "chars": "chars", "kind": "kind", "rank": "rank",
           "count": "pair count", "script": "writing system", "frequency": "frequency"}
TEXTS = ("in the file", "token")  # the columns of a token's own text
CSV_HELP = ("Every token the search finds, in this order, with the text it stands for and its "
            "string in the file. For spreadsheets: a token that starts with =, +, - or @ is "
            "written with a ' before it, so that no spreadsheet runs it as a formula.")
JSON_HELP = ("Every token the search finds, in this order, with the text it stands for and its "
             "string in the file, every string exactly as it is.")


def downloaded(tok: Tokenizer, df: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``df`` (the page's table of ``tok``, as searched and ordered) with their
    strings in the file, under the download's column names; the columns of unknown counts or
    frequencies left out."""
    out = df.assign(raw=[tok.view.raw(i) for i in df["id"].tolist()])
    # Decided for the whole vocabulary, not the rows found: found base symbols alone have no
    # count, yet the tokenizer records them (so a file's columns do not follow the search).
    unknown = {"count": not any(tok.merges.count), "frequency": out["frequency"].isna().all()}
    return out[[c for c in HEADERS if not unknown.get(c)]].rename(columns=HEADERS)


def as_csv(rows: pd.DataFrame) -> bytes:
    """The rows as CSV a spreadsheet opens safely (``ui/shared/spreadsheet.py``): only a
    token's own text can start like a formula; ids, counts, hex, kinds and scripts never do."""
    return spreadsheet.as_csv(rows, texts=TEXTS)


def as_json(rows: pd.DataFrame) -> bytes:
    """The rows as a JSON array of objects, a token a line, every string as it is (null for
    what the table leaves empty)."""
    keys = list(rows.columns)
    lines = ",\n".join(json.dumps(dict(zip(keys, values)), ensure_ascii=False)
                       for values in zip(*spreadsheet.columns(rows)))
    return f"[\n{lines}\n]\n".encode("utf-8")
