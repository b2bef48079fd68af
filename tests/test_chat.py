"""Chat templates (bpe_core.chat) render as transformers renders them, in a sandbox."""

from __future__ import annotations

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
