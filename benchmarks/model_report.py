"""The table ``benchmarks.real_models`` prints: a row per model (load times, whether the ids
agree, throughput, growth), and numbered notes under it for what failed and how.
"""

from __future__ import annotations

from .model_texts import CJK_BYTES, ENGLISH_BYTES, GROWTH_KINDS, GROWTH_LARGE, GROWTH_SMALL


class Notes:
    """Numbered notes under the table: what failed and how."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, label: str, text: str) -> str:
        self.lines.append(f"[{len(self.lines) + 1}] {label}: {text}")
        return f"[{len(self.lines)}]"


def _mbs(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def cells(label: str, r: dict, notes: Notes) -> list[str]:
    if "crash" in r:
        ref = notes.add(label, r["crash"])
        return [label, "—", f"crashed {ref}", "—", "—", "—", "—", "—"]
    ours_load = (f"{r['ours_load']:.2f} s" if "ours_load" in r
                 else f"failed {notes.add(label, r['load_error'])}")
    long = r.get("long", {})
    if "load_error" in r:
        ids = "—"
    else:
        failures = list(r["differ"]) + [f"{name}: {f['error']}" for name, f in long.items()
                                         if "error" in f]
        checked = f"{r['texts']} texts" + (f" + {sum(f['mb'] for f in long.values()):.1f} MB"
                                           if long else "")
        if failures:
            ref = notes.add(label, failures[0] + (f" (and {len(failures) - 1} more)"
                                                  if len(failures) > 1 else ""))
            ids = f"**no**: {len(failures)} of {r['texts'] + len(long)} {ref}"
        else:
            ids = f"yes ({checked})"
    row = [label, f"{r['hf_load']:.2f} s / {ours_load}", ids]
    for name in ("English", "CJK"):
        f = long.get(name)
        if f is None:
            row += ["—", "—"]
            continue
        ours = f.get("ours_mbs")
        row += [f"{_mbs(f['hf_mbs'])} / {_mbs(ours)}",
                "—" if ours is None else f"{ours / f['hf_mbs']:.2f}×"]
    g = r.get("growth")
    row.append(" / ".join(f"{g[k]:.0f}×" if k in g else "—" for k in GROWTH_KINDS) if g else "—")
    return row


HEADER = ["model", "load: tokenizers / bpe_core", "ids identical",
          f"English {ENGLISH_BYTES / 1e6:.1f} MB, MB/s: tokenizers / bpe_core", "ratio",
          f"CJK {CJK_BYTES / 1e6:.1f} MB, MB/s: tokenizers / bpe_core", "ratio",
          f"{GROWTH_LARGE // 1000} kB / {GROWTH_SMALL // 1000} kB time: "
          + " / ".join(GROWTH_KINDS)]


def markdown(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table whose columns line up in a terminal (header, rule, rows)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"

    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|",
                      *map(line, rows)])
