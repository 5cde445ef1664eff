"""Chat helper: constant system prompt, user text only in the user message, structured output
validated against a schema before anything acts on it. Model output is never executed."""
import json
import logging

from jsonschema import validate
from openai import OpenAI

client = OpenAI()  # reads OPENAI_API_KEY from the environment
log = logging.getLogger(__name__)

SYSTEM_PROMPT = (
    "You are a support assistant. Reply with JSON: {\"action\": one of [\"refund\", \"escalate\", "
    "\"answer\"], \"text\": string}. Never run code."
)
ACTION_SCHEMA = {
    "type": "object",
    "properties": {"action": {"enum": ["refund", "escalate", "answer"]}, "text": {"type": "string"}},
    "required": ["action", "text"],
}
HANDLERS = {"refund": lambda t: refunds.open_ticket(t), "escalate": lambda t: support.escalate(t),
            "answer": lambda t: t}


def ask(question: str) -> str:
    resp = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": question}],
        response_format={"type": "json_object"},
        max_tokens=400,
    )
    reply = json.loads(resp.choices[0].message.content)
    validate(reply, ACTION_SCHEMA)
    log.info("model chose %s", reply["action"])
    return HANDLERS[reply["action"]](reply["text"])


def load_model(path: str):
    import torch
    return torch.load(path, map_location="cpu", weights_only=True)
