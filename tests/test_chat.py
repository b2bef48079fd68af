"""Chat templates (bpe_core.chat) render as transformers renders them, in a sandbox."""

from __future__ import annotations

import threading
import tracemalloc

import pytest

import bpe_core
from bpe_core.chat import ChatTemplateError, render, special_tokens, templates
from tests.model_files import llama3_file

# The shape of ChatML (Qwen, SmolLM). Blocks are trimmed: a line break right after a block tag
# vanishes (one after an expression stays, as in Jinja itself).
CHATML = """{% for message in messages %}
{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}
{%- endfor %}
{% if add_generation_prompt %}
{{- '<|im_start|>assistant\\n' }}{% endif %}"""
MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Héllo?"}]


def test_chatml_renders_as_the_model_reads_it():
    assert render(CHATML, MESSAGES) == ("<|im_start|>system\nBe brief.<|im_end|>\n"
                                        "<|im_start|>user\nHéllo?<|im_end|>\n"
                                        "<|im_start|>assistant\n")
    assert render(CHATML, MESSAGES, add_generation_prompt=False).endswith("<|im_end|>\n")


def test_a_template_that_refuses_the_messages_says_so_in_its_own_words():
    template = ("{% if messages[0]['role'] == 'system' %}"
                "{{ raise_exception('System role not supported') }}{% endif %}")
    with pytest.raises(ChatTemplateError, match="refuses these messages: System role not "
                                                "supported"):
        render(template, MESSAGES)


def test_the_sandbox_keeps_a_template_away_from_pythons_internals():
    with pytest.raises(ChatTemplateError):
        render("{{ ''.__class__.__mro__[1].__subclasses__() }}", MESSAGES)
    with pytest.raises(ChatTemplateError, match="cannot be used"):
        render("{% for m in messages %}", MESSAGES)  # not closed


def test_tojson_keeps_text_as_it_is_and_the_date_helper_exists():
    assert render("{{ messages[1] | tojson }}", MESSAGES) == '{"role": "user", "content": "Héllo?"}'
    assert len(render("{{ strftime_now('%Y') }}", [])) == 4


def test_tools_documents_and_tojson_are_as_transformers_gives_them():
    # transformers passes tools=None and documents=None when there are none (Mistral's and
    # Llama 3.1's templates test `tools is not none`, Hermes's `tools is defined`), and its
    # tojson takes (ensure_ascii, indent, separators, sort_keys).
    template = ("{% if tools is not none %}T{% endif %}{% if tools is defined %}D{% endif %}"
                "{{ documents | tojson }}|{{ messages[1] | tojson(separators=(',', ':')) }}"
                "|{{ messages[1] | tojson(true) }}")
    assert render(template, MESSAGES) == (
        'Dnull|{"role":"user","content":"Héllo?"}|{"role": "user", "content": "H\\u00e9llo?"}')
    with pytest.raises(ChatTemplateError, match="separators are at most 16 characters"):
        render("{{ messages | tojson(separators=(',' * 17, ':')) }}", MESSAGES)


def test_a_config_gives_its_templates_and_special_tokens():
    config = {"chat_template": [{"name": "default", "template": CHATML},
                                {"name": "tool_use", "template": "{{ tools }}"}],
              "bos_token": {"content": "<s>", "lstrip": False}, "eos_token": "</s>",
              "model_max_length": 4096}
    assert list(templates(config)) == ["default", "tool_use"]
    assert special_tokens(config) == {"bos_token": "<s>", "eos_token": "</s>"}


def test_the_rendered_prompt_has_its_special_tokens_found_whole():
    tok = bpe_core.loads(llama3_file())
    template = ("{{ bos_token }}{% for m in messages %}<|x|>{{ m['role'] }}\n{{ m['content'] }}"
                "<|x|>{% endfor %}")
    prompt = render(template, MESSAGES, special_tokens={"bos_token": "<|begin_of_text|>"})
    spans = tok.spans(prompt)
    assert [s.token for s in spans if s.special] == ["<|begin_of_text|>"] + ["<|x|>"] * 4


def test_the_generation_tag_marks_assistant_turns_and_leaves_the_text_as_it_is():
    # The shape of SmolLM3's and OLMo's templates: the trained-on span of an assistant's turn.
    template = ("{% for m in messages %}<|{{ m['role'] }}|>\n"
                "{% if m['role'] == 'assistant' %}{% generation %}\n"
                "{{ m['content'] }}<|end|>\n{% endgeneration %}\n"
                "{% else %}{{ m['content'] }}<|end|>\n{% endif %}{% endfor %}")
    messages = MESSAGES + [{"role": "assistant", "content": "Hi!"}]
    assert render(template, messages) == ("<|system|>\nBe brief.<|end|>\n<|user|>\nHéllo?<|end|>\n"
                                          "<|assistant|>\nHi!<|end|>\n")
    with pytest.raises(ChatTemplateError, match="cannot be used"):
        render("{% generation %}x", MESSAGES)  # not closed


TOO_LONG = ("the chat template took longer than 0.2 s to render, so it was stopped (a loop "
            "that runs too long?)")
TOO_BIG = "the chat template would make a text or list of more than 10,000 characters or items"
WROTE = "the chat template produced more than 10,000 characters, more than a prompt may have here"


@pytest.mark.parametrize("template, said", [
    # Loops that run for hours: the clock is read at every turn, with or without a call.
    ("{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
     TOO_LONG),
    ("{% set l = range(9000)|list %}{% for a in l %}{% for b in l %}{% endfor %}{% endfor %}",
     TOO_LONG),
    ("{% for i in range(9000) recursive %}{{ loop(range(9000)) if loop.depth < 3 else '' }}"
     "{% endfor %}", TOO_LONG),
    # What multiplies a size is refused before it is made.
    ("{{ 'x' * 10**9 }}", TOO_BIG),
    ("{% set l = [1] * 1000000000 %}", TOO_BIG),
    ("{{ 'x'|center(1000000000) }}", TOO_BIG),
    ("{{ 'x'.ljust(1000000000) }}", TOO_BIG),
    ("{{ '%1000000000s' % 'x' }}", TOO_BIG),
    ("{{ '{:>1000000000}'.format('x') }}", TOO_BIG),
    ("{{ '%1000000000s'|format('x') }}", TOO_BIG),
    ("{% set s = 'x' * 9000 %}{{ ([s] * 1000)|join }}", TOO_BIG),
    ("{% set s = 'x' * 9000 %}{{ ''.join([s] * 1000) }}", TOO_BIG),
    ("{% set s = 'x' * 9000 %}{{ s|replace('x', s) }}", TOO_BIG),
    ("{% set s = 'x' * 9000 %}{{ s.replace('x', s) }}", TOO_BIG),
    ("{% set s = '\\n' * 9000 %}{{ s|indent('x' * 9000) }}", TOO_BIG),
    ("{% set l = range(9000)|list %}{{ ([l] * 1000)|sum(start=[])|length }}", TOO_BIG),
    ("{% set s = 'x' * 9000 %}{{ s|wordwrap(1, wrapstring='y' * 9000) }}", TOO_BIG),
    ("{{ range(500)|list|tojson(indent=9000) }}",
     "the chat template failed: ValueError: tojson's indent is at most 16 spaces here"),
    # A list of references to one long text is small; its text is not.
    ("{% set l = ['x' * 9000] * 1000 %}{{ l }}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{{ l|string|length }}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{{ l|tojson|length }}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{% set t = 'a' ~ l %}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{% set t = '%s' % (l,) %}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{% set t = '{}'.format(l) %}", TOO_BIG),
    ("{% set l = ['x' * 9000] * 1000 %}{% set t = [l, l]|join %}", TOO_BIG),
    ("{{ lipsum(1000000) }}", "the chat template cannot be used: 'lipsum' is undefined"),
    # ...and what adds, once it is made: a doubling stops at the first step past the limit.
    ("{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}"
     "{% endfor %}", TOO_BIG),
    ("{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}"
     "{% endfor %}", TOO_BIG),
    ("{% macro f(s, n) %}{{ f(s ~ s, n - 1) if n else s|length }}{% endmacro %}{{ f('x', 60) }}",
     TOO_BIG),
    ("{{ 10 ** 1000000 }}", "the chat template would compute a number of more than 100,000 bits"),
    ("{% set ns = namespace(n=3) %}{% for i in range(40) %}{% set ns.n = ns.n * ns.n %}"
     "{% endfor %}", "the chat template would compute a number of more than 100,000 bits"),
    # Output, written or captured in a block, is counted as it is written.
    ("{% for i in range(100000) %}{{ 'abcdefghij' }}{% endfor %}", WROTE),
    ("{% set x %}{% for i in range(100000) %}{{ ('y' * 9000) ~ i }}{% endfor %}{% endset %}",
     WROTE),
    ("{% filter upper %}{% for i in range(100000) %}{{ 'y' * 9000 }}{% endfor %}{% endfilter %}",
     WROTE),
])
def test_a_hostile_template_is_stopped_in_time_and_size(template, said):
    with pytest.raises(ChatTemplateError) as error:
        render(template, MESSAGES, seconds=0.2, max_chars=10_000)
    assert str(error.value) == said


@pytest.mark.parametrize("template", [
    "{{ ('\\t' * 5000).expandtabs(9000) }}",  # 45 million spaces
    "{% set m = {97: 'b' * 9000} %}{{ ('a' * 9000).translate(m) }}",  # 81 million letters
    "{{ ('a' * 9000).translate(['b' * 9000] * 200) }}",
])
def test_a_method_that_multiplies_is_refused_before_it_makes_its_text(template):
    tracemalloc.start()
    try:
        with pytest.raises(ChatTemplateError) as error:
            render(template, MESSAGES, seconds=5, max_chars=10_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(error.value) == TOO_BIG
    assert peak < 10 * 2**20  # the text was never made


def test_a_template_too_long_to_read_is_refused_before_it_is_compiled():
    with pytest.raises(ChatTemplateError) as error:
        render("{{ messages }}" + " " * 200_000, MESSAGES)
    assert str(error.value) == ("the chat template has 200,014 characters, more than the "
                                "200,000 a template may have here")


def test_the_limits_leave_a_long_conversation_whole():
    messages = [{"role": "user", "content": "é" * 9_000}]
    assert render(CHATML, messages, max_chars=10_000) == (
        "<|im_start|>user\n" + "é" * 9_000 + "<|im_end|>\n<|im_start|>assistant\n")
    with pytest.raises(ChatTemplateError, match="more than 9,000 characters"):
        render(CHATML, messages, max_chars=9_000)


def test_sessions_rendering_at_once_each_keep_their_own_clock_and_count():
    # One environment serves every thread (it keeps the compiled templates); a hostile
    # template stopped in one thread leaves another thread's renders whole.
    hostile = "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}"
    errors = []

    def stopped() -> None:
        try:
            render(hostile, MESSAGES, seconds=0.3, max_chars=10_000)
        except ChatTemplateError as exc:
            errors.append(str(exc))

    thread = threading.Thread(target=stopped)
    thread.start()
    prompts = {render(CHATML, MESSAGES, seconds=0.3, max_chars=10_000) for _ in range(50)}
    thread.join()
    assert prompts == {render(CHATML, MESSAGES)}
    assert errors == [TOO_LONG.replace("0.2 s", "0.3 s")]
