"""Command line: ``python -m bpe_core train|encode|decode|info``.

    python -m bpe_core train corpus.txt -o tok.json --vocab-size 1000
    echo "Hello world" | python -m bpe_core encode tok.json --show tokens
    python -m bpe_core decode tok.json 15496 995
    python -m bpe_core info tok.json
    echo "Hello world" | python -m bpe_core encode cl100k_base     # OpenAI's, by name
    python -m bpe_core info Qwen/Qwen3-8B                         # a Hugging Face model, by id
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import tempfile
import time
from pathlib import Path

from . import formats, train_progress_line
from .alphabet import END_OF_WORD
from .formats.hub import HubError, load_model
from .formats.openai import REFERENCE_ENCODINGS, ReferenceUnavailableError, reference_encoding
from .presets import PRESETS
from .tokenizer import Tokenizer
from .training.counting import not_utf8, read_files
from .training.trainer import TIE_BREAKS, UNITS, Trainer

# Background colours for --show colour: neighbouring tokens never share one.
_COLOURS = ["\x1b[48;5;153m", "\x1b[48;5;223m", "\x1b[48;5;194m", "\x1b[48;5;225m",
            "\x1b[48;5;230m"]
_RESET = "\x1b[0m"
# What a terminal acts on instead of showing, written as --show tokens writes it (\x1b): control
# characters (ESC starts colour, cursor and title sequences; CR goes back over the line) and the
# bidi embeddings, overrides and isolates (which turn round what follows). Tab and newline stay.
_ACTING = str.maketrans({c: c.encode("unicode_escape").decode() for c in (
    *map(chr, range(0x20)), *map(chr, range(0x7f, 0xa0)), *"\u202a\u202b\u202c\u202d\u202e",
    *"\u2066\u2067\u2068\u2069") if c not in "\t\n"})
SHOWN_SPECIAL = 12  # special tokens info lists by name (Llama 3 has 256)


def _cmd_train(args) -> int:
    cores = os.cpu_count() or 1
    if args.processes is not None and args.processes > cores:
        # Each worker starts a Python (--processes 1000 took 66 s on a tiny file), and on a
        # machine of n cores more than n only wait for one another.
        raise ValueError(f"--processes {args.processes}: this machine has {cores} "
                         f"core{'s' * (cores != 1)}; ask for {cores} at most")
    trainer = Trainer(args.vocab_size, max_merges=args.max_merges,
                      min_frequency=args.min_frequency, unit=args.unit,
                      pretokenizer=args.pretokenizer, tie_break=args.tie_break,
                      special_tokens=args.special_token, byte_fallback=args.byte_fallback,
                      processes=args.processes, max_ties=0, name=args.name)
    _check_writable(Path(args.output))
    if args.format in ("tiktoken", "gpt2"):
        # What these formats cannot hold (characters, </w>, a special token spelled like a
        # byte's) follows from the settings: the same tokenizer with no merges tells at once.
        bare = Trainer(max_merges=0, unit=args.unit, pretokenizer=args.pretokenizer,
                       special_tokens=args.special_token, byte_fallback=args.byte_fallback,
                       max_ties=0, name=args.name).fit(["a"])
        with tempfile.TemporaryDirectory() as folder:  # (GPT-2's are two files)
            formats.save(bare, Path(folder, Path(args.output).name), format=args.format)
    started = time.perf_counter()
    print(f"counting words in {len(args.files)} file(s)…", file=sys.stderr)
    steps = trainer.run(read_files(args.files))
    print(f"{len(trainer.word_counts):,} distinct words; merging…", file=sys.stderr)
    for step in steps:
        if args.verbose or step.rank % 100 == 0:
            print(train_progress_line(step), file=sys.stderr)
    tok = trainer.tokenizer
    formats.save(tok, args.output, format=args.format)
    written = args.output
    if args.format == "gpt2":
        written += f" and {formats.merges_candidates(Path(args.output))[0]}"
    print(f"done in {time.perf_counter() - started:.1f} s: {len(tok.merges):,} merges, "
          f"vocab_size {tok.vocab_size:,}, stopped by {tok.stop_reason}; wrote {written}",
          file=sys.stderr)
    if args.format in ("tiktoken", "gpt2"):
        print(f"it keeps no pre-tokenizer: encode with --pretokenizer "
              f"{shlex.quote(args.pretokenizer)}", file=sys.stderr)
    if args.format == "tiktoken" and tok.special_tokens:
        # (tiktoken keeps an encoding's special tokens in code, beside its rank file.)
        given = ", ".join(f"{t!r} ({i})" for t, i in tok.special_tokens.items())
        print(f"nor its special tokens, {given}: save as native or hf to keep them",
              file=sys.stderr)
    return 0


def _check_writable(out: Path) -> None:
    """Fail before training, not after it (it may take hours), when ``out`` cannot be written."""
    if out.is_dir():
        raise ValueError(f"cannot write {out}: it is a folder")
    if not out.parent.is_dir():
        raise ValueError(f"cannot write {out}: there is no folder {out.parent}")
    if not os.access(out.parent, os.W_OK):
        raise ValueError(f"cannot write {out}: the folder {out.parent} is not writable")


#: A Hugging Face model id: owner/name, as the Hub spells them.
_HUB_ID = re.compile(r"[\w.-]+/[\w.-]+")
#: An option, not "-" (standard input) nor a negative number (an id, refused as such).
_OPTION = re.compile(r"-(?!\d+$).+")
#: How tokenizer files end, and no model id does.
_FILE_ENDINGS = (".json", ".tiktoken", ".txt", ".model")


def _open(source: str, pretokenizer: str | None) -> Tokenizer:
    """The tokenizer a command names: a file; else, as the app's sidebar takes them, one of
    OpenAI's encodings by name (through tiktoken's download and cache) or a Hugging Face model
    by its id (through the Hub's cache, downloaded once). Either fails offline with what to do."""
    if not os.path.exists(source):
        if source in REFERENCE_ENCODINGS:
            return reference_encoding(source)
        # A missing file in a folder (out/tok.json) is spelled like a model id: said missing.
        if _HUB_ID.fullmatch(source) and not source.lower().endswith(_FILE_ENDINGS) and not (
                os.path.isdir(os.path.dirname(source))):
            return load_model(source).tokenizer
    return formats.load(source, pretokenizer=pretokenizer)


def _read_input(path: str) -> str:
    """The text of a file or of standard input ("-"), as its bytes say: a file's CRLF stays one
    (text mode made it "\\n", and so other ids), and bytes that are no UTF-8 are named."""
    if path == "-":
        if sys.stdin is None:  # (started with standard input closed: `<&-`)
            raise ValueError("standard input is closed: pipe the text in, or name a file")
        name, data = "standard input", sys.stdin.buffer.read()
    else:
        name = path
        with open(path, "rb") as f:
            data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc, exc.start) from None


def _cmd_encode(args) -> int:
    tok = _open(args.tokenizer, args.pretokenizer)
    text = _read_input(args.input)
    split = args.split_special_tokens
    if args.show == "ids":
        print(" ".join(map(str, tok.encode(text, split_special_tokens=split, upto=args.upto))))
        return 0
    spans = tok.spans(text, split_special_tokens=split, upto=args.upto)
    if args.show == "tokens":
        for s in spans:
            print(f"{s.id}\t{s.token!r}")
    else:
        print(_coloured(tok, spans, text))
    n, m = len(spans), len(text)
    print(f"{n:,} token{'s' * (n != 1)}, {m:,} character{'s' * (m != 1)}", file=sys.stderr)
    return 0


def _coloured(tok: Tokenizer, spans, text: str) -> str:
    """The text in coloured tokens: text no token covers (the spaces a whitespace split drops)
    plain, each character once (a file's ``</w>`` covers its word's last character too), and
    the end-of-word marker shown where a token ends a word, as the app draws it."""
    out, pos = [], 0
    for k, s in enumerate(spans):
        out.append(_printable(text[pos:s.start]))
        shown = s.token if s.partial else text[max(pos, s.start):s.end]
        if tok.ends_word(s.id) and not s.partial:
            shown += END_OF_WORD
        out.append(_COLOURS[k % len(_COLOURS)] + "\x1b[30m" + _printable(shown) + _RESET)
        pos = max(pos, s.end)
    return "".join(out) + _printable(text[pos:])


def _printable(text: str) -> str:
    """``text`` as a terminal shows it, not acts on it: an ESC in the input or in a file's
    token or name printed raw could recolour, clear or retitle the terminal."""
    return text.translate(_ACTING)


def _cmd_decode(args) -> int:
    tok = _open(args.tokenizer, args.pretokenizer)
    raw = args.ids if args.ids else _read_input("-").split()
    try:
        ids = [int(x) for x in raw]
    except ValueError as exc:
        raise ValueError(f"token ids must be whole numbers ({exc})") from None
    for i in ids:  # the library skips unknown ids, as tokenizers does; a script wants to know
        tok.view.check(i)
    sys.stdout.write(tok.decode(ids, skip_special_tokens=not args.keep_special_tokens) + "\n")
    return 0


def _cmd_info(args) -> int:
    tok = _open(args.tokenizer, args.pretokenizer)
    print(f"name:          {_printable(tok.name)}")
    print(f"pipeline:      {_printable(tok.describe())}")
    print(f"vocab_size:    {tok.vocab_size:,} ({len(tok.merges):,} merges, "
          f"{len(tok.special_tokens)} special)")
    special = list(tok.special_tokens)
    more = f" and {len(special) - SHOWN_SPECIAL:,} more" if len(special) > SHOWN_SPECIAL else ""
    listed = _printable(', '.join(special[:SHOWN_SPECIAL]))
    print(f"special:       {listed or '(none)'}{more}")
    if tok.stop_reason:  # only a tokenizer trained here knows why its training stopped
        print(f"stop reason:   {tok.stop_reason}")
    if tok.ignore_merges:
        print("ignore_merges: a piece that is a whole token is not merged (as in tiktoken)")
    shown = tok.merges[: args.merges]
    # A merge's count is its pair's when it was learned here; a model file keeps none.
    counted = any(m.count for m in shown)
    if len(shown):
        print(f"merges 1–{len(shown):,} of {len(tok.merges):,} (rank: left + right -> token"
              f"{', pair count when learned' if counted else ''}):")
    for m in shown:
        count = f"  ({m.count:,})" if counted else ""
        print(f"  {m.rank:>6}  {m.left!r} + {m.right!r} -> {m.token!r}{count}")
    return 0


def _count(least: int):
    """An argparse type: a whole number of at least ``least`` (a negative --merges listed all
    but the last few under "merges 1–3 of 4", a negative --upto meant none)."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, got {value}")
        return value
    return read


_SOURCE = (f"a tokenizer file, one of OpenAI's encodings ({', '.join(REFERENCE_ENCODINGS)}) or "
           f"a Hugging Face model id (owner/name)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bpe_core",
                                description="Train, apply and inspect BPE tokenizers.")
    sub = p.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="train a tokenizer from text files",
                       description="Train a BPE tokenizer from UTF-8 text files (read streaming).")
    t.add_argument("files", nargs="+", help="UTF-8 text files")
    t.add_argument("-o", "--output", required=True, help="tokenizer file to write")
    t.add_argument("--vocab-size", type=int,
                   help="stop when the vocabulary reaches this size (base symbols + merges + "
                        "special tokens)")
    t.add_argument("--max-merges", type=int, help="stop after this many merges")
    t.add_argument("--min-frequency", type=int, default=2,
                   help="stop when the best pair occurs fewer times (default 2)")
    t.add_argument("--unit", choices=UNITS, default="byte",
                   help="base symbols: the 256 bytes, or the characters of the corpus (others "
                        "become [UNK]); default byte")
    t.add_argument("--pretokenizer", default="gpt2",
                   help=f"a preset ({', '.join(PRESETS)}) or a custom regex (default gpt2)")
    t.add_argument("--tie-break", choices=TIE_BREAKS, default="first",
                   help="which of the pairs with the highest count is merged: the first in the "
                        "corpus, or the one of the lowest ids (as Hugging Face's trainer on "
                        "characters); default first")
    t.add_argument("--special-token", action="append", default=[],
                   help="a special token, e.g. '<|endoftext|>' (repeatable)")
    t.add_argument("--byte-fallback", action="store_true",
                   help="char unit: encode unseen characters as bytes instead of [UNK]")
    t.add_argument("--processes", type=_count(1), default=None,
                   help="processes for counting, at most one per core (default: one; a second "
                        "rarely pays)")
    t.add_argument("--name", default="bpe", help="a name stored in the file")
    t.add_argument("--format", default="native", choices=formats.FORMATS,
                   help="file format; tiktoken and gpt2 (which writes merges.txt beside it) "
                        "keep no pre-tokenizer: encode them with --pretokenizer")
    t.add_argument("-v", "--verbose", action="store_true", help="print every merge")
    t.set_defaults(func=_cmd_train)

    e = sub.add_parser("encode", help="encode text to ids or tokens",
                       description="Encode a UTF-8 file (or standard input) with a tokenizer.")
    e.add_argument("tokenizer", help=_SOURCE)
    e.add_argument("input", nargs="?", default="-", help="text file, or - for standard input")
    e.add_argument("--show", choices=["ids", "tokens", "colour"], default="ids",
                   help="ids (default), one token per line, or coloured tokens for a terminal")
    e.add_argument("--upto", type=_count(0), help="use only the first K merges")
    e.add_argument("--split-special-tokens", action="store_true",
                   help="read special-token text in the input as ordinary text")
    e.set_defaults(func=_cmd_encode, trailing="input")

    d = sub.add_parser("decode", help="decode ids to text",
                       description="Decode token ids (arguments, or standard input) to text.")
    d.add_argument("tokenizer", help=_SOURCE)
    d.add_argument("ids", nargs="*", help="token ids (default: read from standard input)")
    d.add_argument("--keep-special-tokens", action="store_true",
                   help="write special tokens such as <|endoftext|> as their text (by default "
                        "they are left out, as Hugging Face's decode leaves them)")
    d.set_defaults(func=_cmd_decode, trailing="ids")

    i = sub.add_parser("info", help="describe a tokenizer", description="Describe a tokenizer.")
    i.add_argument("tokenizer", help=_SOURCE)
    i.add_argument("--merges", type=_count(0), default=10,
                   help="how many merges to list (default 10)")
    i.set_defaults(func=_cmd_info)
    for sp in (e, d, i):
        sp.add_argument("--pretokenizer", default=None,
                        help="for a .tiktoken or GPT-2 vocab.json file, which store no "
                             "pattern: the pre-tokenizer it was made with, a preset or a regex "
                             "(a GPT-2 file's default: gpt2)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # An option between the tokenizer and the ids or the input file ends argparse's positionals
    # early (`decode tok.json --keep-special-tokens 72 101` refused "72 101"): what is left over
    # there, no option among it, is the rest of them.
    args, extra = parser.parse_known_args(argv)
    if extra:
        trailing = getattr(args, "trailing", None)
        if any(_OPTION.fullmatch(arg) for arg in extra) or not (
                trailing == "ids" or trailing == "input" and args.input == "-" and len(extra) == 1):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        if trailing == "ids":
            args.ids += extra
        else:
            args.input = extra[0]
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader left (`encode big.txt | head -1`): stop quietly, as other tools do, and
        # point standard output at nothing so that Python's last flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, OSError, HubError, ReferenceUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
