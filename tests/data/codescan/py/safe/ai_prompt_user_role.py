SYSTEM_PROMPT = "You are a support assistant for Acme. Answer only about Acme products."

@app.post("/chat")
def chat():
    body = request.get_json()
    messages = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": body["message"]},
    ]
    reply = client.chat.completions.create(model="gpt-4o", messages=messages)
    return jsonify(reply=reply.choices[0].message.content)
