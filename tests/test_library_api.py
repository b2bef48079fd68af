"""bpe_core used as a library, as its README and docstrings show it: a wrong argument gets an
error that says what was wrong and how to give it."""

import re
import tempfile

import pytest

import bpe_core


def test_special_tokens_given_as_one_string_are_refused_not_split_into_characters():
    # It made '<', 's' and '>' three special tokens: vocab_size 259 for 'abc' in bytes.
    with pytest.raises(TypeError, match=r"special_tokens takes a list of strings, such as "
                                        r"\['<s>'\], not one string"):
        bpe_core.train("abc", special_tokens="<s>")
    tok = bpe_core.train("abc", special_tokens=["<s>"])
    assert [t.content for t in tok.added_tokens] == ["<s>"] and tok.vocab_size == 257


def test_superbpe_refuses_special_tokens_given_as_one_string_too():
    # It made '<', 's' and '>' three special tokens, ids 262-264.
    with pytest.raises(TypeError, match=r"such as \['<s>'\], not one string"):
        bpe_core.train_superbpe("abc abc abd " * 20, vocab_size=270, transition=262,
                                special_tokens="<s>")


def test_encoding_what_is_not_a_str_says_what_it_takes():
    tok = bpe_core.train("low lower newest widest", max_merges=3, min_frequency=1)
    with pytest.raises(TypeError, match=r"^encode takes a str, not bytes: decode it first, as "
                                        r"text\.decode\('utf-8'\)$"):
        tok.encode(b"low")
    with pytest.raises(TypeError, match=r"^encode takes a str, not NoneType$"):
        tok.encode(None)
    with pytest.raises(TypeError, match=r"^spans takes a str, not int$"):
        tok.spans(5)
    with pytest.raises(TypeError, match=r"^encode takes a str, not list$"):
        tok.encode_batch([["low"]])
    # One string was taken for a list of one-character texts: [[108], [111], [119]].
    with pytest.raises(TypeError, match=r"^encode_batch takes a list of texts, not one str: "
                                        r"give \[text\], or call encode\(text\)$"):
        tok.encode_batch("low")
    assert tok.encode_batch(["low", "lower"]) == [tok.encode("low"), tok.encode("lower")]


@pytest.mark.parametrize("name, meant", [("cl100k_base", "cl100k"), ("GPT-2", "gpt2"),
                                         ("end_of_word", "end-of-word"), ("O200K", "o200k")])
def test_a_preset_misspelled_is_named_not_run_as_a_regex(name, meant):
    # 'cl100k_base' ran as a regex matching that very word: split gave [] and train said only
    # that the regex matches nothing.
    with pytest.raises(bpe_core.PatternError, match=f"^'{name}' is not a preset; did you mean "
                                                    f"'{meant}'\\? The presets are none, "):
        bpe_core.split("Hello world", name)
    with pytest.raises(bpe_core.PatternError, match="is not a preset; did you mean"):
        bpe_core.train("Hello world", pretokenizer=name)



def test_loads_reads_a_tokenizer_json_given_as_text():
    # tokenizers' Tokenizer.to_str() gives a str, which failed with AttributeError "'str' object
    # has no attribute 'decode'".
    from tokenizers import Tokenizer as HFTokenizer
    tok = bpe_core.train("hug pug pun bun hugs", max_merges=3, min_frequency=1)
    text = HFTokenizer.from_str(bpe_core.dumps(tok, format="hf").decode("utf-8")).to_str()
    ids = [257, 115, 258, 117, 110]
    assert bpe_core.loads(text).encode("hugs pun") == tok.encode("hugs pun") == ids


def test_decoding_a_string_of_ids_says_to_give_a_list():
    tok = bpe_core.train("hug pug pun bun hugs", max_merges=3, min_frequency=1)
    # It failed with "'<=' not supported between instances of 'int' and 'str'".
    with pytest.raises(TypeError, match=r"^decode takes a list of token ids, not a str: give "
                                        r"\[9906, 11\], or \[int\(i\) for i in text\.split\(\)\]$"):
        tok.decode("257 115")
    assert tok.decode([int(i) for i in "257 115".split()]) == "hugs"


@pytest.mark.parametrize("ids, error, said", [
    ([257, -1], ValueError, r"decode takes token ids from 0, not -1 \(at position 1\)"),
    ([-100, 257], ValueError, r"decode takes token ids from 0, not -100 \(at position 0\)"),
    ([257, "5"], TypeError, r"decode takes whole-number token ids, not '5' \(at position 1\)"),
    ([1.0], TypeError, r"decode takes whole-number token ids, not 1\.0 \(at position 0\)"),
    ([[257, 115]], TypeError, r"decode takes whole-number token ids, not \[257, 115\] "),
    (None, TypeError, r"decode takes a list of token ids, not a NoneType$")])
def test_decoding_an_id_that_is_no_token_id_says_which(ids, error, said):
    # -1 was skipped without a word ("hug"), "5" met "'<=' not supported between instances of
    # 'int' and 'str'", 1.0 decoded as token 1 and 3.0 failed with "list indices must be
    # integers"; tokenizers refuses them all, as OverflowError or TypeError.
    tok = bpe_core.train("hug pug pun bun hugs", max_merges=3, min_frequency=1)
    with pytest.raises(error, match=f"^{said}"):
        tok.decode(ids)
    # An id past the vocabulary is skipped, as tokenizers skips it; any integer type will do.
    assert tok.decode([257, 10 ** 6, 115]) == tok.decode(iter([257, 115])) == "hugs"


@pytest.mark.parametrize("option, value", [("vocab_size", "300"), ("max_merges", 2.5),
                                           ("min_frequency", "2")])
def test_a_count_that_is_not_a_whole_number_is_named(option, value):
    # vocab_size="300" failed with "'<' not supported between instances of 'str' and 'int'".
    with pytest.raises(TypeError, match=f"^{option} takes a whole number, not {value!r}$"):
        bpe_core.train("abc", **{option: value})


def test_count_words_takes_a_preset_name_as_train_does():
    # "whitespace" ran as a regex that matched nothing: {}.
    assert bpe_core.count_words("a b a", "whitespace") == {"a": 2, "b": 1}
    assert bpe_core.count_words("a b a", "gpt2") == {"a": 1, " b": 1, " a": 1}
    assert bpe_core.count_words("a b a", r"\S+") == {"a": 2, "b": 1}


def test_split_of_what_is_not_a_str_says_what_it_takes():
    # It failed with AttributeError "'NoneType' object has no attribute 'isascii'".
    with pytest.raises(TypeError, match=r"^split takes a str, not NoneType$"):
        bpe_core.split(None, "gpt2")
    with pytest.raises(TypeError, match=r"^split takes a str, not bytes$"):
        bpe_core.split(b"Hello world", "gpt2")
    assert bpe_core.split("Hello world", "gpt2") == ["Hello", " world"]


def test_upto_that_is_no_merge_count_is_named():
    # encode("low", upto="1") failed with "'>=' not supported between instances of 'str' and
    # 'int'", and upto=-1 quietly encoded with no merges.
    tok = bpe_core.train("low lower newest widest", max_merges=3, min_frequency=1)
    with pytest.raises(TypeError, match=r"^upto takes a whole number of merges, not '1'$"):
        tok.encode("low", upto="1")
    with pytest.raises(ValueError, match=r"^upto takes a number of merges from 0 \(none\) to 3 "
                                         r"\(all\), not -1$"):
        tok.spans("low", upto=-1)
    assert tok.encode("low", upto=0) == [108, 111, 119]
    assert tok.encode("low", upto=99) == tok.encode("low")


@pytest.mark.parametrize("arg, said", [
    (None, "not NoneType$"), (3, "not int$"),
    ({"model": {}}, r"not dict: for a tokenizer already parsed from JSON, call "
                    r"loads\(json\.dumps\(it\)\)$"),
    (b"{}", r"not bytes: for a file's contents, call loads\(data\)$")])
def test_load_of_what_is_not_a_path_says_what_it_takes(arg, said):
    # It failed deep in pathlib: "expected str, bytes or os.PathLike object, not NoneType".
    with pytest.raises(TypeError, match=r"^load takes a file's path \(a str or pathlib\.Path\), "
                                        + said):
        bpe_core.load(arg)
    with pytest.raises(TypeError, match=r"^load_gpt2 takes a file's path"):
        bpe_core.load_gpt2("vocab.json", arg)


def test_loads_of_what_is_no_file_content_says_what_it_takes(tmp_path):
    # It failed with AttributeError "'NoneType' object has no attribute 'strip'".
    with pytest.raises(TypeError, match=r"^loads takes a file's contents \(bytes or str\), "
                                        r"not NoneType$"):
        bpe_core.loads(None)
    with pytest.raises(TypeError, match=r"not PosixPath: to read a file, call load\(path\)$"):
        bpe_core.loads(tmp_path / "tokenizer.json")
    with pytest.raises(TypeError, match=r"not dict: for a tokenizer already parsed from JSON, "
                                        r"give json\.dumps\(it\)$"):
        bpe_core.loads({"model": {}})
    tok = bpe_core.train("hug pug", max_merges=1, min_frequency=1)
    bpe_core.save(tok, tmp_path / "t.json")
    assert bpe_core.load(str(tmp_path / "t.json")).encode("hug") == tok.encode("hug")
    assert bpe_core.loads(bytearray(bpe_core.dumps(tok))).encode("hug") == tok.encode("hug")


@pytest.mark.parametrize("unit, pretokenizer", [("byte", "end-of-word"), ("char", "whitespace"),
                                                ("char", "end-of-word")])
def test_a_format_that_cannot_hold_a_tokenizer_advises_one_that_can(unit, pretokenizer):
    # A byte-level tokenizer with </w> was told to use the Hugging Face format, which refuses
    # it too: every format a refusal names must save it.
    tok = bpe_core.train("low lower newest widest", unit=unit, pretokenizer=pretokenizer,
                         max_merges=3, min_frequency=1)
    named = {"native": "native", "Hugging Face": "hf"}
    for fmt in ("tiktoken", "gpt2"):
        with pytest.raises(ValueError) as refused:
            bpe_core.save(tok, tempfile.mkdtemp(), format=fmt)
        advice = re.search(r"[Ss]ave .* in the (.+) format", str(refused.value))
        advised = [f for name, f in named.items() if advice and name in advice[1]]
        assert advised, str(refused.value)
        for f in advised:
            bpe_core.dumps(tok, format=f)  # raises if the advice was wrong
