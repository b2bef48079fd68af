"""The command line: train, encode, decode, info — and clear errors."""

import functools
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bpe_core
from bpe_core.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args, stdin=""):
    """The command in a Python of its own, as a user starts it (~0.5 s of CPU each: kept for
    what only a real process shows, its entry point and its real standard input and output)."""
    return subprocess.run([sys.executable, "-m", "bpe_core", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=isinstance(stdin, str), timeout=120)


def _main(capsys, monkeypatch, *args, stdin=""):
    """``main(args)`` in this process (where the stand-ins below apply): (code, out, err), as
    ``run`` gives them: argparse's refusals and --help end in SystemExit, its code the exit's."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), "utf-8", newline=""))
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_train_encode_decode_info(tmp_path, capsys, monkeypatch):
    corpus = tmp_path / "c.txt"
    corpus.write_text("set new new renew reset renew\n", encoding="utf-8")
    out = tmp_path / "tok.json"
    # Training and the first encode in processes of their own, as a user runs them; the rest
    # reads what they wrote in this process (each process costs ~0.5 s of CPU).
    r = run("train", str(corpus), "-o", str(out), "--pretokenizer", "space-prefix",
            "--max-merges", "4", "--processes", "1")
    assert r.returncode == 0, r.stderr
    assert "stopped by max_merges" in r.stderr
    r = run("encode", str(out), "--show", "tokens", stdin=" renew")
    assert r.stdout.splitlines()[0].endswith("' re'")
    assert r.stderr == "2 tokens, 6 characters\n"  # ' re' + 'new'
    cli = functools.partial(_main, capsys, monkeypatch)
    assert cli("encode", str(out), "--show", "tokens", stdin="e")[2] == "1 token, 1 character\n"
    ids = cli("encode", str(out), stdin="renew reset")[1].split()
    assert cli("decode", str(out), *ids)[1] == "renew reset\n"
    info = cli("info", str(out))[1]
    assert "vocab_size:    260" in info and "'n' + 'e' -> 'ne'  (" in info
    assert "merges 1–4 of 4 (rank: left + right -> token, pair count when learned):" in info


def test_errors_are_one_line_not_tracebacks(tmp_path, capsys, monkeypatch):
    # (In this process a traceback is an exception that fails the test.)
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    code, _, err = _main(capsys, monkeypatch, "info", str(bad))
    assert code == 2
    assert err.startswith("error: ") and "Traceback" not in err
    code, _, err = _main(capsys, monkeypatch, "train", str(bad), "-o", str(tmp_path / "x.json"),
                         "--pretokenizer", "([")
    assert code == 2 and "invalid pre-tokenizer regex" in err


def test_a_tiktoken_rank_file_needs_and_takes_its_pretokenizer(tmp_path, capsys, monkeypatch):

    tok = bpe_core.train("hello world hello there " * 20, max_merges=20, pretokenizer="cl100k")
    path = tmp_path / "x.tiktoken"
    bpe_core.save(tok, path, format="tiktoken")
    code, _, err = _main(capsys, monkeypatch, "encode", str(path), stdin="hello")
    assert code == 2 and "cl100k" in err
    _, out, _ = _main(capsys, monkeypatch, "encode", str(path), "--pretokenizer", "cl100k",
                      stdin="hello there")
    assert out.split() == [str(i) for i in tok.encode("hello there")]


def test_info_on_a_model_file_names_a_few_special_tokens_and_no_stop_reason(tmp_path, capsys,
                                                                           monkeypatch):
    from tokenizers import Tokenizer as HFTokenizer
    from tokenizers import models, pre_tokenizers
    from tokenizers.trainers import BpeTrainer

    hf = HFTokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    specials = [f"<|special_{k}|>" for k in range(20)]
    hf.train_from_iterator(["hug pug pun bun hugs"] * 5, BpeTrainer(
        vocab_size=300, special_tokens=specials, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    info = _main(capsys, monkeypatch, "info", str(path))[1]
    assert "20 special" in info and "<|special_11|> and 8 more" in info
    assert "<|special_12|>" not in info and "stop reason" not in info
    # A file keeps no pair counts: none are shown (a trained tokenizer's are, see above).
    assert "merges 1–10 of" in info and "pair count" not in info and "(0)" not in info


# -- tokenizers by name: OpenAI's encodings and Hugging Face models, as the app takes them ------

from tests.test_references import offline, online, rank_file  # noqa: E402,F401 (fixtures)


def test_an_openai_encoding_is_opened_by_name(online, capsys, monkeypatch):
    text = "Hello wörld, 12345!"
    code, out, _ = _main(capsys, monkeypatch, "encode", "o200k_base", stdin=text)
    assert code == 0
    assert out.split() == [str(i) for i in bpe_core.reference_encoding("o200k_base").encode(text)]


def test_an_openai_encoding_offline_says_where_to_put_its_file(offline, capsys, monkeypatch):
    code, out, err = _main(capsys, monkeypatch, "info", "cl100k_base")
    assert code == 2 and not out and "Traceback" not in err
    assert err.startswith("error: cannot fetch the reference encoding 'cl100k_base'")
    assert "cl100k_base.tiktoken" in err


def test_a_hugging_face_model_is_opened_by_id(monkeypatch, tmp_path, capsys):
    from huggingface_hub import constants

    from tests.hub_cache import put_model
    from tests.model_files import llama3_file

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    put_model(tmp_path, "org/llama-like", {"tokenizer.json": llama3_file()})
    from tokenizers import Tokenizer as HFTokenizer

    text = "Hello wörld 😀"
    code, out, _ = _main(capsys, monkeypatch, "encode", "org/llama-like", stdin=text)
    want = HFTokenizer.from_str(llama3_file().decode()).encode(text, add_special_tokens=False)
    assert code == 0 and out.split() == [str(i) for i in want.ids]
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    code, out, err = _main(capsys, monkeypatch, "info", "org/absent")
    assert code == 2 and err.startswith("error: org/absent is not in the Hugging Face cache")


def test_a_missing_file_that_names_nothing_known_says_so(capsys, monkeypatch, tmp_path):
    code, _, err = _main(capsys, monkeypatch, "info", str(tmp_path / "tok.json"))
    assert code == 2 and "No such file" in err


def test_colour_keeps_the_spaces_and_shows_where_words_end(tmp_path, capsys, monkeypatch):
    # Text between tokens (the spaces a whitespace split drops) was left out, "low lower" read
    # "lowlower", and a tokenizer.json's </w>, which covers its word's last letter as in
    # tokenizers, printed that letter twice ("lowwlowerr").
    import re

    from tests.model_files import char_bpe_file
    trained = bpe_core.train("low low lower newest", unit="char", pretokenizer="end-of-word",
                             max_merges=3, min_frequency=1)
    paths = {"native": tmp_path / "eow.json", "hf": tmp_path / "tokenizer.json",
             "charbpe": tmp_path / "char.json"}
    bpe_core.save(trained, paths["native"])
    bpe_core.save(trained, paths["hf"], format="hf")
    paths["charbpe"].write_bytes(char_bpe_file())
    shown = {}
    for name, path in paths.items():
        code, out, _ = _main(capsys, monkeypatch, "encode", str(path), "--show", "colour",
                             stdin="low  lower!")
        assert code == 0
        shown[name] = re.sub(r"(\x1b\[[0-9;]*m)+", "|", out)
    assert shown["native"] == shown["hf"] == "|low</w>|  |low|e|r|!|</w>|\n"
    assert shown["charbpe"] == "|low</w>|  |lower</w>|!</w>|\n"


def test_decode_refuses_ids_the_vocabulary_does_not_hold(tmp_path, capsys, monkeypatch):
    # They were skipped without a word: "decode tok.json 104 99999 -1" printed "h", exit 0.
    path = tmp_path / "tok.json"
    bpe_core.save(bpe_core.train("hello hello", max_merges=2), path)
    for bad in ("99999", "-1", "260"):
        code, out, err = _main(capsys, monkeypatch, "decode", str(path), "104", bad)
        assert (code, out) == (2, "")
        assert err == f"error: token id {bad} is not in this vocabulary (0 to 257)\n"
    assert _main(capsys, monkeypatch, "decode", str(path), "104", "257") == (0, "hhel\n", "")


def test_an_input_file_is_encoded_with_its_own_line_ends(tmp_path, capsys, monkeypatch):
    # A Windows file's "a\r\nb" was read as "a\nb": [97, 10, 98], not tokenizers' [97, 13, 10, 98].
    tok = bpe_core.train("a b", max_merges=0)
    path, text = tmp_path / "tok.json", tmp_path / "crlf.txt"
    bpe_core.save(tok, path)
    text.write_bytes(b"a\r\nb\rc")
    code, out, _ = _main(capsys, monkeypatch, "encode", str(path), str(text))
    assert code == 0 and out.split() == [str(i) for i in tok.encode("a\r\nb\rc")]
    assert out == "97 13 10 98 13 99\n"


def test_colour_and_info_print_no_terminal_escapes(tmp_path, capsys, monkeypatch):
    # An ESC in the text, a token or a name went raw to the terminal: "\x1b[2J" cleared it,
    # "\x1b]0;x\x07" retitled it, a CR wrote over the line and U+202E turned the rest round.
    path = tmp_path / "tok.json"
    text = "ab\x1b[2J\r\u202ec\td\n"
    bpe_core.save(bpe_core.train(text, unit="char", max_merges=1, min_frequency=1,
                                 name="n\x1b[2J", special_tokens=["<\x1b]0;x\x07>"]), path)
    code, out, _ = _main(capsys, monkeypatch, "encode", str(path), "--show", "colour",
                         stdin=text)
    assert code == 0
    import re
    shown = re.sub(r"\x1b\[48;5;\d+m\x1b\[30m", "|", out).replace("\x1b[0m", "")
    assert shown == r"|ab|\x1b|[|2|J|\r|\u202e|c|" + "\t|d|\n\n"
    code, out, _ = _main(capsys, monkeypatch, "info", str(path))
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert r"name:          n\x1b[2J" in out and r"special:       <\x1b]0;x\x07>" in out


def test_train_says_how_to_encode_a_file_that_keeps_no_pretokenizer(tmp_path, capsys,
                                                                    monkeypatch):
    # "wrote tok.json" alone: merges.txt was written unnamed, and the file, encoded without
    # --pretokenizer whitespace, was read with gpt2's: "the end" gave ids with a space token.
    corpus = tmp_path / "c.txt"
    corpus.write_text("the end the end then\n", encoding="utf-8")
    native, vocab = tmp_path / "tok.json", tmp_path / "vocab.json"
    for path, fmt in ((native, "native"), (vocab, "gpt2")):
        code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o", str(path),
                             "--pretokenizer", "whitespace", "--format", fmt, "--max-merges", "3")
        assert code == 0, err
    lines = err.splitlines()
    assert lines[-2].endswith(f"wrote {vocab} and {tmp_path / 'merges.txt'}")
    assert lines[-1] == "it keeps no pre-tokenizer: encode with --pretokenizer whitespace"
    want = _main(capsys, monkeypatch, "encode", str(native), stdin="the end")[1]
    assert _main(capsys, monkeypatch, "encode", str(vocab), "--pretokenizer", "whitespace",
                 stdin="the end")[1] == want


def test_input_that_is_not_utf8_is_named_with_where(tmp_path, capsys, monkeypatch):
    # Standard input said "'utf-8' codec can't encode character '\udcff' in position 2:
    # surrogates not allowed" (or, in a UTF-8 locale, named no input), a file not its name.
    path, text = tmp_path / "tok.json", tmp_path / "latin1.txt"
    bpe_core.save(bpe_core.train("ab", max_merges=0), path)
    text.write_bytes(b"caf\xe9 ok")
    code, out, err = _main(capsys, monkeypatch, "encode", str(path), stdin=b"ab\xff")
    assert (code, out) == (2, "")
    assert err == ("error: standard input is not valid UTF-8: byte 0xff at byte offset 2 "
                   "(invalid start byte); re-save it as UTF-8 text\n")
    code, out, err = _main(capsys, monkeypatch, "encode", str(path), str(text))
    assert err == (f"error: {text} is not valid UTF-8: byte 0xe9 at byte offset 3 (invalid "
                   "continuation byte); re-save it as UTF-8 text\n")
    # The real standard input of a process of its own, not the stand-in above.
    r = run("encode", str(path), "--show", "tokens", stdin=b"\xff")
    assert r.returncode == 2 and r.stderr.startswith(b"error: standard input is not valid")


def test_counts_below_their_least_are_refused(tmp_path, capsys, monkeypatch):
    # "info --merges -1" listed "merges 1–3 of 4", "--upto -1" encoded with no merges and
    # "--processes 0" or "-1" ran as one process, all with exit 0.
    path = tmp_path / "tok.json"
    bpe_core.save(bpe_core.train("hello hello", max_merges=4), path)
    for args, message in (
            (("info", str(path), "--merges", "-1"), "argument --merges: must be 0 or more, got -1"),
            (("encode", str(path), "--upto", "-1"), "argument --upto: must be 0 or more, got -1"),
            (("train", str(path), "-o", str(tmp_path / "x.json"), "--processes", "0"),
             "argument --processes: must be 1 or more, got 0"),
            (("info", str(path), "--merges", "x"), "argument --merges: not a whole number: 'x'")):
        code, out, err = _main(capsys, monkeypatch, *args, stdin="hello")
        assert code == 2 and err.splitlines()[-1].endswith(message), err
        assert not out
    assert "merges 1–2 of 4" in _main(capsys, monkeypatch, "info", str(path), "--merges", "2")[1]


def test_train_fails_before_training_when_it_cannot_write_its_output(tmp_path, capsys,
                                                                     monkeypatch):
    # It counted and merged the whole corpus, then said "[Errno 2] No such file or directory".
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello hello\n", encoding="utf-8")
    for out, why in ((tmp_path / "no" / "tok.json", f"there is no folder {tmp_path / 'no'}"),
                     (tmp_path, "it is a folder")):
        code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o", str(out))
        assert code == 2 and err == f"error: cannot write {out}: {why}\n"


def test_a_missing_file_in_a_folder_is_said_missing_not_looked_for_on_the_hub(tmp_path, capsys,
                                                                              monkeypatch):
    # 'out/tok.json' is spelled like a model id, owner/name: it got the Hugging Face cache's
    # message, with the app's 'Upload a file' advice, not that the file is not there.
    monkeypatch.chdir(tmp_path)
    code, _, err = _main(capsys, monkeypatch, "info", "nosuchdir/tok.json")
    assert code == 2
    assert err == "error: cannot read nosuchdir/tok.json: No such file or directory\n"


def test_closed_standard_input_and_a_reader_that_leaves_end_quietly(tmp_path, capsys,
                                                                   monkeypatch):
    corpus = tmp_path / "c.txt"
    corpus.write_text("set new new renew reset renew\n" * 3, encoding="utf-8")
    out = tmp_path / "tok.json"
    assert _main(capsys, monkeypatch, "train", str(corpus), "-o", str(out), "--max-merges",
                 "2")[0] == 0
    # Standard input closed (`<&-`): an AttributeError traceback before.
    r = subprocess.run([sys.executable, "-m", "bpe_core", "encode", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == ("error: standard input is closed: pipe the text in, or name a file\n")
    # `encode big.txt | head -1`: the reader leaves; it said 'error: [Errno 32] Broken pipe'.
    big = tmp_path / "big.txt"
    big.write_text("renew reset\n" * 20_000, encoding="utf-8")  # (far more than a pipe holds)
    proc = subprocess.Popen([sys.executable, "-m", "bpe_core", "encode", str(out), str(big),
                             "--show", "tokens"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does once it has its line
    assert proc.wait(timeout=120) == 1
    assert proc.stderr.read() == b""


def test_train_refuses_more_processes_than_the_machine_has_cores(tmp_path, capsys, monkeypatch):
    # '--processes 1000' on a tiny file started 1,000 workers (66 s) before training.
    corpus = tmp_path / "c.txt"
    corpus.write_text("set new new renew\n", encoding="utf-8")
    cores = os.cpu_count() or 1
    code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o",
                         str(tmp_path / "t.json"), "--processes", str(cores + 1))
    assert code == 2 and not (tmp_path / "t.json").exists()
    assert err == (f"error: --processes {cores + 1}: this machine has {cores} "
                   f"core{'s' * (cores != 1)}; ask for {cores} at most\n")
    assert _main(capsys, monkeypatch, "train", str(corpus), "-o", str(tmp_path / "t.json"),
                 "--processes", str(cores), "--max-merges", "1")[0] == 0


def test_train_to_tiktoken_says_the_file_keeps_no_special_tokens(tmp_path, capsys, monkeypatch):
    # A .tiktoken file holds the ranks only: the special token was dropped without a word.
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world hello\n", encoding="utf-8")
    out = tmp_path / "t.tiktoken"
    code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o", str(out), "--format",
                         "tiktoken", "--max-merges", "3", "--special-token", "<|endoftext|>")
    assert code == 0, err
    assert err.splitlines()[-1] == (
        "nor its special tokens, '<|endoftext|>' (259): save as native or hf to keep them")
    back = bpe_core.load(str(out), pretokenizer="gpt2")
    assert back.encode("a<|endoftext|>b")[1:3] == [60, 124]  # '<', '|': as the file says


def test_train_refuses_a_format_that_cannot_hold_its_settings_before_counting(tmp_path, capsys,
                                                                              monkeypatch):
    # '--unit char --format tiktoken' counted and merged the whole corpus, then was refused.
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world\n", encoding="utf-8")
    code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o",
                         str(tmp_path / "t.tiktoken"), "--unit", "char", "--format", "tiktoken")
    assert code == 2 and "counting words" not in err
    assert err == ("error: tiktoken files hold byte-level BPE only; 'bpe' is not "
                   "byte-level. Save it in the native or Hugging Face format instead.\n")
    code, _, err = _main(capsys, monkeypatch, "train", str(corpus), "-o",
                         str(tmp_path / "vocab.json"), "--pretokenizer", "end-of-word",
                         "--format", "gpt2")
    assert code == 2 and "counting words" not in err


def test_decode_can_keep_the_special_tokens_and_reads_closed_input_cleanly(tmp_path, capsys,
                                                                           monkeypatch):
    # decode left special tokens out, as tokenizers does by default, with no way to keep them.
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world hello\n", encoding="utf-8")
    out = tmp_path / "t.json"
    assert _main(capsys, monkeypatch, "train", str(corpus), "-o", str(out), "--max-merges", "2",
                 "--special-token", "<|endoftext|>")[0] == 0
    ids = _main(capsys, monkeypatch, "encode", str(out), stdin="a<|endoftext|>b")[1].split()
    assert _main(capsys, monkeypatch, "decode", str(out), *ids)[1] == "ab\n"
    assert _main(capsys, monkeypatch, "decode", str(out), *ids,
                 "--keep-special-tokens")[1] == "a<|endoftext|>b\n"
    r = subprocess.run([sys.executable, "-m", "bpe_core", "decode", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert r.stderr == "error: standard input is closed: pipe the text in, or name a file\n"


def test_options_may_come_before_the_ids_or_the_input_file(tmp_path, capsys, monkeypatch):
    # `decode tok.json --keep-special-tokens 72 101` failed with "unrecognized arguments: 72
    # 101", as did `encode tok.json --show tokens notes.txt`: argparse ends a command's
    # positionals at the first option.
    path, text = tmp_path / "tok.json", tmp_path / "notes.txt"
    bpe_core.save(bpe_core.train("ab", max_merges=0, special_tokens=["<s>"]), path)
    text.write_text("ba", encoding="utf-8")
    s, a, b = (str(i) for i in bpe_core.load(path).encode("<s>ab"))
    assert _main(capsys, monkeypatch, "decode", str(path), "--keep-special-tokens", s, a, b) == (
        0, "<s>ab\n", "")
    assert _main(capsys, monkeypatch, "decode", str(path), s, "--keep-special-tokens", a) == (
        0, "<s>a\n", "")
    code, out, _ = _main(capsys, monkeypatch, "encode", str(path), "--show", "tokens", str(text))
    assert (code, out) == (0, "98\t'b'\n97\t'a'\n")
    with pytest.raises(SystemExit):  # still refused: an unknown option, a second input file
        main(["decode", str(path), s, "--bogus", a])
    with pytest.raises(SystemExit):
        main(["encode", str(path), "--show", "tokens", str(text), str(text)])


def test_train_help_says_what_the_size_the_unit_and_the_tie_rule_mean(capsys, monkeypatch):
    # --vocab-size, --unit and --tie-break had no words (or none on what vocab_size counts).
    said = " ".join(_main(capsys, monkeypatch, "train", "--help")[1].split())
    assert "reaches this size (base symbols + merges + special tokens)" in said
    assert "the 256 bytes, or the characters of the corpus (others become [UNK])" in said
    assert ("the first in the corpus, or the one of the lowest ids (as Hugging Face's trainer "
            "on characters)") in said
