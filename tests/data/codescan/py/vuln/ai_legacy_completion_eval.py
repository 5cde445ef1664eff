import openai

def compute(expression_text):
    response = openai.ChatCompletion.create(
        model="gpt-3.5-turbo",
        messages=[{"role": "user", "content": "Turn this into a Python expression: " + expression_text}],
    )
    expr = response["choices"][0]["message"]["content"]
    return eval(expr)
