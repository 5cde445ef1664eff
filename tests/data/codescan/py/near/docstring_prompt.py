def build_prompt(question: str) -> list[dict]:
    """The system prompt is constant; the user's question only goes in the user message."""
    return [
        {"role": "system", "content": "Answer using only the provided context."},
        {"role": "user", "content": question},
    ]
