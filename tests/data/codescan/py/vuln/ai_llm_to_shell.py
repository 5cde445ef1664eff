    completion = llm.invoke(f"Give me one bash command that {task}. Reply with the command only.")
    command = completion.content
    result = subprocess.run(command, shell=True, capture_output=True, text=True)
