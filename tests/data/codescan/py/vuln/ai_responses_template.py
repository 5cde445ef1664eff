from flask import Flask, render_template_string
from openai import OpenAI

app = Flask(__name__)
client = OpenAI()

@app.get("/card/<name>")
def card(name):
    resp = client.responses.create(
        model="gpt-4.1-mini",
        input=f"Write a short Jinja2 HTML greeting card for {name}.",
    )
    return render_template_string(resp.output_text)
