"""Chat templates: a conversation written as the one string a chat model is trained to read.

A model's ``tokenizer_config.json`` carries its ``chat_template``, a Jinja2 template over the
``messages`` (``{"role": ..., "content": ...}`` each) and the model's special tokens. It is
rendered as Hugging Face transformers renders it: in a sandbox (a template is code from a
file, and must not reach Python's internals), blocks trimmed, ``raise_exception`` and
``strftime_now`` available, ``tojson`` keeping non-ASCII text as it is. The result is then
tokenized with its special tokens recognized, and without adding a BOS of the post-processor's:
the template writes its own.

>>> template = ("{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
...             "<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}")
>>> render(template, [{"role": "user", "content": "Hi"}], special_tokens={"bos_token": "<s>"})
'<s><|user|>Hi<|end|><|assistant|>'
"""

from __future__ import annotations

import functools
import json
from datetime import datetime
from typing import Any, Mapping, Sequence

from jinja2 import TemplateError, nodes
from jinja2.ext import Extension, loopcontrols

from .jinja_limits import BoundedEnvironment, LimitError

ROLES = ("system", "user", "assistant")
#: How long a template may take to render, the longest prompt it may write, and the longest
#: template read: real ones take a millisecond, write what the messages hold and a few hundred
#: characters more, and are at most some 20,000 characters long (GPT-OSS's).
RENDER_SECONDS, MAX_PROMPT_CHARS, MAX_TEMPLATE_CHARS = 2.0, 1_000_000, 200_000


class ChatTemplateError(ValueError):
    """A chat template that cannot be read or rendered; the message says why."""


def templates(config: Mapping[str, Any]) -> dict[str, str]:
    """The chat templates of a ``tokenizer_config.json``, by name ("default" for a single one).

    >>> templates({"chat_template": [{"name": "default", "template": "a"},
    ...                              {"name": "tool_use", "template": "b"}]})
    {'default': 'a', 'tool_use': 'b'}
    >>> templates({"chat_template": "{{ messages }}"}), templates({})
    ({'default': '{{ messages }}'}, {})
    """
    found = config.get("chat_template")
    if isinstance(found, str):
        return {"default": found}
    if isinstance(found, list):
        return {t["name"]: t["template"] for t in found
                if isinstance(t, dict) and isinstance(t.get("name"), str)
                and isinstance(t.get("template"), str)}
    return {}


def special_tokens(config: Mapping[str, Any]) -> dict[str, str]:
    """``bos_token``, ``eos_token``, ... of a ``tokenizer_config.json``, as text (a file may
    write each as a string or as an added-token object with its ``content``).

    >>> special_tokens({"bos_token": "<s>", "eos_token": {"content": "</s>"}, "pad_token": None})
    {'bos_token': '<s>', 'eos_token': '</s>'}
    """
    out = {}
    for key, value in config.items():
        if key.endswith("_token"):
            value = value.get("content") if isinstance(value, dict) else value
            if isinstance(value, str):
                out[key] = value
    return out


def render(template: str, messages: Sequence[Mapping[str, str]], *,
           add_generation_prompt: bool = True, tools: list | None = None,
           documents: list | None = None, special_tokens: Mapping[str, str] | None = None,
           seconds: float = RENDER_SECONDS, max_chars: int = MAX_PROMPT_CHARS) -> str:
    """The prompt a model receives for ``messages``; raises :class:`ChatTemplateError` with the
    template's own message when it refuses them (a role it does not know, an order it forbids)
    or cannot be read, or when it takes longer than ``seconds`` or would write more than
    ``max_chars`` characters (``jinja_limits``: a template from a file must not hold the
    thread that renders it)."""
    if len(template) > MAX_TEMPLATE_CHARS:
        raise ChatTemplateError(f"the chat template has {len(template):,} characters, more "
                                f"than the {MAX_TEMPLATE_CHARS:,} a template may have here")
    env = _environment(seconds=seconds, max_chars=max_chars)
    try:
        # tools and documents are None unless given, as transformers passes them: a template's
        # `tools is not none` is false and its `tools is defined` true, there too.
        return env.render(template, dict(messages=list(messages), tools=tools,
                                         documents=documents,
                                         add_generation_prompt=add_generation_prompt,
                                         **dict(special_tokens or {})))
    except ChatTemplateError:
        raise
    except LimitError as exc:
        raise ChatTemplateError(str(exc)) from None
    except TemplateError as exc:
        raise ChatTemplateError(f"the chat template cannot be used: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a template may fail in any way its code can
        raise ChatTemplateError(f"the chat template failed: {type(exc).__name__}: {exc}") from None


def _raise(message: str) -> None:
    raise ChatTemplateError(f"the chat template refuses these messages: {message}")


#: The widest indent ``tojson`` takes, and its longest separator: templates indent by 2 or 4 and
#: separate by ', ' or ':'; a wide one is written at every line (or item) and every level of
#: nesting (a list of 1,500 numbers at 900,000 spaces: 1.3 GB).
MAX_JSON_INDENT = 16


def _tojson(value: Any, ensure_ascii: bool = False, indent: int | None = None,
            separators: tuple[str, str] | None = None, sort_keys: bool = False) -> str:
    """transformers' ``tojson``, with its arguments in its order, within the size limits."""
    if indent is not None and type(indent) is not int:  # (a text would be written per line)
        raise TypeError("tojson's indent is a number of spaces")
    if indent is not None and indent > MAX_JSON_INDENT:
        raise ValueError(f"tojson's indent is at most {MAX_JSON_INDENT} spaces here")
    if separators is not None and any(len(str(s)) > MAX_JSON_INDENT for s in separators):
        raise ValueError(f"tojson's separators are at most {MAX_JSON_INDENT} characters here")
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                      sort_keys=sort_keys)


class _Generation(Extension):
    """``{% generation %}…{% endgeneration %}``: transformers marks with it the assistant's
    turns a model is trained on (``return_assistant_tokens_mask``); for the text it changes
    nothing, so its body is rendered where it stands."""

    tags = {"generation"}

    def parse(self, parser) -> list[nodes.Node]:
        next(parser.stream)  # the tag's name
        return parser.parse_statements(("name:endgeneration",), drop_needle=True)


@functools.lru_cache(maxsize=4)
def _environment(*, seconds: float, max_chars: int) -> BoundedEnvironment:
    """One environment per pair of limits, for every thread: it keeps the templates compiled."""
    env = BoundedEnvironment(seconds=seconds, max_chars=max_chars, filters={"tojson": _tojson},
                             trim_blocks=True, lstrip_blocks=True,
                             extensions=[loopcontrols, _Generation])
    env.globals.update(raise_exception=_raise,
                       strftime_now=lambda fmt: datetime.now().strftime(fmt))
    return env
