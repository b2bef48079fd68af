"""Every page's headings, in the order a screen reader lists them: the page's title (h1), its
sections (h2) and what is inside a section (h3), never skipping a level (axe-core's
heading-order rule: a jump from h1 to h3 leaves the reader wondering what was missed). A
heading is words only: Streamlit names a Material icon by its ligature, so a title
":material/dictionary: Vocabulary" was read "dictionary icon Vocabulary".

>>> levels([("title", "Corpus"), ("markdown", "### `ing`"), ("markdown", "Plain **text**")])
[(1, 'Corpus'), (3, '`ing`')]
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LEVEL = {"title": 1, "header": 2, "subheader": 3}


def levels(elements) -> list[tuple[int, str]]:
    """``(level, text)`` of each heading among ``(type, value)`` pairs, in order: st.title,
    st.header, st.subheader, and markdown that starts with ``#``."""
    out = []
    for kind, value in elements:
        if kind in LEVEL:
            out.append((LEVEL[kind], value))
        elif kind == "markdown" and value.startswith("#"):
            hashes = len(value) - len(value.lstrip("#"))
            out.append((hashes, value[hashes:].strip()))
    return out


def written(node) -> list[tuple[str, str]]:
    """``(type, value)`` of every element under ``node``, in the order the page wrote them."""
    children = getattr(node, "children", None)
    if children is not None and not hasattr(node, "value"):
        return [pair for k in sorted(children) for pair in written(children[k])]
    value = getattr(node, "value", None)
    return [(node.type, value)] if isinstance(value, str) else []


def open_page(page: str) -> AppTest:
    """The app run as a first visit, then switched to ``app_pages/<page>.py`` (Train on the
    hug/pug sample, whose settings are ready to start)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"sample": "hug-pug"} if page == "train" else {})
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception
    return at


@pytest.mark.parametrize("page, sections", [
    ("corpus", [(1, "Corpus"), (2, "What is in “English essays \\(default\\)”")]),
    ("tokenize", [(1, "Tokenize"), (2, "How a token was built"),
                  (2, "Compare tokenizers"), (2, "Chat template")]),
    ("vocabulary", [(1, "Vocabulary"), (2, "A token up close")]),
    ("languages", [(1, "Languages: the tokenization premium")]),
])
def test_each_page_goes_from_its_title_to_sections_without_skipping_a_level(page, sections):
    heads = levels(written(open_page(page).main))
    assert heads[:len(sections)] == sections
    assert all(b <= a + 1 for (a, _), (b, _) in zip(heads, heads[1:])), heads


def test_the_train_page_titles_its_step_tables_passage_and_result_as_sections():
    at = open_page("train")
    at.button(key="train_start").click().run()
    assert not at.exception
    heads = levels(written(at.main))
    assert heads[0] == (1, "Train — watch the vocabulary grow")
    assert {(2, "Step tables"), (2, "A passage, re-segmented at this step")} <= set(heads)
    assert all(b <= a + 1 for (a, _), (b, _) in zip(heads, heads[1:])), heads
