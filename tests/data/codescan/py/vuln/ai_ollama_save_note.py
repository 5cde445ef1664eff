    reply = ollama.chat(model="llama3.1", messages=[{"role": "user", "content": "Suggest a file name for: " + summary}])
    filename = reply["message"]["content"].strip()
    with open(os.path.join(NOTES_DIR, filename), "w", encoding="utf-8") as fh:
        fh.write(summary)
