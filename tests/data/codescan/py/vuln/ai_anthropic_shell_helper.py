import subprocess
import anthropic

client = anthropic.Anthropic()

def fix_permissions(problem):
    message = client.messages.create(
        model="claude-3-5-sonnet-latest",
        max_tokens=200,
        messages=[{"role": "user", "content": f"One shell command that fixes: {problem}. Command only."}],
    )
    suggestion = message.content[0].text
    out = subprocess.check_output(suggestion, shell=True, text=True)
    return out
