command = llm.chat(messages: [{ role: 'user', content: "bash command to #{task}" }]).completion
system(command)
