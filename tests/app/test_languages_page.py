"""The Languages page, run headless with Streamlit's AppTest: what it measures and shows."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from ui.languages import charts as charts_languages, data as languages
from ui.shared.samples import parallel_sample

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/languages.py"
CSV = ("en,German,Japanese\n"
       '"Good morning, friends.","Guten Morgen, Freunde.",おはよう、みなさん。\n'
       "The shop opens at nine.,Der Laden öffnet um neun.,店は九時に開きます。\n")


@pytest.mark.parametrize("module", [languages, charts_languages])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def open_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()  # the entry script sets up the session (and the default tokenizer)
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def table(at: AppTest):
    assert len(at.dataframe) == 1
    return at.dataframe[0].value


def chart(at: AppTest, key: str) -> dict:
    protos = [c.proto for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(protos) == 1, f"no single chart {key!r}"
    return json.loads(protos[0].spec)


def upload(at: AppTest, files) -> AppTest:
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("lang_upload"))
    uploader.set_value(files).run()
    assert not at.exception
    return at


def test_bundled_sample_loads_with_every_language():
    at = open_page()
    corpus = parallel_sample()
    df = table(at)
    assert list(df.Code) == list(corpus.codes)
    assert list(df.Language) == [lang.name for lang in corpus.languages]
    assert set(df.Sentences) == {corpus.n_sentences}
    assert at.selectbox(key="lang_baseline").options == [lang.name for lang in corpus.languages]
    label = at.expander[0].label
    assert f"{corpus.n_sentences} sentences in {len(corpus.codes)} languages" in label
    bars = chart(at, "lang_bars")
    assert sorted(x for trace in bars["data"] for x in trace["x"]) == sorted(df.Language)


def test_counts_equal_bpe_cores_and_the_baseline_premium_is_exactly_one():
    at = open_page()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    corpus = parallel_sample()
    df = table(at).set_index("Code")
    for code in corpus.codes:
        assert df.loc[code, "Tokens"] == sum(len(tok.encode(s)) for s in corpus.sentences(code))
    assert df.loc["en", "Premium"] == 1.0
    assert df.loc["hi", "Premium"] == df.loc["hi", "Tokens"] / df.loc["en", "Tokens"]

    at.selectbox(key="lang_baseline").set_value("hi").run()
    df = table(at).set_index("Code")
    assert df.loc["hi", "Premium"] == 1.0 and df.loc["en", "Premium"] < 1.0
    assert "Hindi" in chart(at, "lang_bars")["layout"]["yaxis"]["title"]["text"]


def test_uploaded_csv_is_measured():
    at = upload(open_page(), ("greetings.csv", CSV.encode(), "text/csv"))
    df = table(at)
    assert list(df.Code) == ["en", "de", "ja"] and set(df.Sentences) == {2}
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    ja = sum(len(tok.encode(s)) for s in ("おはよう、みなさん。", "店は九時に開きます。"))
    assert df.set_index("Code").loc["ja", "Tokens"] == ja
    assert "greetings.csv" in at.expander[0].label
    # Back to the sample: the uploader is emptied, so the upload is not read again.
    at.button(key="lang_back").click().run()
    assert len(table(at)) == len(parallel_sample().codes)


def test_text_files_aligned_by_line_are_measured():
    at = upload(open_page(), [("en.txt", b"One.\nTwo.\n", "text/plain"),
                              ("french.txt", "Un.\nDeux.\n".encode(), "text/plain")])
    assert list(table(at).Language) == ["English", "French"]


@pytest.mark.parametrize(
    "files, where",
    [
        (("bad.csv", b"en,fr\nOne,Un\nTwo\n", "text/csv"), "bad.csv, line 3"),
        (("bad.csv", b"en,fr\nOne,Un\nTwo,\n", "text/csv"), "line 3: the 'fr' cell is empty"),
        ([("en.txt", b"1\n2\n3\n", "text/plain"), ("fr.txt", b"1\n2\n", "text/plain")],
         "fr.txt ends after line 2 but en.txt has 3 lines"),
    ],
)
def test_misaligned_upload_errors_clearly_and_keeps_the_corpus(files, where):
    at = upload(open_page(), files)
    assert len(at.error) == 1 and where in at.error[0].value
    assert len(table(at)) == len(parallel_sample().codes)  # still the bundled sample


def test_vocabulary_size_curve_has_one_point_per_merge_count():
    at = open_page()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    at.multiselect(key="lang_merge_counts").set_value([0, 10, 100]).run()
    curve = chart(at, "lang_curve")
    assert len(curve["data"]) == len(parallel_sample().codes)
    assert all(trace["x"] == [tok.n_base, tok.n_base + 10, tok.n_base + 100]
               for trace in curve["data"])
    english = next(trace for trace in curve["data"] if trace["name"] == "English")
    assert english["y"] == [1.0, 1.0, 1.0]


def test_train_on_the_parallel_sample_in_one_click():
    at = open_page()
    at.number_input(key="lang_train_size").set_value(600).run()
    at.button(key="lang_train").click().run()
    assert not at.exception
    name = "Parallel sample byte-level 600"
    tok = at.session_state["tokenizers"][name]
    assert (tok.unit, tok.config["pretokenizer"], tok.vocab_size) == ("byte", "gpt2", 600)
    assert at.session_state["tokenizer"] == name  # it became the active one
    assert name in at.multiselect(key="lang_tokenizers").value
    assert at.selectbox(key="lang_focus").value == name
    heatmap = chart(at, "lang_heatmap")
    assert heatmap["data"][0]["x"] == ["English byte-level 1k", name]
    # A balanced corpus lowers the premium of a script English never taught.
    df = table(at)
    premiums = df[df.Code == "hi"].set_index("Tokenizer").Premium
    assert premiums[name] < premiums["English byte-level 1k"]


def test_side_by_side_colours_each_chosen_language():
    at = open_page()
    at.multiselect(key="lang_side_langs").set_value(["en", "my"]).run()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    corpus = parallel_sample()
    bodies = [h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body]
    assert len(bodies) == 2
    for code, body in zip(["en", "my"], bodies):
        assert body.count('<span class="t') == len(tok.spans(corpus.sentences(code)[0]))


def test_references_are_listed_only_when_they_load(monkeypatch):
    gpt2 = bpe_core.train(["a tiny stand-in"], unit="byte", max_merges=3, min_frequency=1)

    def fake(name):
        if name == "gpt2":
            return gpt2
        raise bpe_core.ReferenceUnavailableError("offline")

    monkeypatch.setattr(bpe_core, "reference_encoding", fake, raising=False)
    languages.reference_tokenizers.clear()
    try:
        at = open_page()
        title = bpe_core.REFERENCE_ENCODINGS["gpt2"].title
        assert title in at.multiselect(key="lang_tokenizers").value  # compared by default
        rows = table(at)[lambda df: df.Tokenizer == title].set_index("Code")
        en = parallel_sample().sentences("en")
        assert rows.loc["en", "Tokens"] == sum(len(gpt2.encode(s)) for s in en)
        assert not any("cl100k" in o for o in at.multiselect(key="lang_tokenizers").options)
        assert any("(cl100k_base, o200k_base) could not be fetched" in c.value for c in at.caption)
    finally:
        languages.reference_tokenizers.clear()


def test_hostile_text_is_measured_and_shown_as_text():
    family = "\U0001F469\u200d\U0001F469\u200d\U0001F467"  # an emoji ZWJ sequence
    data = ("en,<script>alert(1)</script>\n"
            f"Hello.,<script>alert(2)</script>\u202e\u200b{family}\n").encode()
    at = upload(open_page(), ("hostile.csv", data, "text/csv"))
    df = table(at)
    assert list(df.Language) == ["English", "<script>alert(1)</script>"]
    at.multiselect(key="lang_side_langs").set_value(["<script>alert(1)</script>"]).run()
    bodies = [h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body]
    assert len(bodies) == 1
    assert "<script>" not in bodies[0] and ">&lt;</span>" in bodies[0]  # "<" is its own token
    assert "\u202e" not in bodies[0]  # the right-to-left override is shown as a marker
