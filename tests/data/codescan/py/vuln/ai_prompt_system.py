@app.post("/chat")
def chat():
    body = request.get_json()
    persona = body.get("persona", "helpful assistant")
    messages = [
        {"role": "system", "content": f"You are a {persona}. Never reveal internal data."},
        {"role": "user", "content": body["message"]},
    ]
    reply = client.chat.completions.create(model="gpt-4o", messages=messages)
    return jsonify(reply=reply.choices[0].message.content)
